"""Quarto in the app: the opening give, the two-step turn (place, then give), going
back, refused actions, the winning line, a game against an agent, the compact board."""
from __future__ import annotations

from plyground.core import get_game
from plyground.tui.screens.result import ResultScreen
from plyground.tui.screens.setup import SetupScreen
from tests.tui.helpers import (SIZE, make_app, record_notifications, settled, status_text,
                               wait_until)

GAME = get_game("quarto")
HAND_3 = "..../..../..../.... 3"  # the first give is made: Player 2 holds piece 3
ROW_4_WINS = "89a./.4../..1./.... b"  # Player 1 holds b (tall): d4 completes a tall row
B4, C3, D4 = GAME.parse_square("b4"), GAME.parse_square("c3"), GAME.parse_square("d4")


def quarto_app(sides=("human", "human"), position=None, **settings):
    return make_app("quarto", sides, position, **settings)


def square_offset(board, square):
    """Where to click a square, from the board widget's top left (padding 0 1)."""
    width, height = board.square_pitch
    row, col = divmod(square, 4)
    return (1 + 2 + col * width + 2, board.board_top + row * height + 1)


def piece_offset(board, piece):
    """Where to click a piece of the pool."""
    row, col = divmod(piece, 4)
    height = board.square_pitch[1]
    return (1 + board.pool_left + col * 4 + 2, board.board_top + row * height + 1)


async def click(pilot, offset):
    await pilot.click("#board", offset=offset)
    await pilot.pause(0.6)  # not a double click


async def test_the_opening_gives_a_piece_by_keys():
    app = quarto_app()
    async with app.run_test(size=SIZE) as pilot:
        screen, board = app.game_screen, app.game_screen.board
        assert board.giving and "give Player 2 a piece" in status_text(app)
        await pilot.press("right", "down", "enter")  # piece 5
        await pilot.pause()
        assert screen.match.move_texts() == [":5"]
        assert board.state.hand == 5 and not board.giving
        assert "Player 2 holds" in board.render().plain


async def test_the_opening_gives_a_piece_by_a_click():
    app = quarto_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await click(pilot, piece_offset(screen.board, 14))
        assert screen.match.move_texts() == [":14"]


async def test_a_turn_places_then_gives_by_keys():
    app = quarto_app(position=HAND_3)
    async with app.run_test(size=SIZE) as pilot:
        screen, board = app.game_screen, app.game_screen.board
        await pilot.press("up", "enter")  # b4
        await pilot.pause()
        assert board.pending == B4 and board.giving and screen.match.moves == []
        assert "tdSH goes on b4" in status_text(app)
        await pilot.press("right", "right", "enter")  # 0 -> 1 -> 2 (3 is in hand)
        await pilot.pause()
        assert screen.match.move_texts() == ["b4:2"]
        assert board.pending is None and board.state.board[B4] == 3
        assert board.state.hand == 2


async def test_a_turn_places_then_gives_by_clicks():
    app = quarto_app(position=HAND_3)
    async with app.run_test(size=SIZE) as pilot:
        screen, board = app.game_screen, app.game_screen.board
        await click(pilot, square_offset(board, C3))
        assert board.pending == C3
        await click(pilot, piece_offset(board, 9))
        assert screen.match.move_texts() == ["c3:9"]


async def test_escape_goes_back_from_the_give_step():
    app = quarto_app(position=HAND_3)
    async with app.run_test(size=SIZE) as pilot:
        screen, board = app.game_screen, app.game_screen.board
        await pilot.press("enter")  # b3
        assert board.pending is not None
        await pilot.press("escape")  # back to placing, still in the game
        await pilot.pause()
        assert board.pending is None and not board.giving and app.screen is screen
        assert "place tdSH" in status_text(app)
        await pilot.press("right", "enter", "enter")  # c3, then piece 0
        await pilot.pause()
        assert screen.match.move_texts() == ["c3:0"]


async def test_refused_actions_say_why_and_lose_nothing():
    app = quarto_app(position="3.../..../..../.... 5")
    async with app.run_test(size=SIZE) as pilot:
        messages = record_notifications(app)
        screen, board = app.game_screen, app.game_screen.board
        await click(pilot, piece_offset(board, 7))  # a give before placing
        assert ("Not played: place the piece in hand on a square first, as in b3:5."
                in messages)
        await click(pilot, square_offset(board, 0))  # a4 holds piece 3
        assert "Not played: square a4 is taken." in messages
        assert screen.match.moves == [] and board.pending is None
        await click(pilot, square_offset(board, C3))
        await click(pilot, piece_offset(board, 3))  # on the board, not in the pool
        assert "Not played: piece 3 (tdSH) is not available to give." in messages
        assert screen.match.moves == [] and board.pending == C3  # the placement stays
        await pilot.press("enter")  # the pool cursor is on a piece still there
        await pilot.pause()
        assert screen.match.move_texts() == ["c3:0"]


