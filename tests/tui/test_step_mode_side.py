"""Step mode on a game opened from a record (`play --load`) or reopened from the Games
screen: it shows the search behind the last move an agent played, replayed on the
position before that move, and every line names the side to move there; a search no
replay repeats (a clock, a human's move after it) says so and what is shown instead.
The position searched is in sight at 160×50 (the board) and 80×24 (a text board)."""
from __future__ import annotations

import io

import pytest
from rich.console import Console

from plyground.core.records.history import History
from plyground.core.records.record import format_record, load_record
from plyground.tui.screens.result import ResultScreen

from .helpers import SIZE, SMALL, make_app, settled, status_text, wait_until

MCTS = "mcts:iterations=300"


def step_text(app) -> str:
    return str(app.game_screen.inspector.query_one("#step-text").render())


def loaded(tmp_path, text: str):
    """The app as `play connect4 --load FILE` opens it, FILE holding `text`."""
    path = tmp_path / "game.txt"
    path.write_text(text)
    return make_app(record=load_record(path))


async def stepping(pilot, app) -> str:
    screen = app.game_screen
    await settled(pilot, app)
    await pilot.press("s")
    await wait_until(pilot, lambda: screen.inspector.stepping)
    return step_text(app)


async def played_record(tmp_path):
    """A game played in the app, X by hand and O by a seeded MCTS, saved to a file."""
    app = make_app(sides=("human", MCTS))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4")
        await settled(pilot, app)
        record = app.game_screen.record()
    path = tmp_path / "played.txt"
    path.write_text(format_record(record))
    return load_record(path)


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["160x50", "80x24"])
async def test_a_loaded_timed_game_searches_the_position_before_the_agents_move(
        tmp_path, size):
    app = loaded(tmp_path, '[Game "connect4"]\n[First "human"]\n'
                           '[Second "alphabeta:time=0.05"]\n[Seed "7"]\n\n1. 4 4 *\n')
    async with app.run_test(size=size) as pilot:
        text = await stepping(pilot, app)
        screen = app.game_screen
        view = screen.inspector.query_one("StepView")
        assert view.root_state == screen.match.states[1]  # before O's 4, O to move
        assert "O: Alpha-Beta (0.05s) with O to move — a new search of the position " \
               "before O's 4" in text, text
        assert "O's 4 was chosen against a 0.05 s clock" in text, text
        assert "Node     root   (O to move" in text and "(values for O)" in text, text
        assert "X to move" not in text
        position = view.query_one("#step-position")
        assert position.display == (size == SMALL)  # else the board beside the text
        assert view.board.display == (size == SIZE)
        if size == SMALL:
            console = Console(file=io.StringIO(), width=40, record=True)
            console.print(position.content)
            shown = console.export_text()
            assert "[X]" in shown and "the root · O to move" in shown, shown


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["160x50", "80x24"])
async def test_a_loaded_seeded_game_replays_the_search_behind_its_last_move(
        tmp_path, size):
    record = await played_record(tmp_path)
    reply = record.game.format_move(record.moves[1])
    app = make_app(record=record)
    async with app.run_test(size=size) as pilot:
        text = await stepping(pilot, app)
        assert f"O: MCTS (300 iterations) with O to move — the search behind O's " \
               f"{reply}, replayed" in text, text
        assert f"✓ it chose {reply}, the move played in the game" in text, text
        assert "Root moves so far (mean for O)" in text, text
        assert "no replay repeats" not in text
        await pilot.press("right", "right", "right")  # the first backup
        assert "Backup" in step_text(app) and "for O at the root" in step_text(app)


async def test_a_game_reopened_from_the_games_screen_replays_its_last_agent_move(
        tmp_path, monkeypatch):
    from plyground.tui.screens.games import GamesScreen

    record = await played_record(tmp_path)
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path / "home"))
    with History() as history:
        history.add(record, "app")
    reply = record.game.format_move(record.moves[1])
    app = make_app(game_id=None)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("ctrl+g")
        await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen))
        await pilot.pause()
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.game_screen is not None
                         and len(app.game_screen.match.moves) == 2)
        text = await stepping(pilot, app)
        assert f"with O to move — the search behind O's {reply}, replayed" in text, text
        assert f"✓ it chose {reply}" in text and "(mean for O)" in text, text


async def test_a_humans_last_move_is_said_and_the_agents_search_before_it_shown(
        tmp_path):
    app = loaded(tmp_path, f'[Game "connect4"]\n[First "human"]\n[Second "{MCTS}"]\n'
                           '[Seed "7"]\n\n1. 1 2 2. 1 2 3. 1 2 4. 1 1-0\n')
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        await pilot.press("escape")  # X has won: the result, closed
        text = await stepping(pilot, app)
        assert "The last move, X's 1, was a human's: shown instead, the search " \
               "behind O's 2." in text, text
        assert "with O to move" in text and "(mean for O)" in text, text
        view = app.game_screen.inspector.query_one("StepView")
        assert view.root_state == app.game_screen.match.states[5]


async def test_no_agent_searches_a_position_another_side_is_to_move_in():
    app = make_app(sides=("human", "alphabeta:depth=2"))
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot, app)
        await pilot.press("s")
        await pilot.pause()
        assert app.game_screen.search is None and not app.game_screen.inspector.stepping
        assert "No agent has moved yet and X is played by hand" in status_text(app)
