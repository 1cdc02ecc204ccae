"""What the docs say holds, and usage errors end alike: the README counts the lessons
that ship; no blank line splits a Markdown table in two; `lesson check` of a lesson
that is not there, by name or by file, is a usage error (one `error:` line, code 2),
run for real."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from plyground.core.study.lessons import shipped

ROOT = Path(__file__).resolve().parents[2]
NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


def test_the_readme_counts_the_lessons_that_ship():
    text = " ".join((ROOT / "README.md").read_text().split())
    said = re.search(r"(\w+) ship with plyground \(([^)]*)\)", text)
    assert said, "the README no longer says how many lessons ship"
    assert said[1].lower() == NUMBERS[len(shipped())], said[0]
    assert len(said[2].split(", ")) == len(shipped()), said[0]


@pytest.mark.parametrize("page", ["README.md", *sorted(
    str(path.relative_to(ROOT)) for path in (ROOT / "docs").glob("*.md"))])
def test_no_blank_line_splits_a_table(page):
    lines = (ROOT / page).read_text().splitlines()
    split = [number + 1 for number in range(len(lines) - 3)
             if lines[number].startswith("|") and not lines[number + 1].strip()
             and lines[number + 2].startswith("|")
             and not re.fullmatch(r"\|( *:?-+:? *\|)+", lines[number + 3].strip())]
    assert not split, f"{page}: a blank line after line {split} splits a table"


@pytest.mark.parametrize("name", ["nosuch", "nosuch.toml"])
def test_a_lesson_that_is_not_there_is_a_usage_error(tmp_path, name):
    done = subprocess.run([sys.executable, "-m", "plyground", "lesson", "check",
                           str(tmp_path / name) if name.endswith(".toml") else name],
                          cwd=tmp_path, env={**os.environ}, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    assert name in done.stderr
