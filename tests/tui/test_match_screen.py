"""The Match screen in the app: a short SPRT between cheap seeded agents decides, and
the screen shows the LLR, counts and result that run_sprt gives; Esc mid-run stops it
and keeps its finished games; a bad field is one line and starts nothing; a finished
game opens on the board, and Esc comes back."""
from __future__ import annotations

import pytest
from textual.widgets import Static

from plyground.core import get_game
from plyground.core.play.arena import PairCounted, run_sprt
from plyground.tui.screens.game import GameScreen
from plyground.tui.screens.match import MatchScreen
from plyground.tui.widgets.pentanomial import Pentanomial
from tests.core.test_arena import inline_pool
from tests.tui.helpers import SIZE, SMALL, make_app, wait_until

GAME = get_game("connect4")
CHEAP = ("alphabeta:depth=2", "random")


async def open_match(pilot, app, sides=CHEAP, **fields) -> MatchScreen:
    app.open_match(GAME, sides)
    await wait_until(pilot, lambda: isinstance(app.screen, MatchScreen))
    screen = app.screen
    for name, value in {"elo1": "50", "match-seed": "7", **fields}.items():
        screen.query_one(f"#{name}").value = value
    return screen


def text(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).content)


async def decided(pilot, screen) -> None:
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: screen.view is not None and not screen.view.running,
                     timeout=120)


@pytest.mark.parametrize("size", [SIZE, SMALL])
async def test_a_run_shows_what_run_sprt_computes(size):
    app = make_app(None, None)
    async with app.run_test(size=size) as pilot:
        screen = await open_match(pilot, app)
        await decided(pilot, screen)
        plan = screen.view.plan
        expected = [event.status for event in run_sprt(
            GAME, plan.players, plan.test, 7, inline_pool(), plan.max_pairs)
            if isinstance(event, PairCounted)][-1]
        assert f"LLR {expected.llr:.2f} " in text(screen, "#figures")
        assert f"Elo {expected.elo:+.1f}" in text(screen, "#figures")
        assert screen.query_one(Pentanomial).counts == expected.counts
        result = screen.query_one("#result-line")
        assert str(result.content).startswith(f"H1 accepted after {expected.pairs} pairs")
        assert result.region.bottom <= size[1] - 1  # above the footer, on screen


async def test_esc_stops_a_run_and_keeps_its_finished_games():
    app = make_app(None, None)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_match(pilot, app, ("alphabeta:depth=4", "mcts:iterations=300"),
                                  elo1="5")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: len(screen.view.finished) >= 2, timeout=120)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not screen.view.running, timeout=60)
        assert screen.view.stopped and app.screen is screen
        assert screen.query_one("#finished").row_count == len(screen.view.finished) >= 2
        assert "(Esc)" in text(screen, "#result-line")


async def test_bad_fields_are_one_line_and_start_nothing():
    app = make_app(None, None)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_match(pilot, app, elo0="5", elo1="5")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert text(screen, "#match-error") == "elo0 must be below elo1 (they are 5 and 5)"
        assert screen.driver is None


async def test_a_finished_game_opens_on_the_board_and_esc_comes_back():
    app = make_app(None, None)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_match(pilot, app)
        await decided(pilot, screen)
        screen.query_one("#finished").focus()
        await pilot.press("home", "enter")
        await wait_until(pilot, lambda: app.game_screen is not None)
        assert app.game_screen.history_id == screen.view.finished[0].history_id
        await pilot.press("escape")  # the game is over: its result dialog goes first
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)


def test_how_a_finished_run_looks(snap_compare):
    """Looked at before it was accepted."""
    app = make_app(None, None)

    async def run(pilot):
        screen = await open_match(pilot, app)
        await decided(pilot, screen)
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=SIZE, run_before=run)
