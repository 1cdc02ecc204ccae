"""Every command whose output the README says is a table that fits 80 columns in a pipe,
run for real in a pipe (no COLUMNS: Rich assumes 80 there), its widest line counted in
terminal cells, as a terminal shows them. The list of commands is read from the
README's own sentence, so that a command added there is a command checked here."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from rich.cells import cell_len

ROOT = Path(__file__).resolve().parents[2]
LONG_SPEC = "examples/bots/mybot.py:MyBot:depth=1"  # a spec that must fold to fit
COMMANDS = {
    "match": ["match", "connect4", "--first", "greedy", "--second", LONG_SPEC,
              "--games", "2", "--seed", "1", "--jobs", "1"],
    "tournament": ["tournament", "connect4", "--agents", "random", "greedy", LONG_SPEC,
                   "--games", "2", "--seed", "1", "--jobs", "1", "--no-history"],
    "games list": ["games", "list"],
    "analyze": ["analyze", "connect4", "4453", "--agent", "mcts:iterations=300,seed=1"],
    "review": ["review", "1", "--agent", "alphabeta:depth=2"],
    "grade run": ["grade", "run", "{class}/spec.toml", "{class}/submissions", "--out",
                  "{class}/grades"],
}
# a class of two from the example's, graded by one quick check: node counts
GRADING_SPEC = """title = "Connect 4: node counts"
game = "connect4"
time = 1.0
mem = "512M"
agent = "bot.py:MyBot"

[[check]]
name = "nodes"
kind = "nodes"
points = 30
file = "nodes.txt"
depth = 3
reference = "minimax:depth=3"
order = "generated"
"""
WIDE_RECORD = """[Game "connect4"]
[First "探索エンジン/学生の長い名前のボット.py:深さ優先探索ボット:depth=1"]
[Second "greedy"]
[Result "1-0"]

1. 4 2 2. 5 6 3. 4 5 4. 4 5 5. 4 1-0
"""
STUDENTS = ("alice-decent", "frank-wrong-nodes")


def a_class(folder: Path) -> Path:
    (folder / "submissions").mkdir(parents=True)
    for student in STUDENTS:
        shutil.copytree(ROOT / "examples/class/submissions" / student,
                        folder / "submissions" / student)
    shutil.copy(ROOT / "examples/class/nodes.txt", folder / "nodes.txt")
    (folder / "spec.toml").write_text(GRADING_SPEC)
    return folder


def readme_table_commands() -> list[str]:
    """The commands the README's sentence names: `Tables (`match`, ...) fit 80
    columns, in a pipe too`."""
    text = " ".join((ROOT / "README.md").read_text().split())
    found = re.search(r"Tables \(([^)]*)\) fit 80 columns, in a pipe", text)
    assert found, "the README no longer says which tables fit 80 columns"
    return re.findall(r"`([^`]+)`", found[1])


def in_a_pipe(args: list[str], home: Path) -> str:
    env = {name: value for name, value in os.environ.items()
           if name not in ("COLUMNS", "LINES")}
    env["PLYGROUND_HOME"] = str(home)
    done = subprocess.run([sys.executable, "-m", "plyground", *args], cwd=ROOT, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_table_the_readme_names_fits_80_columns_in_a_pipe(tmp_path):
    names = readme_table_commands()
    assert sorted(names) == sorted(COMMANDS), "a table the README names is not run here"
    school = a_class(tmp_path / "class")
    too_wide = {}
    for name in ["match", *(name for name in names if name != "match")]:
        # the match first: it fills the history that `games list` and `review` read
        args = [arg.format(**{"class": school}) for arg in COMMANDS[name]]
        text = in_a_pipe(args, tmp_path / "home")
        assert text.strip(), name
        if name == "match":  # and a game whose spec has wide characters (2 cells each)
            (tmp_path / "wide.rec").write_text(WIDE_RECORD)
            in_a_pipe(["games", "import", str(tmp_path / "wide.rec")], tmp_path / "home")
        lines = [line for line in text.splitlines()  # a command or a path to copy
                 if not line.startswith(("reproduce:", "the report:"))]  # stays whole
        widest = max(lines, key=cell_len)
        if cell_len(widest) > 80:
            too_wide[name] = (cell_len(widest), widest)
        assert "…" not in text, (name, text)
    assert not too_wide, too_wide
