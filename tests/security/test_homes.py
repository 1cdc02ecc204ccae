"""Homes: a PLYGROUND_HOME that is a file, under a file or unwritable is one line and
exit 2 before any game starts; a game history that cannot be written is found before
the first game of demo, match and tournament (--no-history plays without it, saying
so); in the app it is said once, and play goes on.

Read-only is made real for root, who ignores file modes: as root, a file or folder
gets the immutable attribute (chattr +i), which binds root too; as anyone else, its
write permissions are taken away. Either way the fixture first checks that a write
really fails."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from plyground.core.records.history import History
from plyground.core.records.record import parse_record
from tests.tui.helpers import SIZE, make_app, record_notifications, wait_until

RECORD = '[Game "connect4"]\n[First "human"]\n[Second "human"]\n\n1. 4 4 2. 3\n'
DEMO = ("demo", "connect4", "--first", "random", "--second", "random", "--seed", "1")
COMMANDS = {
    "demo": DEMO,
    "match": ("match", "connect4", "--first", "random", "--second", "random", "--games",
              "2"),
    "tournament": ("tournament", "connect4", "--agents", "random", "greedy", "--games",
                   "1"),
    "games list": ("games", "list"),
    "play": ("play", "connect4", "--first", "random", "--second", "random"),
}


def cli(*args: str, home: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PLYGROUND_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "plyground", *args], cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=180)


def refused(result: subprocess.CompletedProcess) -> str:
    """The one error line of a command that played nothing."""
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ") and result.stdout == ""
    return line


@pytest.fixture
def read_only():
    """Makes paths read-only for real (see the module's docstring); undone after."""
    undo = []

    def make(path: Path) -> Path:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "+i", str(path)], check=True)
            undo.append(lambda: subprocess.run(["chattr", "-i", str(path)], check=True))
        else:
            mode = path.stat().st_mode
            path.chmod(mode & ~0o222)
            undo.append(lambda: path.chmod(mode))
        with pytest.raises(OSError):
            if path.is_dir():
                (path / "probe").write_text("")
            else:
                with open(path, "a") as file:
                    file.write("")
        return path

    yield make
    for step in reversed(undo):
        step()


@pytest.fixture
def homes(tmp_path, read_only) -> dict[str, tuple[Path, str]]:
    """Bad data folders, each with what its error line says."""
    file = tmp_path / "a-file"
    file.write_text("")
    locked = tmp_path / "locked"
    locked.mkdir()
    read_only(locked)
    return {"a file": (file, "is a file, not a folder"),
            "under a file": (file / "plyground", "a part of its path is a file"),
            "unwritable": (locked, "cannot be written in")}


@pytest.mark.parametrize("kind", ["a file", "under a file", "unwritable"])
def test_a_bad_home_is_one_line_before_the_demo_plays(homes, kind, tmp_path):
    home, says = homes[kind]
    line = refused(cli(*DEMO, home=home, cwd=tmp_path))
    assert line.startswith(f"error: the data folder {home} (PLYGROUND_HOME) ")
    assert says in line


@pytest.mark.parametrize("command", ["match", "tournament", "games list", "play"])
def test_every_command_says_a_bad_home_in_one_line(homes, command, tmp_path):
    home, says = homes["a file"]
    assert says in refused(cli(*COMMANDS[command], home=home, cwd=tmp_path))


@pytest.fixture
def locked_history(tmp_path, read_only) -> Path:
    """A data folder whose history holds one game and cannot be written."""
    home = tmp_path / "home"
    home.mkdir()
    with History(home / "history.sqlite3") as history:
        history.add(parse_record(RECORD), "import")
    read_only(home / "history.sqlite3")
    return home


@pytest.mark.parametrize("command", ["demo", "match", "tournament"])
def test_a_history_that_cannot_be_written_is_found_before_the_first_game(
        locked_history, command, tmp_path):
    before = (locked_history / "history.sqlite3").read_bytes()
    line = refused(cli(*COMMANDS[command], home=locked_history, cwd=tmp_path))
    assert line == (f"error: the game history {locked_history / 'history.sqlite3'} cannot "
                    "be written: attempt to write a readonly database (--no-history "
                    "plays without it)")
    assert (locked_history / "history.sqlite3").read_bytes() == before


def test_no_history_plays_without_one_and_says_so(locked_history, tmp_path):
    before = (locked_history / "history.sqlite3").read_bytes()
    result = cli(*DEMO, "--quiet", "--no-history", home=locked_history, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "the games are not kept in the game history (--no-history)\n"
    assert len(result.stdout.splitlines()) == 2  # the result and the moves
    assert (locked_history / "history.sqlite3").read_bytes() == before
    old_name = cli(*DEMO, "--quiet", "--no-record", home=locked_history, cwd=tmp_path)
    assert old_name.returncode == 0 and old_name.stdout == result.stdout


async def test_the_app_says_once_that_the_history_cannot_be_written(
        locked_history, monkeypatch):
    monkeypatch.setenv("PLYGROUND_HOME", str(locked_history))
    app = make_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        said = record_notifications(app)
        for _ in range(2):
            for column in "4343434":  # Red's four in column 4
                await pilot.press(column)
                await pilot.pause()
            await wait_until(pilot, lambda: app.game_screen.match.outcome is not None)
            await pilot.press("escape")  # the result dialog
            await pilot.pause()
            await pilot.press("n")  # a new game
            await pilot.pause()
        await wait_until(pilot, lambda: app.game_screen.match.moves == [])
    warnings = [message for message in said if "history" in message]
    assert warnings == [f"The games are not kept in the history: the game history "
                        f"{locked_history / 'history.sqlite3'} cannot be used: attempt "
                        "to write a readonly database"]
