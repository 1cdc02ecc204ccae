"""A seeded UI fuzzer: random keys, clicks and resizes sent to the app through Pilot.

Each session opens one game (the four in turn) with a human and an agent, and sends
its share of the events: keys a user might press anywhere (every screen: setup, game,
result, step mode, help, games; never the ones that quit), clicks at random cells and
resizes down to 60x20. After each event it checks that:
- the app raised nothing (a clean quit, which a click on Quit or the command
  palette can make, ends the session early);
- it showed no error notification (a failed search, a forfeit, a game that would not
  open: each is a bug when only a user's keys and clicks came in);
- the game's recorded moves replay, from its start, to the position it holds, and the
  board shows the position the screen says it shows.

The same seed sends the same events. `make fuzz` runs a long session
(python -m tests.tui.fuzz --events 10000 --seed 1); the suite runs a short one.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field

from tests.tui.helpers import make_app

GAMES = {  # each game with an agent quick enough for thousands of events
    "connect4": ("human", "mcts:iterations=300"),
    "boom": ("human", "alphabeta:depth=2"),
    "cephalopod": ("human", "mcts:iterations=200"),
    "quarto": ("human", "alphabeta:depth=1"),
}
# every key the app's screens answer, and some they do not; not q, ctrl+q or ctrl+c,
# which quit (the fuzzer would only open the app again)
KEYS = ([str(digit) for digit in range(10)] +
        list("abcdeghilmnoprstuvwxyz") +
        ["full_stop", "left_square_bracket", "right_square_bracket", "question_mark",
         "escape", "enter", "tab", "shift+tab", "space", "left", "right", "up", "down",
         "home", "end", "pageup", "pagedown", "backspace", "delete", "ctrl+s", "ctrl+p",
         "f1"])
SMALLEST, LARGEST = (60, 20), (200, 60)


@dataclass
class Report:
    events: int = 0
    sessions: int = 0
    quits: int = 0  # sessions a user's quit ended (a button, the command palette)
    problems: list[str] = field(default_factory=list)


def consistency_problem(app) -> str | None:
    """What is wrong with the game on screen, if anything."""
    from plyground.tui.screens.game import GameScreen

    screen = app.screen
    if not isinstance(screen, GameScreen):
        return None
    match = screen.match
    if len(match.states) != len(match.moves) + 1:
        return f"{len(match.moves)} moves but {len(match.states)} positions"
    state = match.start
    for move in match.moves:
        state = state.play(move)
    if state != match.state:
        return "the recorded moves do not replay to the game's position"
    if screen.board.state != screen.shown_state:
        return "the board does not show the position the screen shows"
    return None


async def session(game_id: str, rng: random.Random, events: int, report: Report) -> None:
    app = make_app(game_id, GAMES[game_id])
    errors: list[str] = []
    notify = app.notify

    def recording_notify(message, *args, severity="information", **kwargs):
        if severity == "error":
            errors.append(str(message))
        return notify(message, *args, severity=severity, **kwargs)

    app.notify = recording_notify
    size = (rng.randint(SMALLEST[0], LARGEST[0]), rng.randint(SMALLEST[1], LARGEST[1]))
    recent: deque[str] = deque(maxlen=12)  # the events before a problem, to repeat it
    async with app.run_test(size=size) as pilot:
        for number in range(events):
            kind = rng.random()
            if kind < 0.8:
                what = f"key {(key := rng.choice(KEYS))}"
                await pilot.press(key)
            elif kind < 0.95:
                width, height = app.size
                offset = (rng.randrange(width), rng.randrange(height))
                what = f"click at {offset}"
                await pilot.click(offset=offset)
            else:
                size = (rng.randint(SMALLEST[0], LARGEST[0]),
                        rng.randint(SMALLEST[1], LARGEST[1]))
                what = f"resize to {size}"
                await pilot.resize_terminal(*size)
            await pilot.pause()
            report.events += 1
            recent.append(what)
            where = (f"{game_id} at {size}, event {number} on "
                     f"{type(app.screen).__name__} after {', '.join(recent)}")
            if app._exception is not None:
                report.problems.append(f"{where}: {app._exception!r}")
                return
            if not app.is_running:
                # a clean quit (the setup's Quit button, the palette's Quit command)
                # ends the session
                report.quits += 1
                break
            if errors:
                report.problems.append(f"{where}: error shown: {errors[0]}")
                return
            problem = consistency_problem(app)
            if problem:
                report.problems.append(f"{where}: {problem}")
                return
    report.sessions += 1


async def fuzz(events: int, seed: int, per_session: int = 250) -> Report:
    """Send `events` events over sessions of `per_session`, the games in turn, in a
    folder of their own (a save dialog writes where it is told to), which goes."""
    rng, report = random.Random(seed), Report()
    games = list(GAMES)
    number = 0
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="plyground-fuzz-") as folder:
        os.chdir(folder)
        try:
            while report.events < events and not report.problems:
                count = min(per_session, events - report.events)
                await session(games[number % len(games)], rng, count, report)
                number += 1
        finally:
            os.chdir(here)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    started = time.monotonic()
    # the games the sessions play go to a history of their own, not the user's
    with tempfile.TemporaryDirectory(prefix="plyground-fuzz-home-") as home:
        os.environ["PLYGROUND_HOME"] = home
        report = asyncio.run(fuzz(arguments.events, arguments.seed))
    print(f"{report.events:,} events in {report.sessions} sessions "
          f"({report.quits} quit early; seed {arguments.seed}), "
          f"{time.monotonic() - started:.0f} s: "
          f"{len(report.problems)} problem(s)")
    for problem in report.problems:
        print("  " + problem)
    raise SystemExit(1 if report.problems else 0)


if __name__ == "__main__":
    main()
