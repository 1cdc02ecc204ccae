"""The Match screen in the app: a bad field is one line and starts nothing; a short
SPRT between cheap seeded agents decides, and the screen shows the LLR, counts and
result that run_sprt gives, at both sizes, and a finished game opens on the board (Esc
comes back); the small board follows the games under way on worker processes, and Esc
mid-run stops the run and keeps its finished games.

Games play in a thread of the test's process (test_arena_driver.thread_pool) except in
the test of the workers' moves: spawning and warming a worker process costs seconds."""
from __future__ import annotations

import io

from rich.console import Console
from textual.widgets import Static

from plyground.core import get_game
from plyground.core.play.arena import PairCounted, run_sprt
from plyground.tui.screens.game import GameScreen
from plyground.tui.screens.match import MatchScreen
from plyground.tui.sprt_text import elo_text
from plyground.tui.widgets.pentanomial import Pentanomial
from tests.core.test_arena import inline_pool
from tests.tui.helpers import SIZE, SMALL, make_app, wait_until
from tests.tui.test_arena_driver import thread_pool

GAME = get_game("connect4")
CHEAP = ("alphabeta:depth=2", "random")


async def open_match(pilot, app, sides=CHEAP, pool=None, **fields) -> MatchScreen:
    """The Match screen with `fields` filled in (seed 7, elo1 200, no openings: a
    suite shipped later changes nothing here)."""
    app.open_match(GAME, sides)
    await wait_until(pilot, lambda: isinstance(app.screen, MatchScreen))
    screen = app.screen
    screen.query_one("#openings").value = "none"
    fill(screen, {"elo1": "200", "match-seed": "7", **fields})
    if pool is not None:
        screen.pool = pool
    return screen


def fill(screen, fields: dict[str, str]) -> None:
    for name, value in fields.items():
        screen.query_one(f"#{name}").value = value


def text(screen, selector: str) -> str:
    """What the widget shows, as plain text."""
    console = Console(file=io.StringIO(), width=200, record=True)
    console.print(screen.query_one(selector, Static).content)
    return console.export_text()


async def decided(pilot, screen) -> None:
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: screen.view is not None and not screen.view.running,
                     timeout=120)


async def test_a_run_shows_what_run_sprt_computes_at_both_sizes_and_opens_its_games():
    app = make_app(None, None)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_match(pilot, app, pool=thread_pool, elo0="5", elo1="5")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert text(screen, "#match-error").strip() == \
            "elo0 must be below elo1 (they are 5 and 5)"
        assert screen.driver is None

        fill(screen, {"elo0": "0", "elo1": "200"})
        await decided(pilot, screen)
        assert text(screen, "#match-error").strip() == ""
        plan = screen.view.plan
        expected = [event.status for event in run_sprt(
            GAME, plan.players, plan.test, 7, inline_pool(), plan.max_pairs)
            if isinstance(event, PairCounted)][-1]
        assert f"LLR {expected.llr:.2f} " in text(screen, "#figures")
        assert f"Elo {elo_text(expected)}" in text(screen, "#figures")
        assert screen.query_one(Pentanomial).counts == expected.counts
        result = screen.query_one("#result-line")
        assert str(result.content).startswith(f"H1 accepted: A is stronger (LLR ")
        assert str(result.content).endswith(f"after {expected.pairs} pairs")
        last = screen.view.finished[-1]
        assert text(screen, "#live").startswith(f"game {last.number}, the last finished")

        screen.query_one("#finished").focus()
        await pilot.press("home", "enter")
        await wait_until(pilot, lambda: app.game_screen is not None)
        assert app.game_screen.history_id == screen.view.finished[0].history_id
        await pilot.press("escape")  # the game is over: its result dialog goes first
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)

        for size in (SIZE, SMALL):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert result.region.bottom <= size[1] - 1  # above the footer, on screen


async def test_the_board_follows_the_games_under_way_and_esc_stops_the_run():
    """On the local pool's worker processes, which report their moves."""
    app = make_app(None, None)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_match(pilot, app, ("mcts:iterations=10000",) * 2, elo1="5")
        boards = set()

        def seen() -> bool:
            shown = text(screen, "#live")
            if "under way" in shown:
                boards.add(shown)
            return len(boards) >= 3 and screen.view.finished

        await pilot.press("ctrl+s")
        await wait_until(pilot, seen, timeout=120)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not screen.view.running, timeout=60)
        assert screen.view.stopped and app.screen is screen
        assert screen.query_one("#finished").row_count == len(screen.view.finished) >= 1
        assert "(Esc)" in text(screen, "#result-line")
        last = screen.view.finished[-1].number
        assert text(screen, "#live").startswith(f"game {last}, the last finished")
    for board in boards:
        title, *rows = board.splitlines()
        assert " under way · " in title and " moves first · ply " in title
        ply = int(title.rsplit(" ", 1)[1])
        assert sum(row.count("X") + row.count("O") for row in rows) == ply


def test_how_a_finished_run_looks(snap_compare):
    """Looked at before it was accepted."""
    app = make_app(None, None)

    async def run(pilot):
        screen = await open_match(pilot, app, pool=thread_pool)
        await decided(pilot, screen)
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=SIZE, run_before=run)
