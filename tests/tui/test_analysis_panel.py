"""The analysis panel under the Connect 4 board: every column's exact value, after
every move, solved in the analysis engine without holding up the game; estimates,
marked, until then, and a spinner and clock that run from the start."""
from __future__ import annotations

import random

from textual.app import App

from plyground.core import get_game
from plyground.core.connect4.book import default_book
from plyground.core.fast.c4solver import INVALID, Solver
from plyground.core.connect4.solver import value_of
from plyground.core.search.events import AnalysisProgress, MoveValue, SearchDone
from plyground.core.values import WIN, Bound, Score
from plyground.tui.widgets.analysis import HIDDEN_TEXT, LEGEND, AnalysisPanel
from tests.core.positions import random_position
from tests.tui.helpers import SIZE, make_app, settled, wait_until

GAME = get_game("connect4")


def endgame(seed: int, plies: int = 30):
    return random_position(random.Random(seed), plies)


def expected_cells(state) -> list[str]:
    """Each column's word and "in N" as the kernel's own analysis has them."""
    cells = []
    for score in Solver(default_book()).analyze(state):
        if score == INVALID:
            cells.append("full")
        elif score == 0:
            cells.append("draw")
        else:
            cells.append(str(Score(value_of(score, state.ply), state.ply)))
    return cells


def shown_cells(panel: AnalysisPanel) -> list[str]:
    """The panel's two rows, read back column by column."""
    lines = str(panel.render()).splitlines()
    width = panel.cell_width
    words, moves = (
        [line[i * width:(i + 1) * width].strip() for i in range(7)] for line in lines[1:3])
    return [f"{word} {move}".strip() for word, move in zip(words, moves)]


def panel_lines(panel: AnalysisPanel) -> list[str]:
    return str(panel.render()).split("\n")


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


class PanelApp(App):
    """The panel alone, handed made-up reports."""

    def compose(self):
        yield AnalysisPanel(7)


async def test_estimates_are_marked_with_a_legend_and_give_way_to_exact_values():
    state = GAME.parse_position("4453")
    app = PanelApp()
    async with app.run_test() as pilot:
        panel = app.query_one(AnalysisPanel)
        panel.begin(state, "X")
        await pilot.pause()
        assert shown_cells(panel) == ["…"] * 7 and panel_lines(panel)[3] == ""
        win_in_two = WIN - (state.ply + 3)  # X's stone after next wins
        values = [MoveValue(0, -12, Bound.ESTIMATE), MoveValue(1, 0, Bound.EXACT),
                  MoveValue(2, win_in_two, Bound.ESTIMATE),
                  *(MoveValue(c, 35, Bound.ESTIMATE) for c in range(3, 7))]
        panel.progress(AnalysisProgress(tuple(values), 7, 1000, 0.5))
        await pilot.pause()
        assert shown_cells(panel) == ["~-12", "draw", "~win in 2"] + ["~+35"] * 4
        assert "Solving 1/7" in panel_lines(panel)[0]
        assert panel_lines(panel)[3] == LEGEND and LEGEND.startswith("~ ")
        exact = [MoveValue(c, value_of(-c, state.ply), Bound.EXACT) for c in range(7)]
        panel.progress(AnalysisProgress(tuple(exact), 7, 2000, 0.7))
        await pilot.pause()
        assert "~" not in str(panel.render()) and "Solving 7/7" in panel_lines(panel)[0]
        panel.finish(SearchDone(3, exact[0].value, (3,), 123_456, 0.8, 38, tuple(exact)))
        await pilot.pause()
        assert panel_lines(panel)[0].startswith("Exact values, X to play")
        assert panel_lines(panel)[3].startswith("solved: 123.5k nodes in ")
        assert shown_cells(panel)[0] == "draw" and shown_cells(panel)[1] == "loss in 19"


async def test_the_spinner_and_the_clock_run_before_any_report_comes():
    app = PanelApp()
    async with app.run_test() as pilot:
        panel = app.query_one(AnalysisPanel)
        panel.begin(GAME.parse_position("4453"), "X")
        first = panel_lines(panel)[0]
        await wait_until(pilot, lambda: panel.frame >= 3 and panel.elapsed > 0)
        assert panel_lines(panel)[0] != first  # the spinner turned, the clock ran
        assert panel_lines(panel)[0][0] != first[0]


async def test_the_app_shows_estimates_first_then_replaces_them_with_exact_values():
    state = GAME.parse_position("4453122716")  # past the book: seconds of solving
    app = make_app(sides=("human", "human"), position=GAME.format_position(state),
                   analysis=True)
    async with app.run_test(size=SIZE) as pilot:
        panel = app.game_screen.query_one(AnalysisPanel)
        await wait_until(pilot, lambda: len(panel.estimated) > 0)
        assert panel.phase == "solving" and panel_lines(panel)[3] == LEGEND
        assert all(cell.startswith("~") for column, cell in enumerate(shown_cells(panel))
                   if column in panel.estimated)
        await solved(pilot, panel)
        assert shown_cells(panel) == expected_cells(state)
        assert "~" not in str(panel.render())
