"""docs/tutorial.md cannot rot: its bots are examples/bots/, its commands run against
them (in a folder of their own, as the tutorial's reader works), and the outputs it
shows are what those commands print."""
from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plyground.tui import cli

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = (ROOT / "docs" / "tutorial.md").read_text()
EXAMPLES = ROOT / "examples" / "bots"
BOT_FILES = ("mybot.py", "my_alphabeta.py")
FIRST_DEMO = "plyground demo connect4 --x mybot.py:MyBot --o greedy"
# what the tutorial says of these games
RESULTS = {FIRST_DEMO: "draw",
           "plyground demo connect4 --x mybot.py:MyBot:depth=1 --o greedy --quiet": "O wins"}


def blocks(language: str) -> list[str]:
    """The tutorial's fenced code blocks in `language` ("" for plain ones)."""
    return re.findall(rf"^```{language}\n(.*?)^```$", TUTORIAL, re.M | re.S)


def commands() -> list[str]:
    """The tutorial's commands that play games with its bot files (not `play`, which
    opens the app, nor the packaged bots, which need `pip install`), each once."""
    lines = [line.strip() for block in blocks("sh") for line in block.splitlines()]
    found = [line for line in lines
             if re.match(r"plyground (demo|match|tournament) ", line)
             and any(name in line for name in BOT_FILES)]
    return list(dict.fromkeys(found))


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """The reader's own folder, holding the tutorial's bots."""
    for name in BOT_FILES:
        shutil.copy(EXAMPLES / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(command: str):
    argv = shlex.split(command)
    assert argv[0] == "plyground"
    return CliRunner().invoke(cli.app, argv[1:])


def test_the_tutorials_bots_are_the_examples():
    python = blocks("python")
    for name in BOT_FILES:
        source = (EXAMPLES / name).read_text()
        body = source[source.index("from plyground"):]
        assert body in python, f"the tutorial does not show examples/bots/{name}"


def test_the_tutorial_runs_a_demo_and_a_tournament_with_its_bots():
    found = commands()
    assert set(RESULTS) <= set(found)
    assert any(command.startswith("plyground tournament ") and "--games 2" in command
               for command in found)
    assert any("my_alphabeta.py:MyAlphaBeta" in command for command in found)


@pytest.mark.parametrize("command", commands())
def test_each_command_of_the_tutorial_plays_its_games(folder, command):
    result = run(command)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "forfeits" not in result.stdout
    if command.startswith("plyground demo "):
        assert lines[-2] == RESULTS.get(command, lines[-2])
        assert lines[-2] in ("X wins", "O wins", "draw")
        assert re.fullmatch(r"[1-7]+", lines[-1])
    else:
        assert lines[-1].startswith(f"reproduce: {command} --seed ")


def test_a_bot_that_raises_forfeits_as_the_tutorial_shows(folder):
    source = (folder / "mybot.py").read_text()
    first_line = '        raise ValueError("oops")\n'
    assert first_line.strip() in TUTORIAL
    (folder / "mybot.py").write_text(source.replace(
        "    def decide(self, state, budget):\n",
        "    def decide(self, state, budget):\n" + first_line))
    result = run(FIRST_DEMO)
    assert result.exit_code == 0, result.output
    shown = next(block for block in blocks("") if "X forfeits" in block)
    assert result.stdout.splitlines()[-3:-1] == shown.splitlines()


def test_a_bot_that_cannot_be_imported_is_the_error_the_tutorial_shows(folder):
    source = next(block for block in blocks("python") if "class MyBot(Bot):" in block)
    (folder / "mybot.py").write_text(source.replace("class MyBot(Bot):",
                                                    "class MyBot(Bott):"))
    result = run(FIRST_DEMO)
    assert result.exit_code == 2
    shown = next(block for block in blocks("") if block.startswith("error: "))
    assert result.stderr == shown
