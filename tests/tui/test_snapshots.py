"""How the screens look: fixed terminal size, no animations, seeded agents, a fake clock.

Each snapshot was looked at before it was accepted (tests/tui/__snapshots__).
"""
from __future__ import annotations

from plyground.tui.screens.result import ResultScreen
import pytest

from tests.tui.helpers import SIZE, SMALL, make_app, settled, wait_until


def test_setup_screen(snap_compare):
    assert snap_compare(make_app(game_id=None), terminal_size=SIZE)


def test_mid_game_with_the_alphabeta_inspector(snap_compare):
    app = make_app(sides=("human", "alphabeta:depth=6"), position="44536")

    async def searched(pilot):
        await settled(pilot, app)

    assert snap_compare(app, terminal_size=SIZE, run_before=searched)


def test_mid_game_with_the_mcts_inspector(snap_compare):
    app = make_app(sides=("human", "mcts:iterations=3000,seed=1"), position="44536")

    async def searched(pilot):
        await settled(pilot, app)

    assert snap_compare(app, terminal_size=SIZE, run_before=searched)


def test_result_dialog(snap_compare):
    app = make_app(sides=("human", "human"), position="121212")

    async def won(pilot):
        await pilot.press("1")
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))

    assert snap_compare(app, terminal_size=SIZE, run_before=won)


def test_cephalopod_with_the_mcts_heat_map(snap_compare):
    app = make_app("cephalopod", ("human", "mcts:iterations=2000,seed=3,uct=plain"),
                   ".r2.../b1r1.../..r3../....b2/..... b")

    async def searched(pilot):
        await settled(pilot, app)

    assert snap_compare(app, terminal_size=SIZE, run_before=searched)


def test_cephalopod_capture_choice(snap_compare):
    app = make_app("cephalopod", ("human", "human"), ".r1./r2.r3/.r4. b",
                   options={"rows": 3, "cols": 3})

    async def choosing(pilot):
        await pilot.press("enter", "up", "right")

    assert snap_compare(app, terminal_size=SIZE, run_before=choosing)


def test_quarto_give_step_with_the_mcts_heat_map(snap_compare):
    app = make_app("quarto", ("human", "mcts:iterations=2000,seed=3,uct=plain"),
                   "8.a./.5c./3..6/.... f")

    async def giving(pilot):
        await settled(pilot, app)  # plain MCTS places on a3 and gives piece 11
        await pilot.press("down", "enter", "right")  # b2, then the pool's cursor on 1

    assert snap_compare(app, terminal_size=SIZE, run_before=giving)


def test_boom_with_both_bombs_down(snap_compare):
    app = make_app("boom", ("human", "alphabeta:depth=4"), "1234567234535")

    async def searched(pilot):
        await settled(pilot, app)  # Blue answers 6; Green may set off its bomb

    assert snap_compare(app, terminal_size=SIZE, run_before=searched)


SMALL_GAMES = {  # each game with an agent's search in the inspector
    "connect4": (("human", "mcts:iterations=3000,seed=1"), "44536"),
    "boom": (("human", "alphabeta:depth=4"), "1234567234535"),
    "cephalopod": (("human", "mcts:iterations=2000,seed=3,uct=plain"),
                   ".r2.../b1r1.../..r3../....b2/..... b"),
    "quarto": (("human", "mcts:iterations=2000,seed=3,uct=plain"), "8.a./.5c./3..6/.... f"),
}


@pytest.mark.parametrize("game", SMALL_GAMES)
def test_each_game_at_80_by_24(snap_compare, game):
    """The smallest terminal: the inspector's columns that fit, its summary wrapped,
    the footer's main keys."""
    sides, position = SMALL_GAMES[game]
    app = make_app(game, sides, position)

    async def searched(pilot):
        await settled(pilot, app)

    assert snap_compare(app, terminal_size=SMALL, run_before=searched)
