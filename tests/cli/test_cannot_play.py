"""An agent that says it cannot play the chosen game (its `games`, or its `plays`) is
refused before the game starts, the same way everywhere: one line on stderr with the
reason, exit code 2, nothing printed or opened before it, in every command that takes
an agent; in the app, the setup and the new-player screens say so and start nothing."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Input, Select

from plyground.core import get_game
from plyground.core.records.tree import GameTree
from plyground.core.records.record import GameRecord, save_record
from plyground.tui.screens.opponent import OpponentScreen
from plyground.tui.screens.setup import OTHER, SetupScreen
from tests.tui.helpers import make_app, wait_until

ROOT = Path(__file__).resolve().parents[2]
QUARTO = get_game("quarto")
GA_REFUSED = "error: Strategy (GA) cannot play Quarto: it plays only Connect 4\n"
BOT = "my_alphabeta.py:MyAlphaBeta"  # the tutorial's Connect 4 evaluation
BOT_REFUSED = "error: My Alpha-Beta cannot play Quarto: it plays only Connect 4\n"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A reader's folder holding the tutorial's Connect 4 bot, and a Quarto record;
    the data folder is in it too."""
    shutil.copy(ROOT / "examples" / "bots" / "my_alphabeta.py", tmp_path)
    start = QUARTO.start()
    move = start.moves()[0]
    save_record(tmp_path / "quarto.txt",
                GameRecord(QUARTO, GameTree.from_moves(start, [move]), ("random", "random")))
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path / "home"))
    return tmp_path


def plyground(folder: Path, command: str) -> subprocess.CompletedProcess:
    """`plyground COMMAND` run for real in `folder`, with no terminal (the app, opened
    by mistake, would refuse to run without one)."""
    return subprocess.run([sys.executable, "-m", "plyground", *command.split()],
                          cwd=folder, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("command, refused", [
    ("demo quarto --x ga --o greedy", GA_REFUSED),
    (f"demo quarto --x {BOT} --o greedy", BOT_REFUSED),
    ("play quarto --x ga --o greedy", GA_REFUSED),
    (f"play quarto --o {BOT}", BOT_REFUSED),
    (f"match quarto --first {BOT} --second greedy --games 2", BOT_REFUSED),
    ("tournament quarto --agents greedy random ga --games 2", GA_REFUSED),
    ("analyze quarto --agent ga", GA_REFUSED),
    ("review quarto.txt --agent ga", GA_REFUSED),
    ("demo connect4 --x seed --o greedy",
     "error: Seed engine cannot play Connect 4: Connect 4 has no seed engine\n"),
])
def test_every_command_refuses_it_in_one_line_before_it_starts(folder, command, refused):
    result = plyground(folder, command)
    assert (result.returncode, result.stderr, result.stdout) == (2, refused, "")


def test_the_tutorial_shows_what_the_command_prints():
    shown = f"$ plyground demo quarto --x {BOT} --o greedy\n{BOT_REFUSED}"
    assert shown in (ROOT / "docs" / "tutorial.md").read_text()


async def test_the_setup_screen_refuses_it_and_starts_nothing(folder):
    app = make_app("quarto")
    async with app.run_test(size=(160, 50)) as pilot:
        assert isinstance(app.screen, SetupScreen)
        menu = [choice for _, choice in app.screen.rows()[1].query_one(Select)._options]
        assert "ga" not in menu and "seed" not in menu  # the menus do not offer them
        row = app.screen.rows()[1]
        row.query_one(Select).value = OTHER
        await pilot.pause()
        row.query_one(Input).value = f"{folder}/{BOT}"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen) and app.game_screen is None
        assert str(app.screen.query_one("#setup-error").content) == \
            "Player 2: " + BOT_REFUSED.removeprefix("error: ").strip()


async def test_the_new_player_screen_refuses_it_with_its_reason(folder):
    app = make_app("quarto", ("human", "greedy"))
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_until(pilot, lambda: app.game_screen is not None)
        chosen = []
        app.push_screen(OpponentScreen(QUARTO, 1), chosen.append)
        await wait_until(pilot, lambda: isinstance(app.screen, OpponentScreen))
        row = app.screen.query_one("SideRow")
        row.query_one(Select).value = OTHER
        await pilot.pause()
        row.query_one(Input).value = f"{folder}/{BOT}"
        await pilot.click("#continue")
        await pilot.pause()
        assert isinstance(app.screen, OpponentScreen) and chosen == []
        assert str(app.screen.query_one("#opponent-error").content) == \
            BOT_REFUSED.removeprefix("error: ").strip()