async def test_keys_out_of_turn_are_refused():
    app = quarto_app(sides=("human", "mcts:time=30"), clock="real")
    async with app.run_test(size=SIZE) as pilot:
        messages = record_notifications(app)
        screen = app.game_screen
        await pilot.press("enter")  # gives piece 0
        await wait_until(pilot, lambda: screen.search is not None)
        await pilot.press("enter")  # Player 2 is thinking
        await pilot.pause()
        assert any("Player 2's turn" in m for m in messages)
        assert screen.match.move_texts() == [":0"] and screen.board.pending is None
        await pilot.press("u")  # cancels the search at once
        await pilot.pause()
        assert screen.search is None and screen.match.moves == []


async def test_a_winning_placement_ends_the_game_and_shows_the_line():
    app = quarto_app(position=ROW_4_WINS)
    async with app.run_test(size=SIZE) as pilot:
        screen, board = app.game_screen, app.game_screen.board
        await click(pilot, square_offset(board, D4))  # no give step: the game ends
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        assert screen.match.move_texts() == ["d4:"] and screen.match.outcome.winner == 0
        win = board.get_component_rich_style("quarto--win").bgcolor
        lit = {s for s in range(16) if board.square_style(s).bgcolor == win}
        assert lit == {0, 1, 2, 3}
        assert "Game over: Player 1 wins" in board.render().plain


async def test_a_short_game_against_a_seeded_agent():
    app = quarto_app(sides=("human", "mcts:iterations=400,seed=2"))
    async with app.run_test(size=SIZE) as pilot:
        screen, board = app.game_screen, app.game_screen.board
        await pilot.press("enter")  # give piece 0
        for turn in range(3):
            await settled(pilot, app)
            if screen.match.outcome is not None:
                break
            assert len(screen.match.moves) == 2 + 2 * turn
            heat = board.heat
            assert heat and abs(sum(heat.values()) - 1) < 1e-9
            assert board.heat_by("give")  # the pool has heat too
            square = next(s for s in range(16) if board.state.board[s] < 0
                          and not board.state.wins_at(s))
            await click(pilot, square_offset(board, square))
            await click(pilot, piece_offset(board, board.state.pool()[-1]))
        await settled(pilot, app)
        replay = GAME.start()
        for move in screen.match.moves:
            replay = replay.play(move)
        assert replay == screen.match.state == board.state
        assert len(screen.match.moves) >= 7 or screen.match.outcome is not None


async def test_the_compact_board_fits_a_small_terminal():
    app = quarto_app(position=HAND_3)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, board = app.game_screen, app.game_screen.board
        await pilot.pause()
        assert not board.large
        left = screen.query_one("#left")
        status = screen.query_one("#status")
        assert board.outer_size.width <= left.content_size.width
        assert board.region.bottom <= status.region.y and status.region.bottom < 24
        await click(pilot, square_offset(board, C3))
        await click(pilot, piece_offset(board, 9))
        assert screen.match.move_texts() == ["c3:9"]


async def test_setup_offers_quarto_and_its_variant():
    app = make_app(game_id=None)
    async with app.run_test(size=SIZE) as pilot:
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        setup.query_one("#game").value = "quarto"
        await pilot.pause()
        variant = setup.query_one("#variant")
        assert variant.display and variant.value == "standard"
        variant.value = "2×2 squares win too"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.game_screen is not None)
        assert app.game_screen.match.game.options() == {"squares": True}


async def test_setup_keeps_the_variant_it_was_opened_with():
    app = make_app("quarto", None, options={"squares": True})  # play quarto:squares=true
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert app.screen.query_one("#variant").value == "2×2 squares win too"


async def test_the_live_tree_opens_replies_only_where_asked():
    """Hundreds of root moves a ply: each root move is a row, but only the best one
    shows its replies until another is opened."""
    app = quarto_app(sides=("human", "alphabeta:depth=2"), position=HAND_3)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await settled(pilot, app)  # Player 2 places piece 3 and gives one
        tree = screen.inspector.query_one("LiveTree")
        roots = tree.root.children
        assert len(roots) == len(GAME.parse_position(HAND_3).moves()) == 16 * 15
        opened = [node for node in roots if node.children]  # each iteration's best
        assert 1 <= len(opened) <= 2 and (tree.best_move,) in [node.data for node in opened]
        best = next(node for node in opened if node.data == (tree.best_move,))
        assert "give" in str(best.label) and "★" in str(best.label)
        other = next(node for node in roots if not node.children)
        other.expand()
        await pilot.pause()
        assert len(other.children) == 15 * 14
        # the search is over: every reply has a value, or says why it has none
        assert all("not searched yet" not in str(node.label) for node in other.children)


async def test_the_inspector_marks_a_proven_loss():
    """An endgame Player 2 cannot save (the search's own verdict, which
    tests/core/test_fast_quarto.py holds to brute force) is marked proven lost."""
    from plyground.core.catalogue import make_agent
    from tests.core.positions import quarto_endgames

    lost = next(s for s in quarto_endgames(41, GAME, 6, 40)
                if make_agent("alphabeta", depth=17).decide(s).value < 0)
    assert lost.to_move == 1
    app = quarto_app(sides=("human", "alphabeta:depth=17"),
                     position=GAME.format_position(lost))
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot, app)
        summary = str(app.game_screen.inspector.query_one("#inspector-summary").render())
        assert "proven lost" in summary, summary
