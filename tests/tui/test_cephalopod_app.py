"""Cephalopod in the app: placing dice, choosing captures, the heat map, board sizes."""
from __future__ import annotations

from plyground.tui.screens.setup import SetupScreen
from tests.tui.helpers import SIZE, make_app, record_notifications, settled, wait_until

SMALL = {"rows": 3, "cols": 3}
CHOICE = ".r1./r2.r3/.r4. b"  # Blue to move; b2 (the centre) has six captures


def cephalopod_app(sides=("human", "human"), position=None, options=SMALL, **settings):
    return make_app("cephalopod", sides, position, options=options, **settings)


async def test_a_capture_is_chosen_by_toggling_dice_and_confirming():
    app = cephalopod_app(position=CHOICE)
    async with app.run_test(size=SIZE) as pilot:
        screen, board = app.game_screen, app.game_screen.board
        assert board.cursor == 4  # the centre
        await pilot.press("enter")
        assert board.choosing == 4 and board.capturable() == {1, 3, 5, 7}
        await pilot.press("up", "right")  # b3 (1 pip) and c2 (3 pips)
        assert board.chosen == {1, 5}
        await pilot.press("enter")
        await pilot.pause()
        assert screen.match.move_texts() == ["b2x(b3,c2)"]
        assert screen.match.state.cells[4] == -4 and board.choosing is None


async def test_an_illegal_set_is_refused_by_the_rules_and_escape_backs_out():
    app = cephalopod_app(position=CHOICE)
    async with app.run_test(size=SIZE) as pilot:
        messages = record_notifications(app)
        screen, board = app.game_screen, app.game_screen.board
        await pilot.press("enter", "down", "right", "enter")  # b1 + c2 = 7 pips
        await pilot.pause()
        assert screen.match.moves == []
        assert any("is not legal: on b2 the moves are" in m for m in messages)
        await pilot.press("escape")  # closes the choice, stays in the game
        assert board.choosing is None and app.screen is screen
        await pilot.press("up", "left", "enter")  # a3: one capture only, played at once
        await pilot.pause()
        assert screen.match.move_texts() == ["a3x(b3,a2)"]


async def test_clicks_choose_and_confirm_a_capture():
    app = cephalopod_app(position=CHOICE)
    async with app.run_test(size=SIZE) as pilot:
        screen, board = app.game_screen, app.game_screen.board
        width, height = board.cell_size

        def cell_offset(cell):
            row, col = divmod(cell, 3)
            return (1 + 2 + col * width + 2, 1 + row * height + 1)

        for cell in (4, 3, 7):  # open the choice on b2, take a2 (2) and b1 (4)
            await pilot.click("#board", offset=cell_offset(cell))
            await pilot.pause(0.6)  # not a double click
        assert board.chosen == {3, 7}
        await pilot.click("#board", offset=cell_offset(4))
        await pilot.pause()
        assert screen.match.move_texts() == ["b2x(b1,a2)"]


async def test_mcts_shows_its_visits_as_a_heat_map_and_counts_stay_in_view():
    app = cephalopod_app(sides=("human", "mcts:iterations=400,seed=2"), options={})
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await pilot.press("enter")  # the centre
        await settled(pilot, app)
        heat = screen.board.heat
        assert heat and abs(sum(heat.values()) - 1) < 1e-9
        assert len(screen.match.moves) == 2
        counts = screen.board.counts().plain
        assert "Red 1 die" in counts and "Blue 1 die" in counts


async def test_setup_offers_the_board_sizes():
    app = make_app(game_id=None)
    async with app.run_test(size=SIZE) as pilot:
        setup = app.screen
        assert isinstance(setup, SetupScreen) and not setup.query_one("#variant").display
        setup.query_one("#game").value = "cephalopod"
        await pilot.pause()
        variant = setup.query_one("#variant")
        assert variant.display and variant.value == "5×5"
        variant.value = "3×5"
        await pilot.pause()
        setup.rows()[1].set_kind("greedy")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.game_screen is not None)
        assert app.game_screen.match.game.options() == {"rows": 3, "cols": 5}
