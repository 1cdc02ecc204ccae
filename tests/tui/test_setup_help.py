"""The setup screen's help (`?` or F1), and the example position under its position
box: a position of the game and board chosen, written by the game itself."""
from __future__ import annotations

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Input, Select

from plyground.core import get_game
from plyground.tui.screens.help import HelpScreen
from plyground.tui.screens.setup import (SetupScreen, example_position, notation_help,
                                         playable_games, read_start)

from .helpers import SIZE, SMALL, make_app, wait_until

BOARDS = [(entry.id, options) for entry in playable_games()
          for options in [{}] + [options for _, options in entry.variants[1:2]]]


@pytest.mark.parametrize("game_id, options", BOARDS)
def test_each_games_example_is_a_position_of_its_board(game_id, options):
    game = get_game(game_id, **options)
    state, _ = read_start(game, example_position(game))  # reads, and the game goes on
    assert state != game.start() and state.ply > 0
    assert f"e.g. '{example_position(game)}'" in notation_help(game)
    assert notation_help(game).count("e.g.") == 1


def test_the_examples_follow_the_board_size():
    small, usual = get_game("cephalopod", rows=3, cols=3), get_game("cephalopod")
    assert example_position(small).count("/") == 2
    assert example_position(usual).count("/") == 4


async def typed_example_reads(pilot, screen) -> str:
    """Type the example the help under the box gives: what the line under it says."""
    example = str(screen.query_one("#position-help").content).split("e.g. '")[1][:-1]
    screen.query_one("#position", Input).value = example
    await pilot.pause()
    return str(screen.query_one("#position-check").content)


async def test_the_boxs_example_reads_on_each_board_of_cephalopod():
    app = make_app(game_id=None)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        screen.query_one("#game", Select).value = "cephalopod"
        await pilot.pause()
        assert screen.query_one("#variant", Select).value == "5×5"
        assert (await typed_example_reads(pilot, screen)).startswith("✓ Red to move")
        for variant in ("3×3", "3×5"):
            screen.query_one("#variant", Select).value = variant
            await pilot.pause()
            assert (await typed_example_reads(pilot, screen)).startswith("✓ Red to move")
            help_line = str(screen.query_one("#position-help").content)
            assert example_position(get_game("cephalopod",
                                             **screen.chosen_options())) in help_line


@pytest.mark.parametrize("size", [SIZE, SMALL])
async def test_question_mark_and_f1_open_a_help_that_fits_the_setup(size):
    app = make_app(game_id=None)
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#game", Select).value = "quarto"
        await pilot.pause()
        await pilot.press("question_mark")  # the Start button has the focus
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = {part: str(app.screen.query_one(f"#help-{part}").content)
                for part in ("fields", "position", "keys", "rules")}
        assert "Other agent…" in text["fields"] and "Seed" in text["fields"]
        assert f"'{example_position(get_game('quarto'))}'" in text["position"]
        assert "^s  Start game" in text["keys"] and "?  Help" in text["keys"]
        assert "tab  the next field" in text["keys"]
        assert text["rules"] == get_game("quarto").entry.rules
        scroll = app.screen.query_one(VerticalScroll)
        assert scroll.region.bottom <= size[1] and scroll.region.right <= size[0]
        await pilot.press("end")  # what a small terminal cannot show scrolls into view
        await pilot.pause()
        assert scroll.scroll_y == scroll.max_scroll_y
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        screen.query_one("#position", Input).focus()
        await pilot.press("f1")  # in a text box, where ? is typed
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("f1")
        await wait_until(pilot, lambda: app.screen is screen)


async def test_a_short_terminal_opens_the_setup_on_its_title_with_start_focused():
    """Enter starts a game at once, yet at 80×24 the screen shows the title and the
    game's menu, not the bottom of the form where the focused button is."""
    app = make_app(game_id=None)
    async with app.run_test(size=SMALL) as pilot:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        await pilot.pause()
        await pilot.pause()
        assert app.focused is screen.query_one("#start")
        assert screen.scroll_y == 0
        title = screen.query_one("#title")
        assert title.region.y >= 0 and screen.query_one("#game", Select).region.y < 24
