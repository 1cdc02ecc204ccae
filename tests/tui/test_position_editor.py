"""The setup screen's position editor: a position typed or pasted in the game's notation,
checked as it is typed, starts the game where `play --position` would."""
from __future__ import annotations

import pytest
from textual.widgets import Input, RadioButton, Select

from plyground.core import get_game
from plyground.tui.cli.sides import starting_state
from plyground.tui.screens.setup import SetupScreen, example_position, read_start

from .helpers import make_app, wait_until

# a position of each game, from the snapshot tests
POSITIONS = {
    "connect4": ("44536", {}),
    "boom": ("1234567234535", {}),
    "cephalopod": (".r2.../b1r1.../..r3../....b2/..... b", {}),
    "quarto": ("8.a./.5c./3..6/.... f", {}),
}
SMALL = {"rows": 3, "cols": 3}
SMALL_POSITION = ".r1./r2.r3/.r4. r"
QUARTO_OVER = "0123/..../..../.... -"  # pieces 0-3 on the top row: all four short


def check_text(screen) -> str:
    return str(screen.query_one("#position-check").content)


def error_text(screen) -> str:
    return str(screen.query_one("#setup-error").content)


async def type_position(pilot, screen, text: str) -> None:
    """Click the position box and type `text` key by key."""
    box = screen.query_one("#position", Input)
    await pilot.click(box)
    box.value = ""
    await pilot.press(*["space" if char == " " else char for char in text])
    await pilot.pause()


async def choose(pilot, screen, game_id: str) -> None:
    screen.query_one("#game", Select).value = game_id
    await pilot.pause()


@pytest.mark.parametrize("game_id", POSITIONS)
def test_the_editor_reads_a_position_as_the_command_line_does(game_id):
    text, options = POSITIONS[game_id]
    game = get_game(game_id, **options)
    state, description = read_start(game, text)
    assert state == starting_state(game, text) == game.parse_position(text)
    assert description == f"{game.side_labels[state.to_move]} to move at ply {state.ply}"
    assert read_start(game, "  ")[0] == starting_state(game, None) == game.start()


async def test_a_valid_position_is_confirmed_and_an_invalid_one_names_its_fault():
    app = make_app(game_id=None)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        assert check_text(screen) == "✓ the usual start: X to move"
        box = screen.query_one("#position", Input)
        assert f"e.g. {example_position(get_game('connect4'))}" in box.placeholder
        assert "columns played" in str(screen.query_one("#position-help").content)
        await type_position(pilot, screen, "4453")
        assert check_text(screen) == "✓ X to move at ply 4"
        await type_position(pilot, screen, "44x3")
        assert check_text(screen) == ("✗ bad position '44x3': move 3 is 'x', "
                                      "not a column 1-7")
        assert screen.query_one("#position-check").has_class("-invalid")


async def test_enter_on_an_invalid_position_does_not_start_and_keeps_what_was_typed():
    app = make_app(game_id=None)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = app.screen
        screen.query_one("#seed", Input).value = "7"
        second = screen.rows()[1]
        second.query_one(Select).value = "alphabeta"
        await pilot.pause()
        second.query_one(Input).value = "0.5"
        await type_position(pilot, screen, "4444444")
        await pilot.press("enter")
        await pilot.pause()
        assert app.game_screen is None and app.screen is screen
        assert error_text(screen).startswith("Start position: bad position '4444444': "
                                             "move 7 plays column 4, which is full")
        assert screen.focused is screen.query_one("#position", Input)
        await pilot.press("ctrl+s")  # the start key, from the box, all the same
        await pilot.pause()
        assert app.game_screen is None
        assert screen.query_one("#position", Input).value == "4444444"
        assert screen.query_one("#seed", Input).value == "7"
        assert (second.kind, second.value) == ("alphabeta", "0.5")
        await pilot.press("backspace")  # mended: the error line goes
        assert check_text(screen) == "✓ X to move at ply 6"
        assert error_text(screen) == ""


