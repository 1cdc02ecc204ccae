"""Quitting is easy to find: Ctrl+Q in every footer and in the help, q wherever no
text box has the focus (never while typing in one), and the help lists the screen's
own keys before a text box's two dozen editing keys."""
from __future__ import annotations

import pytest
from textual.widgets import Button, DataTable, Footer, Input
from textual.widgets._footer import FooterKey

from plyground.core.records.history import History
from plyground.tui.screens.games import GamesScreen
from plyground.tui.screens.help import HelpScreen
from plyground.tui.screens.setup import SetupScreen

from .helpers import SIZE, SMALL, make_app, wait_until

SIZES = pytest.mark.parametrize("size", [SIZE, SMALL], ids=["160x50", "80x24"])


async def setup_screen(pilot, app) -> SetupScreen:
    await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
    return app.screen


async def help_keys(pilot, app) -> list[str]:
    await pilot.press("f1")
    await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
    return str(app.screen.query_one("#help-keys").content).splitlines()


@SIZES
async def test_the_setup_help_lists_its_own_keys_and_quit_before_a_text_boxs(size):
    app = make_app(game_id=None)
    async with app.run_test(size=size) as pilot:
        screen = await setup_screen(pilot, app)
        screen.query_one("#position", Input).focus()  # typing a position
        await pilot.pause()
        lines = await help_keys(pilot, app)
        assert lines[0].split() == ["^s", "Start", "game"], lines[:3]
        quit_line = next(line for line in lines if "Quit" in line)
        assert quit_line.split()[0] == "^q" and "q too, outside a text box" in quit_line
        editing = lines.index("In the text box:")
        assert lines.index(quit_line) < editing
        assert any("the next field" in line for line in lines[:editing])
        assert any("Move cursor left" in line for line in lines[editing:])


async def test_the_game_help_names_both_quit_keys():
    app = make_app(sides=("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        lines = await help_keys(pilot, app)
        assert any(line.split() == ["q", "^q", "Quit"] for line in lines), lines


def footer_keys(screen) -> dict[str, FooterKey]:
    """The footer's keys on screen, by key."""
    footer = screen.query_one(Footer)
    return {key.key: key for key in footer.query(FooterKey)
            if key.display and key.region.width and
            key.region.right <= screen.app.size.width}


@SIZES
async def test_ctrl_q_is_in_the_footer_of_the_setup_and_games_screens(size):
    app = make_app(game_id=None)
    async with app.run_test(size=size) as pilot:
        screen = await setup_screen(pilot, app)
        await pilot.pause()
        assert "ctrl+q" in footer_keys(screen)
        assert footer_keys(screen)["ctrl+q"].description == "Quit"
        await pilot.press("ctrl+g")
        await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen))
        await pilot.pause()
        assert "ctrl+q" in footer_keys(app.screen)


async def test_q_types_in_a_text_box_and_quits_from_anywhere_else():
    app = make_app(game_id=None)
    async with app.run_test(size=SMALL) as pilot:
        screen = await setup_screen(pilot, app)
        box = screen.query_one("#seed", Input)
        box.focus()
        await pilot.press("q")
        await pilot.pause()
        assert box.value == "q" and app.is_running  # typed, not quit
        screen.query_one("#start", Button).focus()
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running)


async def test_q_quits_from_the_games_list(tmp_path, monkeypatch):
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path / "home"))
    app = make_app(game_id=None)
    async with app.run_test(size=SIZE) as pilot:
        await setup_screen(pilot, app)
        await pilot.press("ctrl+g")
        await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen))
        app.screen.query_one(DataTable).focus()
        await pilot.pause()
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running)


async def test_ctrl_q_in_a_game_keeps_it_in_the_history(tmp_path, monkeypatch):
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path / "home"))
    app = make_app(sides=("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "4")
        await wait_until(pilot, lambda: len(app.game_screen.match.moves) == 2)
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: not app.is_running)
    with History() as history:
        assert history.count() == 1  # the unfinished game, as q keeps it
