"""The analysis panel under the Connect 4 board: every column's exact value, after
every move, solved in the analysis engine without holding up the game."""
from __future__ import annotations

import random

from plyground.core import get_game
from plyground.core.fast.c4solver import INVALID, Solver
from plyground.core.perfect import value_of
from plyground.core.values import describe_value
from plyground.tui.widgets.analysis import HIDDEN_TEXT, AnalysisPanel
from tests.core.positions import random_position
from tests.tui.helpers import SIZE, make_app, settled, wait_until

GAME = get_game("connect4")


def endgame(seed: int, plies: int = 30):
    return random_position(random.Random(seed), plies)


def expected_cells(state) -> list[str]:
    """Each column's word and "in N" as the kernel's own analysis has them."""
    cells = []
    for score in Solver().analyze(state):
        if score == INVALID:
            cells.append("full")
        elif score == 0:
            cells.append("draw")
        else:
            cells.append(describe_value(value_of(score, state.ply), state.ply))
    return cells


def shown_cells(panel: AnalysisPanel) -> list[str]:
    """The panel's two rows, read back column by column."""
    lines = str(panel.render()).splitlines()
    width = panel.cell_width
    words, moves = (
        [line[i * width:(i + 1) * width].strip() for i in range(7)] for line in lines[1:3])
    return [f"{word} {move}".strip() for word, move in zip(words, moves)]


async def solved(pilot, panel) -> None:
    await wait_until(pilot, lambda: panel.phase == "done")


async def test_the_panel_shows_every_columns_exact_value_after_every_move():
    state = endgame(3)
    app = make_app(sides=("human", "human"), position=GAME.format_position(state),
                   analysis=True)
    async with app.run_test(size=SIZE) as pilot:
        panel = app.game_screen.query_one(AnalysisPanel)
        await solved(pilot, panel)
        assert shown_cells(panel) == expected_cells(state)
        assert "to play" in str(panel.render()).splitlines()[0]
        column = next(c for c in state.moves() if state.play(c).outcome() is None)
        await pilot.press(str(column + 1))
        await wait_until(pilot, lambda: panel.state == state.play(column))
        await solved(pilot, panel)
        assert shown_cells(panel) == expected_cells(state.play(column))


async def test_a_move_made_while_solving_starts_the_new_position_at_once():
    app = make_app(sides=("human", "human"), position="4444", analysis=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        panel = screen.query_one(AnalysisPanel)
        await wait_until(pilot, lambda: panel.nodes > 0)  # a long solve is under way
        assert panel.phase == "solving" and "Solving" in str(panel.render())
        first = screen.analysis_id
        screen.after_move(animate=False)  # as a pause does: the same position
        assert screen.analysis_id == first  # goes on solving, not from the start
        await pilot.press("1")  # the board answers at once
        assert screen.match.state == GAME.parse_position("44441")
        assert screen.analysis_id != first and panel.state == screen.match.state


async def test_a_hides_the_panel_and_stops_solving_and_shows_it_again():
    state = endgame(5)
    app = make_app(sides=("human", "human"), position=GAME.format_position(state),
                   analysis=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        panel = screen.query_one(AnalysisPanel)
        await pilot.press("a")
        assert str(panel.render()) == HIDDEN_TEXT and screen.analysis_id is None
        await pilot.press("a")
        await solved(pilot, panel)
        assert shown_cells(panel) == expected_cells(state)


async def test_the_panel_works_against_an_agent_and_says_when_the_game_is_over():
    app = make_app(sides=("human", "perfect"), position="121212", analysis=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        panel = screen.query_one(AnalysisPanel)
        await solved(pilot, panel)
        assert shown_cells(panel) == expected_cells(screen.match.state)
        assert shown_cells(panel)[0] == "win in 1"  # X's fourth stone in column 1
        await pilot.press("1")
        await settled(pilot, app)
        assert screen.match.outcome is not None
        assert "over" in str(panel.render())


async def test_games_without_a_solver_have_no_panel_and_no_a_key():
    app = make_app("boom", ("human", "human"), analysis=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        assert not screen.query(AnalysisPanel)
        assert "toggle_analysis" not in [
            b.binding.action for b in screen.active_bindings.values() if b.enabled]
        await pilot.press("a")  # nothing happens, nothing breaks
        assert screen.match.moves == []


def test_the_panel_after_a_solve(snap_compare):
    state = endgame(20, plies=22)  # wins, draws and losses of several lengths
    app = make_app(sides=("human", "perfect"), position=GAME.format_position(state),
                   analysis=True)

    async def solved_position(pilot):
        await solved(pilot, app.game_screen.query_one(AnalysisPanel))

    assert snap_compare(app, terminal_size=SIZE, run_before=solved_position)