async def test_a_finished_game_is_said_to_be_over_and_does_not_start():
    app = make_app(game_id=None)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = app.screen
        await choose(pilot, screen, "quarto")
        await type_position(pilot, screen, QUARTO_OVER)
        assert check_text(screen).startswith(
            "✗ the game is over in this position (Player 1 wins: ")
        await pilot.press("enter")
        await pilot.pause()
        assert app.game_screen is None
        assert "the game is over" in error_text(screen)


@pytest.mark.parametrize("game_id", POSITIONS)
async def test_a_valid_position_starts_the_game_there_as_play_position_would(game_id):
    text, options = POSITIONS[game_id]
    app = make_app(game_id=None)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = app.screen
        await choose(pilot, screen, game_id)
        screen.query_one("#role-both", RadioButton).value = True  # no agent to wait for
        await pilot.pause()
        await type_position(pilot, screen, text)
        assert check_text(screen).startswith("✓ ")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.game_screen is not None)
        match = app.game_screen.match
        assert match.game == get_game(game_id, **options)
        assert match.start == starting_state(match.game, text)
        assert match.start != match.game.start()
        await pilot.press("escape")  # back: the position is still there
        await wait_until(pilot, lambda: app.screen is screen)
        assert screen.query_one("#position", Input).value == text


@pytest.mark.parametrize("sides", [("human", "human"), None])
async def test_the_command_lines_position_is_in_the_box(sides):
    """`play connect4 --position 44536`, with both sides named (the game opens; Esc
    goes to the setup) or not (the setup opens)."""
    app = make_app(sides=sides, position="44536")
    async with app.run_test(size=(160, 50)) as pilot:
        if sides is not None:
            await wait_until(pilot, lambda: app.game_screen is not None)
            await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
        screen = app.screen
        await pilot.pause()
        assert screen.query_one("#position", Input).value == "44536"
        assert check_text(screen) == "✓ O to move at ply 5"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.game_screen is not None)
        game = get_game("connect4")
        assert app.game_screen.match.start == starting_state(game, "44536")


async def test_each_game_keeps_its_own_position_and_board():
    app = make_app(game_id=None)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = app.screen
        box = screen.query_one("#position", Input)
        await type_position(pilot, screen, "4453")
        await choose(pilot, screen, "cephalopod")
        assert box.value == ""
        assert check_text(screen) == "✓ the usual start: Red to move"
        box.value = SMALL_POSITION
        await pilot.pause()
        # on the 5×5 board: the message names the board it fits
        assert check_text(screen) == (
            f"✗ bad position '{SMALL_POSITION}': 3 rows, the board has 5 "
            "(it is a position for “3×3”: choose that above)")
        screen.query_one("#variant", Select).value = "3×3"
        await pilot.pause()
        assert check_text(screen) == "✓ Red to move at ply 4"
        await choose(pilot, screen, "connect4")
        assert box.value == "4453" and check_text(screen) == "✓ X to move at ply 4"
        await choose(pilot, screen, "cephalopod")
        assert box.value == SMALL_POSITION
        assert screen.query_one("#variant", Select).value == "3×3"
        assert check_text(screen) == "✓ Red to move at ply 4"
        screen.query_one("#role-both", RadioButton).value = True
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.game_screen is not None)
        game = get_game("cephalopod", **SMALL)
        assert app.game_screen.match.start == starting_state(game, SMALL_POSITION)


async def test_the_editor_works_on_a_small_terminal():
    app = make_app(game_id=None)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        screen.query_one("#role-both", RadioButton).value = True
        await pilot.pause()
        box = screen.query_one("#position", Input)
        box.focus()
        await pilot.pause()
        assert 0 <= box.region.x and box.region.right <= 80  # all of it on the screen
        assert 0 <= box.region.y and box.region.bottom <= 24
        await pilot.press("4", "4", "5", "3")
        await pilot.pause()
        check = screen.query_one("#position-check")
        assert check.region.right <= 80 and check_text(screen) == "✓ X to move at ply 4"
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.game_screen is not None)
        assert app.game_screen.match.start == starting_state(get_game("connect4"), "4453")
