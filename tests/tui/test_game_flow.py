"""The app driven by key presses and clicks, as a user would (Pilot)."""
from __future__ import annotations

import os
import signal

from plyground.core import get_game
from plyground.tui.screens.result import ResultScreen
from plyground.tui.screens.setup import SetupScreen
from tests.tui.helpers import (SIZE, make_app, record_notifications, settled, status_text,
                               wait_until)

GAME = get_game("connect4")


async def test_a_whole_game_against_an_agent_by_key_presses():
    app = make_app(sides=("human", "greedy:seed=1"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        while screen.match.outcome is None:
            await settled(pilot, app)
            if screen.match.outcome is not None:
                break
            before = screen.match.state.ply
            column = screen.match.state.moves()[0]  # the human fills from the left
            await pilot.press(str(column + 1))
            await wait_until(pilot, lambda: screen.match.state.ply > before)
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        moves = "".join(GAME.format_move(m) for m in screen.match.moves)
        # the moves on the board are a legal game that ended as the dialog says
        replay = GAME.start()
        for move in screen.match.moves:
            replay = replay.play(move)
        assert replay.outcome() == screen.match.outcome, moves
        await pilot.press("a")  # play again
        await wait_until(pilot, lambda: not isinstance(app.screen, ResultScreen))
        assert screen.match.moves == [] and screen.board.state == GAME.start()


async def test_clicking_a_column_plays_there():
    app = make_app(sides=("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        board = screen.board
        x = board.cell_width * 4 + board.cell_width // 2  # in column 5
        await pilot.click("#board", offset=(1 + x, 3))
        await pilot.pause()
        assert screen.match.moves == [4]


async def test_undo_returns_to_the_humans_previous_turn():
    app = make_app(sides=("human", "minimax:depth=2"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        for key in "44":
            await settled(pilot, app)
            await pilot.press(key)
        await settled(pilot, app)
        assert len(screen.match.moves) == 4
        await pilot.press("u")
        await pilot.pause()
        assert len(screen.match.moves) == 2 and screen.match.state.to_move == 0
        assert screen.board.state == screen.match.state
        assert "your turn" in status_text(app)


async def test_keys_out_of_turn_and_full_columns_are_refused_with_a_message():
    app = make_app(sides=("human", "alphabeta:time=30"), clock="real")
    async with app.run_test(size=SIZE) as pilot:
        messages = record_notifications(app)
        screen = app.game_screen
        await pilot.press("4")
        await wait_until(pilot, lambda: screen.search is not None)
        await pilot.press("3")  # O is thinking: not the human's turn
        await pilot.pause()
        assert any("O's turn" in m for m in messages)
        assert screen.match.moves == [3]
        await pilot.press("u")  # cancels the search at once and takes X's move back
        await pilot.pause()
        assert screen.search is None and screen.match.moves == []


async def test_a_full_column_is_refused():
    app = make_app(sides=("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        messages = record_notifications(app)
        for _ in range(6):
            await pilot.press("1")
        await pilot.press("1")
        await pilot.pause()
        assert app.game_screen.match.moves == [0] * 6
        assert any("Not played: column 1 is full" in m for m in messages)


async def test_the_screen_resizes_and_answers_keys_while_the_agent_thinks():
    app = make_app(sides=("human", "alphabeta:time=3"), clock="real")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await pilot.press("4")
        await wait_until(pilot, lambda: screen.search is not None)
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert app.size == (100, 30) and not screen.board.large
        await pilot.press("right")  # the board cursor still moves
        await pilot.pause()
        assert screen.board.cursor == 4 and screen.search is not None
        await pilot.resize_terminal(*SIZE)
        await settled(pilot, app)
        assert len(screen.match.moves) == 2 and screen.board.large


async def test_watch_mode_pauses_and_steps_one_move():
    app = make_app(sides=("greedy:seed=1", "random:seed=2"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await pilot.press("p")
        await settled(pilot, app)
        paused_at = len(screen.match.moves)
        await pilot.pause(0.3)
        assert len(screen.match.moves) == paused_at and screen.paused
        await pilot.press("full_stop")
        await wait_until(pilot, lambda: len(screen.match.moves) == paused_at + 1)
        await settled(pilot, app)
        assert len(screen.match.moves) == paused_at + 1
        await pilot.press("p")  # resume: the game plays on to its end
        await wait_until(pilot, lambda: screen.match.outcome is not None)


async def test_step_mode_walks_a_recorded_alphabeta_search():
    app = make_app(sides=("human", "alphabeta:depth=3"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await pilot.press("4")
        await settled(pilot, app)
        await pilot.press("s")  # no trace was kept: the search is recorded again
        await wait_until(pilot, lambda: screen.inspector.stepping)
        view = screen.inspector.query_one("StepView")
        assert view.has_focus and view.index == 0
        await pilot.press("right", "right", "right")
        assert view.index == 3
        await pilot.press("left")
        assert view.index == 2
        await pilot.press("right_square_bracket")
        assert view.replay.events[view.index].path == ()  # the next iteration's root
        assert view.replay.iteration_of(view.index) == 2
        await pilot.press("left_square_bracket", "left_square_bracket")
        assert view.index == 0
        await pilot.press("end")
        assert view.index == len(view.replay) - 1
        await pilot.press("escape")
        assert not screen.inspector.stepping and screen.board.has_focus
        assert len(screen.match.moves) == 2  # recording the trace played nothing


async def test_trace_mode_keeps_the_trace_of_the_search_that_moved():
    app = make_app(sides=("human", "mcts:iterations=200,seed=1"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await pilot.press("t", "4")
        await settled(pilot, app)
        assert screen.last.trace  # recorded while it searched
        await pilot.press("s")
        await pilot.pause()
        view = screen.inspector.query_one("StepView")
        assert screen.inspector.stepping and len(view.replay) == 4 * 200


async def test_a_crashed_search_is_reported_and_can_be_retried():
    app = make_app(sides=("human", "alphabeta:time=30"), clock="real")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await pilot.press("4")
        await wait_until(pilot, lambda: screen.search is not None)
        os.kill(app.engine.pid, signal.SIGKILL)
        await wait_until(pilot, lambda: screen.failed is not None)
        assert "stopped unexpectedly" in status_text(app)
        assert screen.match.moves == [3]  # the game is untouched
        screen.match.agents = (None, screen.match.agents[1].__class__(depth=2))
        await pilot.press("r")
        await settled(pilot, app)
        assert len(screen.match.moves) == 2 and screen.failed is None


async def test_setup_screen_starts_the_chosen_game():
    app = make_app(game_id=None)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, SetupScreen)
        await pilot.click("#role-watch")
        await pilot.pause()
        assert [row.kind for row in app.screen.rows()] == ["mcts", "mcts"]
        await pilot.click("#role-first")
        await pilot.pause()
        rows = app.screen.rows()
        assert rows[0].kind == "human"
        rows[1].query_one("Input").value = "lots"
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)  # a bad setting keeps you here
        assert "not a whole number" in str(app.screen.query_one("#setup-error").content)
        rows[1].query_one("Input").value = "50"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.game_screen is not None)
        assert app.game_screen.match.sides[0] == "human"
        assert app.game_screen.match.agents[1].settings["iterations"] == 50
        await pilot.press("escape")  # back to the setup, choices kept
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
        assert app.screen.rows()[1].value == "50"


async def test_every_game_key_is_a_palette_command_and_themes_switch():
    app = make_app(sides=("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Undo", "New game", "Step through search", "Trace", "Drop", "Theme",
                "Drop in column 1", "Drop in column 7"} <= titles
        assert {"plyground-dark", "plyground-light"} <= set(app.available_themes)
        assert app.theme == "plyground-dark"
        app.theme = "plyground-light"
        await pilot.pause()
        assert app.get_css_variables()["board"].lower() == "#2f6fd0"


async def test_quit_and_new_game_cancel_a_search_at_once():
    app = make_app(sides=("human", "alphabeta:time=60"), clock="real")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await pilot.press("4")
        await wait_until(pilot, lambda: screen.search is not None)
        await pilot.press("n")  # new game: the search is dropped, the board is empty
        assert screen.search is None and screen.match.moves == []
        await pilot.press("4")
        await wait_until(pilot, lambda: screen.search is not None)
        process = app.engine._process
        await pilot.press("q")
    assert app.engine._process is None
    assert gone(process)


def gone(process) -> bool:
    """Whether a child process has exited and been reaped. Now and then something
    else in the test process reaps it first (the pid is gone while multiprocessing
    still calls it alive), so ask the system too."""
    if process.exitcode is not None:
        return True
    try:
        os.kill(process.pid, 0)
    except ProcessLookupError:
        return True
    return False


async def test_the_inspector_says_whether_the_perfect_agents_values_are_exact():
    """Solved (an endgame): `exact: solved` and every column's value; not solved in its
    time (an opening past the book): `estimate`."""
    for position, words in (("225257625346224411156336534367135144", "exact: solved"),
                            ("2111", "estimate")):
        app = make_app(sides=("perfect:time=0.3", "human"), position=position,
                       clock="real")
        async with app.run_test(size=SIZE) as pilot:
            await settled(pilot, app)
            summary = str(app.game_screen.inspector.query_one("#inspector-summary")
                          .render())
            assert words in summary, summary


async def test_an_alpha_beta_cut_short_keeps_its_live_summary():
    """Only the perfect agent's decision replaces the summary with its note."""
    app = make_app(sides=("alphabeta:time=0.3", "human"), clock="real")
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot, app)
        summary = str(app.game_screen.inspector.query_one("#inspector-summary").render())
        assert "principal variation" in summary and "estimate" not in summary, summary


async def test_the_status_line_fits_a_resized_screen_at_once():
    """Below 30 rows the status leaves the key hint to the footer; it changed form only
    at the next turn, so a shrunk screen kept a status cut off mid-hint."""
    app = make_app(sides=("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await settled(pilot, app)
        hint = screen.board.hint
        assert status_text(app).endswith(hint)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert status_text(app).startswith("X to move") and hint not in status_text(app)
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert status_text(app).endswith(hint)
