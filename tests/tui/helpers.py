"""Driving the app in tests: a fixed-size terminal, no animations, a fake clock."""
from __future__ import annotations

import time

from plyground.tui.app import create_app
from plyground.tui.widgets.inspector.mcts_view import MctsView
from plyground.tui.widgets.move_list import MoveList

SIZE = (160, 50)
SMALL = (80, 24)  # the smallest terminal every screen must stay usable in
SEED = 1  # the games' seed unless a test names one: snapshots show it, so it is fixed


def make_app(game_id="connect4", sides=None, position=None, **options):
    """The app; the analysis panel only where a test asks for it (analysis=True)."""
    options = {"clock": "tick", "animations": False, "move_delay": 0, "analysis": False,
               "seed": SEED, **options}
    return create_app(game_id, sides, position, **options)


def record_notifications(app) -> list[str]:
    """The messages the app shows as notifications, from now on."""
    seen: list[str] = []
    original = app.notify

    def notify(message, *args, **kwargs):
        seen.append(str(message))
        return original(message, *args, **kwargs)

    app.notify = notify
    return seen


async def wait_until(pilot, condition, timeout: float = 60.0) -> None:
    """Let the app run until `condition()` holds (fails the test after `timeout`)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {condition}")
        await pilot.pause(0.02)
    await pilot.pause()


async def settled(pilot, app) -> None:
    """Wait until no search runs, nothing is scheduled to start, the MCTS table
    has drawn and measured its last snapshot (its redraws are throttled, and a
    screenshot taken before the table is idle could catch it half laid out) and the
    inspector's summary is as high as its text, and the move list, when it shows the
    live game, is scrolled to its last moves."""
    screen = app.game_screen
    table = screen.query_one(MctsView)
    moves = screen.query_one(MoveList)

    def states() -> dict[str, bool]:
        return {"no search": screen.search is None, "no timer": screen.timer is None,
                "table settled": table.settled,
                "summary fitted": screen.inspector.summary_fitted,
                "more-rows sign current": screen.inspector.more_rows_current,
                "live moves at their end": moves.current is not moves.live
                or moves.at_its_end}

    try:
        await wait_until(pilot, lambda: all(states().values()))
    except AssertionError:
        raise AssertionError(f"the screen did not settle: {states()}") from None


def status_text(app) -> str:
    return str(app.game_screen.query_one("#status").content)
