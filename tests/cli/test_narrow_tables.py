"""The command line's tables at 80 columns, run for real: in a pipe (Rich assumes 80
columns there) and in an 80-column terminal. Numbers and headers are never cut (no
`…`), long agent specs fold whole, and each number is the one `--json` reports."""
from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ALPHABETA = "examples/bots/my_alphabeta.py:MyAlphaBeta:depth=3"
MYBOT = "examples/bots/mybot.py:MyBot:depth=1"
MATCH = ["match", "connect4", "--first", ALPHABETA, "--second", MYBOT, "--games", "4",
         "--seed", "7", "--jobs", "2"]
TOURNAMENT = ["tournament", "connect4", "--agents", ALPHABETA, MYBOT, "random", "--games",
              "2", "--seed", "3", "--jobs", "2"]
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    """A game history of its own, which the match below fills."""
    return tmp_path_factory.mktemp("home")


def plyground(args: list[str], home: Path, terminal: bool = False) -> str:
    """The command's output: through a pipe with no COLUMNS set, or (`terminal`) in a
    terminal 80 columns wide, with COLUMNS=80, its colours taken out."""
    env = {name: value for name, value in os.environ.items() if name != "COLUMNS"}
    env["PLYGROUND_HOME"] = str(home)
    command = [sys.executable, "-m", "plyground", *args]
    if not terminal:
        done = subprocess.run(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout
    env["COLUMNS"] = "80"
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                               stdout=follower, stderr=subprocess.DEVNULL)
    os.close(follower)
    output = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: the command ended
            break
        if not chunk:
            break
        output += chunk
    os.close(leader)
    assert process.wait(timeout=300) == 0
    return ESCAPES.sub("", output.decode().replace("\r\n", "\n"))


def table_rows(text: str, spec_at: int) -> list[list[str]]:
    """The rows under the first table's rule (a line of ─) in `text`, to the blank line
    after it: each row's cells, the spec (cell `spec_at`) made whole again where it
    folded onto the next lines (a line of one word)."""
    lines = text.splitlines()
    rule = next(index for index, line in enumerate(lines) if set(line.strip()) == {"─"})
    rows: list[list[str]] = []
    for line in lines[rule + 1:]:
        words = line.split()
        if len(words) == 1 and rows:
            rows[-1][spec_at] += words[0]
        elif words:
            rows.append(words)
        else:
            break
    return rows


def assert_whole(text: str) -> None:
    assert "…" not in text, text
    table = [line for line in text.splitlines() if not line.startswith(
        ("reproduce:", "["))]  # a command line to copy is never broken
    assert max(map(len, table)) <= 80, text


@pytest.mark.parametrize("terminal", [False, True], ids=["pipe", "terminal"])
def test_a_match_of_long_specs_keeps_its_numbers_and_headers_whole(home, terminal):
    report = json.loads(plyground([*MATCH, "--json"], home))
    text = plyground(MATCH, home, terminal)
    assert_whole(text)
    lines = text.splitlines()
    assert lines[2].split() == ["agent", "wins", "draws", "losses", "score", "as", "1st",
                                "as", "2nd"]
    assert lines[1].split() == ["wins", "wins"]
    rows = {row[0]: row[1:] for row in table_rows(text, 0)}
    assert set(rows) == {ALPHABETA, MYBOT}  # folded, then whole again
    for total in report["totals"]:
        assert rows[total["agent"]] == [
            str(total["wins"]), str(total["draws"]), str(total["losses"]),
            f"{total['score']:.1f}%", str(total["wins_first"]), str(total["wins_second"])]


@pytest.mark.parametrize("terminal", [False, True], ids=["pipe", "terminal"])
def test_a_tournament_numbers_its_cross_tables_columns_and_keeps_them_whole(home,
                                                                           terminal):
    report = json.loads(plyground([*TOURNAMENT, "--json", "--no-record"], home))
    text = plyground([*TOURNAMENT, "--no-record"], home, terminal)
    assert_whole(text)
    order = [standing["agent"] for standing in report["ratings"]]
    specs = report["agents"]
    cells = [[("" if cell is None else f"{cell['wins']}-{cell['draws']}-{cell['losses']}")
              for cell in (report["cross_table"][row][column] for column in order)]
             for row in order]
    rows = table_rows(text, 1)
    assert [row[:2] for row in rows[:3]] == [[str(rank), specs[agent]]
                                             for rank, agent in enumerate(order, 1)]
    assert [row[2:] for row in rows[:3]] == [[cell for cell in row if cell]
                                             for row in cells]
    assert table_rows(text[text.index("Elo"):], 1) == [
        [str(s["rank"]), s["spec"], f"{s['elo']:.0f}", f"{s['error']:.0f}",
         str(s["games"]), f"{s['points']:g}", f"{s['score']:.1f}%"]
        for s in report["ratings"]]


def test_the_games_list_at_80_columns_folds_the_specs_and_keeps_the_rest(home):
    plyground([*MATCH, "--games", "2"], home)  # two games at least in the history
    games = json.loads(plyground(["games", "list", "--json"], home))
    text = plyground(["games", "list"], home, terminal=True)
    assert_whole(text)
    header = next(line for line in text.splitlines() if line.startswith("id"))
    assert header.split() == ["id", "date", "game", "first", "second", "result", "moves",
                              "source"]
    rows = [line.split() for line in text.splitlines() if line.strip()[:1].isdigit()
            and line.split()[0].isdigit() and len(line.split()) >= 6]
    assert [(int(row[0]), row[-2], row[-1]) for row in rows] == [
        (game["id"], str(game["moves"]), game["source"]) for game in games]


def test_analyze_keeps_each_moves_value_and_visits_whole(home):
    args = ["analyze", "connect4", "4453", "--agent", "mcts:iterations=3000,seed=1"]
    report = json.loads(plyground([*args, "--json"], home))
    text = plyground(args, home)
    assert_whole(text)
    assert [row for row in table_rows(text, 0)] == [
        [entry["move"], *entry["description"].split(), str(entry["visits"])]
        for entry in report["moves"]]
