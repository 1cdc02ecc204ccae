"""Walking through the game in the move list, variations, the hint, saving the game,
opening a record, and keeping games in the history (issue 15)."""
from __future__ import annotations

import random

from plyground.core.game import parse_game
from plyground.core.records.history import History, played_record
from plyground.core.records.record import format_record, load_record
from plyground.tui.screens.save import SaveScreen
from plyground.tui.widgets.move_list import MoveList
from tests.tui.helpers import (SIZE, make_app, record_notifications, status_text,
                               wait_until)


def moves_text(app) -> str:
    return str(app.game_screen.query_one("#moves").content)


async def play(pilot, keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await pilot.pause()


async def test_walking_back_shows_each_position_and_a_new_move_starts_a_variation():
    app = make_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await play(pilot, "4435")
        live = screen.match.state
        await pilot.press("left_square_bracket", "left_square_bracket")
        await pilot.pause()
        assert screen.viewing.moves() == [3, 3]  # after 4 4
        assert screen.board.state == screen.viewing.state
        assert "Viewing" in status_text(app)
        await pilot.press("6")  # another move than the game's 3: a variation
        await pilot.pause()
        assert screen.viewing.moves() == [3, 3, 5] and not screen.viewing.on_main_line
        assert screen.match.state == live  # the live game is untouched
        assert "(2. 6)" in moves_text(app)  # shown under the move it replaces
        await pilot.press("l")
        await pilot.pause()
        assert screen.viewing is None and screen.board.state == live
        assert screen.game_tree.main_moves() == screen.match.moves
        # walking forward from the start follows the main line to the live game
        await pilot.press("left_square_bracket")
        await pilot.pause()
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert screen.viewing is None
        told = record_notifications(app)
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert any("No move after this one" in message for message in told)


async def test_the_move_list_takes_clicks_and_arrows():
    app = make_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await play(pilot, "4435")
        moves = screen.query_one(MoveList)
        moves.action_go(1)  # the second move written: 4 (Yellow's reply)
        await pilot.pause()
        assert screen.viewing.moves() == [3, 3]
        moves.focus()
        await pilot.press("left")
        await pilot.pause()
        assert screen.viewing.moves() == [3]
        await pilot.press("end")
        await pilot.pause()
        assert screen.viewing is None


async def test_an_agent_plays_on_while_the_user_looks_back():
    app = make_app("connect4", ("human", "greedy"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await pilot.press("4")
        await wait_until(pilot, lambda: len(screen.match.moves) == 2)
        await pilot.press("left_square_bracket", "left_square_bracket")
        await pilot.pause()
        assert screen.viewing.moves() == []
        await pilot.press("3")  # a variation from the start, for either side
        await pilot.pause()
        await pilot.press("3")
        await pilot.pause()
        assert screen.viewing.moves() == [2, 2]
        assert len(screen.match.moves) == 2  # no agent answers a variation
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("5")
        await wait_until(pilot, lambda: len(screen.match.moves) == 4)
        assert screen.game_tree.main_moves() == screen.match.moves
        assert [node.move for node in screen.game_tree.root.children] == [3, 2]


async def test_save_writes_a_record_that_opens_again_with_its_variations(tmp_path):
    app = make_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await play(pilot, "443")
        await pilot.press("left_square_bracket")
        await pilot.pause()
        await pilot.press("7")
        await pilot.pause()
        await pilot.press("l", "w")
        await wait_until(pilot, lambda: isinstance(app.screen, SaveScreen))
        path = tmp_path / "mine.txt"
        app.screen.query_one("#save-path").value = str(path)
        await pilot.press("enter")
        await wait_until(pilot, lambda: path.exists())
        saved = screen.record()
    record = load_record(path)
    assert record.moves == [3, 3, 2]
    assert [node.move for node in record.tree.root.children[0].children[0].children] \
        == [2, 6]
    assert path.read_text() == format_record(saved)
    reopened = make_app(record=record)
    async with reopened.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = reopened.game_screen
        assert screen.match.moves == [3, 3, 2]
        assert "(2. 7)" in moves_text(reopened)  # in place of Red's second move, 3
        assert screen.match.state.to_move == 1


async def test_save_into_a_missing_folder_says_so_and_keeps_the_dialog(tmp_path):
    app = make_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await play(pilot, "4")
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, SaveScreen))
        app.screen.query_one("#save-path").value = str(tmp_path / "no" / "such" / "f")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SaveScreen)
        assert "Cannot write" in str(app.screen.query_one("#save-error").content)


async def test_finished_and_abandoned_games_are_kept_in_the_history(tmp_path, monkeypatch):
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path))
    app = make_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await play(pilot, "4343434")  # Red's four in column 4
        await wait_until(pilot, lambda: app.game_screen.history_id is not None)
        await pilot.press("escape")  # the result dialog
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        await play(pilot, "12")
        await pilot.press("n")  # abandoned after two moves
        await pilot.pause()
    with History() as history:
        games = history.list()
        assert [(g.result, g.moves) for g in games] == [("*", 2), ("1-0", 7)]
        assert games[0].reason == "abandoned" and games[0].source == "app"
        assert history.get(games[1].id).final.outcome().winner == 0


