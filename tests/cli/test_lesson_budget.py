"""`lesson check` has a total budget (--budget MINUTES, 10 by default) and says on
stderr where it is: a check that runs past its budget stops with one error line."""
from __future__ import annotations

import itertools

from typer.testing import CliRunner

from plyground.tui import cli
from plyground.tui.cli import lesson as lesson_command

TWO_SEARCHES = '''title = "two"
[[scene]]
game = "connect4"
[[scene.step]]
search = "alphabeta:depth=1"
[[scene]]
game = "connect4"
[[scene.step]]
search = "alphabeta:depth=2"
'''


def check(tmp_path, *options: str):
    path = tmp_path / "two.toml"
    path.write_text(TWO_SEARCHES)
    return CliRunner().invoke(cli.app, ["lesson", "check", str(path), *options])


def test_a_check_says_where_it_is_on_stderr(tmp_path):
    result = check(tmp_path)
    assert result.exit_code == 0, result.output
    assert "scene 1: searching with alphabeta:depth=1" in result.stderr
    assert "scene 2: searching with alphabeta:depth=2" in result.stderr
    assert "no faults (2 scenes" in result.stdout


def test_a_check_past_its_budget_stops_in_one_line(tmp_path, monkeypatch):
    clock = itertools.count(0, 50)  # each look at the clock, 50 s later
    monkeypatch.setattr(lesson_command.time, "monotonic", lambda: next(clock))
    result = check(tmp_path, "--budget", "1")
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert len(errors) == 1 and "not checked within its budget of 1 minutes" in errors[0]
    assert "stopped at scene 2" in errors[0]
    assert "no faults" not in result.stdout


def test_the_budget_has_a_range(tmp_path):
    for bad in ("0", "inf", "nan", "100000"):
        result = check(tmp_path, "--budget", bad)
        assert result.exit_code == 2, bad
        assert result.output.startswith("error: Invalid value for '--budget'"), bad
