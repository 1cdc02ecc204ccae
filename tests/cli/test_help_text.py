"""`--help` of every command, run for real in a pipe (80 columns): its prose and its
commands' list break a line only where the next word does not fit (no line cut short
mid-sentence where a docstring's line ended); `sprt --help` shows the defaults of the
test's settings; `games --help` says that the app stores games too."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import typer.main
from rich.cells import cell_len
from typer.testing import CliRunner

from plyground.tui.cli import app

ROOT = Path(__file__).resolve().parents[2]
WIDTH = 80


def help_of(*command: str) -> str:
    env = {name: value for name, value in os.environ.items()
           if name not in ("COLUMNS", "LINES")}
    done = subprocess.run([sys.executable, "-m", "plyground", *command, "--help"],
                          cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def every_command() -> list[tuple[str, ...]]:
    found = []

    def walk(command, path):
        found.append(path)
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            if not sub.hidden:
                walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return found


def cut_short(rows: list[str], room: int) -> list[tuple[str, str]]:
    """Pairs of consecutive lines of one paragraph where the first ended though the
    next line's first word would have fitted on it."""
    return [(first, second) for first, second in zip(rows, rows[1:])
            if first.strip() and second.strip()
            and cell_len(first.rstrip()) + 1 + cell_len(second.split()[0]) <= room]


def prose_and_command_rows(text: str) -> tuple[list[str], list[str]]:
    """The help's own paragraphs (outside the boxes) and the Commands box's
    description column, each row as drawn."""
    prose, commands, box = [], [], None
    for line in text.splitlines():
        if line.startswith("╭"):
            box = "commands" if "Commands" in line else "other"
            continue
        if line.startswith("╰"):
            box = None
            continue
        if box is None:
            prose.append(line[1:])  # (typer's margin of one space)
        elif box == "commands":
            commands.append(line[1:-1])
    return prose, commands


# run for real: the commands the break was seen in; the others in this process
FOR_REAL = {(), ("train",), ("perft",)}


def help_in_process(*command: str) -> str:
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": None,
                                                                "LINES": None})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_no_help_breaks_a_line_before_it_must():
    problems = {}
    every = every_command()
    assert FOR_REAL <= set(every) and len(every) > 20
    for command in every:
        text = help_of(*command) if command in FOR_REAL else help_in_process(*command)
        prose, commands = prose_and_command_rows(text)
        found = cut_short(prose, WIDTH - 2)
        blocks: list[list[str]] = []  # each command's rows in the Commands box
        for row in commands:
            if row[1:2].strip() or not blocks:
                blocks.append([])
            blocks[-1].append(row)
        for block in blocks:
            name = block[0].split()[0]
            start = block[0].index(name) + len(name)
            start += len(block[0][start:]) - len(block[0][start:].lstrip())
            found += cut_short([row[start:] for row in block], len(block[0]) - start - 1)
        if found:
            problems[" ".join(command) or "(root)"] = found
    assert not problems, problems


def test_sprt_help_shows_the_tests_defaults():
    text = " ".join(help_of("sprt").split("╭─ Options")[1].replace("│", " ").split())
    for option, default in (("--elo0", "0"), ("--elo1", "5"), ("--alpha", "0.05"),
                            ("--beta", "0.05"), ("--max-pairs", "10000")):
        start = text.index(option)
        following = text[start:text.find("--", start + len(option))]
        assert f"[default: {default}]" in following or \
            f"[default: {default}.0]" in following, (option, following)


def test_games_help_says_the_app_stores_games():
    text = " ".join(help_of("games").split())
    assert "the app stores each game played in it" in text.split("Options")[0].lower()