async def test_hint_names_the_best_move_and_marks_it():
    # a Quarto endgame (seeded random moves, 11 pieces placed): searched in a moment
    game = parse_game("quarto")
    state, chooser = game.start(), random.Random(5)
    while state.ply < 12 or state.outcome() is not None:
        state = game.start() if state.outcome() is not None else \
            state.play(chooser.choice(list(state.moves())))
    app = make_app("quarto", ("human", "human"), game.format_position(state))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await pilot.press("h")
        await wait_until(pilot, lambda: screen.hint_id is None and
                         "best move" in status_text(app))
        assert screen.board.heat and max(screen.board.heat.values()) == 1.0
        move = next(iter(screen.board.heat))
        assert move in screen.match.state.moves()
        assert game.describe_move(move, screen.match.state) in status_text(app)


async def test_keys_that_cannot_act_say_why_in_the_status_line():
    app = make_app("boom", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert status_text(app).startswith("Nothing to retry")
        await pilot.press("b")  # no bomb is down yet
        await pilot.pause()
        reason = status_text(app)
        try:
            app.game_screen.match.state.play(app.game_screen.match.game.parse_move(
                "B", app.game_screen.match.state))
        except Exception as error:  # the rules' own reason is the one shown
            assert reason == f"Not played: {str(error).rstrip('.')}."
        else:
            raise AssertionError("BOOM was legal on an empty board")


async def test_a_capture_choice_the_rules_refuse_says_why():
    app = make_app("cephalopod", ("human", "human"), ".r1./r2.r3/.r4. b",
                   options={"rows": 3, "cols": 3})
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "up", "enter")  # the centre, capturing one die
        await pilot.pause()
        assert status_text(app).startswith("Not played: b2x(b3) is not legal")
        assert app.game_screen.match.moves == []


async def test_a_game_of_the_history_opens_from_the_games_screen(tmp_path, monkeypatch):
    from plyground.tui.screens.games import GamesScreen

    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path))
    app = make_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await play(pilot, "4455")
        await pilot.press("left_square_bracket")
        await pilot.pause()
        await pilot.press("1")  # a variation, kept with the game
        await pilot.pause()
        await pilot.press("n")  # the game is kept, unfinished
        await pilot.pause()
        await play(pilot, "7")
        await pilot.press("g")
        await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen))
        await pilot.pause()
        await pilot.press("down", "enter")  # the older game: 4 4 5 5
        await wait_until(pilot, lambda: app.game_screen.match.moves == [3, 3, 4, 4])
        screen = app.game_screen
        node = screen.game_tree.root.child(3).child(3).child(4)
        assert [child.move for child in node.children] == [4, 0]  # 5, and the 1 tried
        assert "(2... 1)" in moves_text(app)
    with History() as history:
        assert [game.moves for game in history.list()] == [1, 4]  # the 7 kept too


async def test_the_setup_screen_opens_a_game_of_the_history(tmp_path, monkeypatch):
    """Ctrl+G on the setup screen: the Games screen; the game chosen opens on the
    board, and Esc from it comes back to the setup screen."""
    from plyground.tui.screens.games import GamesScreen
    from plyground.tui.screens.setup import SetupScreen

    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path))
    game = parse_game("connect4")
    record = played_record(game, game.start(), [3, 2, 3, 3], None, ("human", "greedy"),
                           reason="abandoned")
    with History() as history:
        history.add(record, "app")
    app = make_app(game_id=None)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
        await pilot.press("ctrl+g")
        await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen))
        await pilot.pause()
        await pilot.press("enter")  # the human to move: no agent's reply follows
        await wait_until(pilot, lambda: app.game_screen is not None
                         and app.game_screen.match.moves == [3, 2, 3, 3])
        assert app.game_screen.match.sides == ("human", "greedy")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))


async def test_a_game_the_history_cannot_give_is_said_and_the_setup_stays(
        tmp_path, monkeypatch):
    from plyground.tui.screens.games import GamesScreen
    from plyground.tui.screens.setup import SetupScreen

    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path))
    app = make_app(game_id=None)
    async with app.run_test(size=SIZE) as pilot:
        seen = record_notifications(app)
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
        await pilot.press("ctrl+g")
        await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen))
        app.screen.dismiss(12345)  # a game deleted meanwhile (by another app)
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
        await pilot.pause()
        assert app.game_screen is None
        assert any("12345" in message for message in seen)


async def test_a_hint_on_connect4_marks_its_column_and_writes_no_share():
    """The Connect 4 board drew no heat, so its hint said "marked on the board" and
    marked nothing (and tic-tac-toe's wrote the mark as a share, 100%)."""
    # eight cells left: searched to the end at once (the test's clock ticks per reading)
    app = make_app("connect4", ("human", "human"), "14662733751451445665413366354371")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await pilot.press("h")
        await wait_until(pilot, lambda: screen.hint_id is None and
                         "best move" in status_text(app))
        board = screen.board
        [move] = board.heat
        assert board.marked and "marked on the board" in status_text(app)
        top_row = board.render().split("\n")[1]  # under the cursor line: the top cells

        def background(column: int):
            return top_row.get_style_at_offset(app.console, column * board.cell_width
                                               + 1).bgcolor

        assert all((background(column) != background(move)) == (column != move)
                   for column in range(7))
