"""Desconecta-4 BOOM in the app: columns by keys and clicks, BOOM by key and by button
when legal and refused with the reason when not, the bomb countdowns, the inspector
showing BOOM as a move, and a game against a seeded agent."""
from __future__ import annotations

from plyground.core import get_game
from plyground.core.games.boom import BOOM
from plyground.tui.screens.result import ResultScreen
from tests.tui.helpers import (SIZE, make_app, record_notifications, settled, status_text,
                               wait_until)

GAME = get_game("boom")
# Both bombs down (Green's in column 3, Blue's in column 4, row 2), Green to move; a
# BOOM removes Green's bomb and its piece in column 5 (tests/core/test_boom_rules.py).
BOTH_BOMBS = "12345672345357"


def boom_app(sides=("human", "human"), position=None, **settings):
    return make_app("boom", sides, position, **settings)


async def click(pilot, offset):
    await pilot.click("#board", offset=offset)
    await pilot.pause(0.6)  # not a double click


def column_offset(board, column):
    """Where to click in a column, from the board widget's top left (padding 0 1)."""
    return (1 + board.cell_width * column + board.cell_width // 2, 3)


def button_offset(board):
    return (1 + 3, board.button_line)


def board_text(app) -> str:
    return app.game_screen.board.render().plain


async def test_columns_are_played_by_keys_and_clicks():
    app = boom_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await pilot.press("4")
        await pilot.pause()
        await click(pilot, column_offset(screen.board, 6))
        assert screen.match.moves == [3, 6]
        assert screen.board.state == GAME.parse_position("47")
        assert screen.board.state.cell(6, 0) == 1


async def test_boom_by_key_when_legal():
    app = boom_app(position=BOTH_BOMBS)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        assert screen.board.can_boom and "sets off Green's bomb" in board_text(app)
        await pilot.press("b")
        await pilot.pause()
        assert screen.match.moves == [BOOM]
        after = GAME.parse_position(BOTH_BOMBS + "B")
        assert screen.board.state == after and screen.board.explosion is None
        assert "Green: next bomb in 2 turns" in board_text(app)
        assert "Blue: bomb on the board" in board_text(app)


async def test_boom_by_the_button_when_legal():
    app = boom_app(position=BOTH_BOMBS)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await click(pilot, button_offset(screen.board))
        assert screen.match.move_texts() == ["B"]
        # Blue to move now has a bomb: the button is live for Blue
        assert "sets off Blue's bomb" in board_text(app)


async def test_boom_without_a_bomb_is_refused_with_the_reason():
    app = boom_app(position="44")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        messages = record_notifications(app)
        assert not screen.board.can_boom and "sets off" not in board_text(app)
        await pilot.press("b")
        await pilot.pause()
        await click(pilot, button_offset(screen.board))
        assert screen.match.moves == []
        refusal = ("Not played: Green has no bomb on the board (next bomb in 4 turns, "
                   "on its turn 5).")
        assert messages.count(refusal) == 2, messages


async def test_boom_on_the_agents_turn_is_refused():
    app = boom_app(sides=("human", "alphabeta:time=30"), position=BOTH_BOMBS[:-1],
                   clock="real")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        messages = record_notifications(app)
        await wait_until(pilot, lambda: screen.search is not None)
        assert not screen.board.can_boom  # Blue holds a bomb, but Blue is the agent
        await pilot.press("b")
        await pilot.pause()
        assert any("Blue's turn" in m for m in messages)
        await pilot.press("u")  # cancels the search


async def test_the_bomb_countdowns_follow_the_turns():
    app = boom_app(position="1234567")  # Green has had 4 turns, Blue 3: Blue to move
    async with app.run_test(size=SIZE) as pilot:
        text = board_text(app)
        assert "Green: bomb with its next piece" in text
        assert "Blue: next bomb in 2 turns" in text
        await pilot.press("1")  # Blue's 4th
        await pilot.pause()
        assert "Blue: bomb with its next piece" in board_text(app)
        await pilot.press("2")  # Green's 5th piece: its bomb, on row 2
        await pilot.pause()
        assert "Green: bomb on the board" in board_text(app)
        assert app.game_screen.board.state.is_bomb(1, 1)


async def test_the_inspector_shows_boom_as_a_move():
    app = boom_app(sides=("human", "alphabeta:depth=2"), position=BOTH_BOMBS[:-1])
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await settled(pilot, app)  # Blue, with its bomb down, has searched and moved
        tree = screen.inspector.query_one("LiveTree")
        labels = [str(node.label) for node in tree.root.children]
        assert len(labels) == 8
        assert any("BOOM (Blue's bomb in column 4, row 2)" in label for label in labels)


async def test_a_game_against_a_seeded_agent_goes_to_its_end():
    app = boom_app(sides=("human", "greedy:seed=1"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        booms = 0
        while screen.match.outcome is None:
            await settled(pilot, app)
            if screen.match.outcome is not None:
                break
            before = screen.match.state
            assert "your turn" in status_text(app)
            if BOOM in before.moves():  # the human sets off each bomb it gets
                booms += 1
                await pilot.press("b")
            else:  # and else fills from the left
                await pilot.press(str(before.moves()[0] + 1))
            await wait_until(pilot, lambda: screen.match.state.ply > before.ply)
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        replay = GAME.start()
        for move in screen.match.moves:
            replay = replay.play(move)
        assert replay == screen.board.state and replay.outcome() == screen.match.outcome
        assert booms >= 1, GAME.format_line(screen.match.moves)


async def test_the_seed_engine_is_offered_only_for_boom():
    from plyground.tui.screens.setup import SetupScreen

    app = make_app(game_id=None)
    async with app.run_test(size=SIZE) as pilot:
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        rows = list(setup.rows())
        assert all("seed" not in dict((k, t) for t, k in row.choices) for row in rows)
        setup.query_one("#game").value = "boom"
        await pilot.pause()
        assert all("seed" in {k for _, k in row.choices} for row in rows)
        rows[1].set_kind("seed")
        await pilot.pause()
        setup.query_one("#game").value = "connect4"  # the seed engine gives way
        await pilot.pause()
        assert rows[1].kind == "mcts"
