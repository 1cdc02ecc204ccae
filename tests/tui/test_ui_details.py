"""Small things a newcomer trips over: a reason's full stop said once, player names on
one line, an Other agent box wide enough for a spec, one meaning per symbol, and a game
being played not listed as abandoned."""
from __future__ import annotations

import pytest
from textual.widgets import Input, Label, Select

from plyground.core.records.history import History
from plyground.tui.screens.games import GamesScreen, GameTable
from plyground.tui.screens.help import INSPECTOR_SYMBOLS
from plyground.tui.screens.result import ResultScreen, sentence
from plyground.tui.screens.setup import SetupScreen
from plyground.tui.widgets.inspector import Inspector
from plyground.tui.widgets.inspector.live_tree import LiveTree
from plyground.tui.widgets.inspector.mcts_view import MctsView
from tests.tui.helpers import SIZE, SMALL, make_app, settled, status_text, wait_until

SPEC = "examples/bots/my_alphabeta.py:MyAlphaBeta:time=0.2"


def test_a_reason_ending_in_a_full_stop_gets_no_second_one():
    assert sentence("O forfeits: Bot cannot play Quarto: it plays only Connect 4.") \
        == "O forfeits: Bot cannot play Quarto: it plays only Connect 4."
    assert sentence("X connects four") == "X connects four."


async def test_the_forfeit_dialog_and_status_end_their_sentence_once():
    app = make_app("connect4", ("human", "random:seed=1"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await pilot.press("4")
        await wait_until(pilot, lambda: screen.search is not None or
                         screen.match.state.ply == 2)
        screen.cancel_search()
        screen.forfeit("Random cannot go on: it gave up.")
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        reason = str(app.screen.query_one("#result-reason", Label).content)
        assert reason.endswith("it gave up.") and not reason.endswith("..")
        assert "it gave up.  o:" in status_text(app)


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["160x50", "80x24"])
async def test_each_player_name_is_one_line_and_the_other_box_holds_a_spec(size):
    app = make_app(game_id=None)
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        first, second = screen.rows()
        height = second.query_one(Select).outer_size.height  # (Human's: one line)
        screen.query_one("#game", Select).value = "tictactoe"
        await pilot.pause()
        for choice in ("mcts:uct=plain", "perfect_tictactoe", "other"):
            if choice in {value for _, value in second.choices}:
                second.query_one(Select).value = choice
                await pilot.pause()
                assert second.query_one(Select).outer_size.height == height, choice
        first.query_one(Select).value = "other"
        await pilot.pause()
        box = first.query_one(Input)
        box.value = SPEC
        await pilot.pause()
        if size == SIZE:
            assert box.content_size.width > len(SPEC)


async def test_the_played_mark_is_not_the_trees_collapsed_mark():
    app = make_app("connect4", ("mcts:iterations=300,seed=1", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot, app)
        table = app.game_screen.query_one(MctsView)
        played_row = str(table.get_row_at(0)[0])
        assert played_row.startswith("★✓")
        tree_marks = {LiveTree.ICON_NODE.strip(), LiveTree.ICON_NODE_EXPANDED.strip()}
        assert not tree_marks & set(played_row[:2])
        summary = app.game_screen.query_one(Inspector).summary.plain
        assert "✓ played" in summary and "▶" not in summary
        assert "✓ the move played" in INSPECTOR_SYMBOLS and "▶ a move" in INSPECTOR_SYMBOLS


def result_cells(screen: GamesScreen) -> list[str]:
    table = screen.query_one(GameTable)
    column = list(table.columns).index("result")
    return [str(table.get_row_at(row)[column]) for row in range(table.row_count)]


async def test_a_game_being_played_is_in_progress_and_abandoned_once_left(tmp_path,
                                                                           monkeypatch):
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path))
    app = make_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await pilot.press("4", "4")
        await wait_until(pilot, lambda: screen.match.state.ply == 2)
        screen.keep_in_history()  # as a save does
        await pilot.press("g")
        await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen))
        await wait_until(pilot, lambda: app.screen.query_one(GameTable).row_count == 1)
        assert result_cells(app.screen) == ["… in progress"]
        assert "in progress" in str(app.screen.query_one("#games-detail").content)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.press("n")  # a new game: the first one is left
        await wait_until(pilot, lambda: screen.match.state.ply == 0)
    with History() as history:
        (game,) = history.list()
        assert (game.result, game.reason) == ("*", "abandoned")
