"""`plyground solve connect4`: the public solver's input and output, line for line."""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from plyground.core.connect4 import book as c4book
from plyground.core import get_game
from plyground.tui import cli

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "connect4"


def run(text: str, *options: str):
    return CliRunner().invoke(cli.app, ["solve", "connect4", *options], input=text)


def test_it_prints_each_position_with_its_score():
    lines = (DATA / "Test_L3_R1").read_text().splitlines()[:30]
    result = run("".join(line.split()[0] + "\n" for line in lines))
    assert result.exit_code == 0
    assert result.stdout.splitlines() == lines  # the data file's own format


def test_a_bad_line_is_reported_and_the_next_is_solved():
    result = run("4444444\n2252576253462244111563365343671351441\nx1\n")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["2252576253462244111563365343671351441 -1"]
    assert "line 1:" in result.stderr and "column 4, which is full" in result.stderr
    assert "line 3:" in result.stderr and "'x'" in result.stderr


def test_analyze_gives_seven_column_scores_and_weak_their_signs():
    position = "2252576253462244111563365343671351441"
    strong = run(position + "\n", "--analyze").stdout.split()
    assert strong[0] == position and len(strong) == 8
    scores = [int(s) for s in strong[1:]]
    assert max(scores) == -1 and scores[:5] == [-1000] * 5  # full columns
    weak = [int(s) for s in run(position + "\n", "-a", "-w").stdout.split()[1:]]
    assert weak == [-1000 if s == -1000 else (s > 0) - (s < 0) for s in scores]


def test_other_games_have_no_solver():
    result = CliRunner().invoke(cli.app, ["solve", "quarto"], input="\n")
    assert result.exit_code == 2 and "no exact solver for Quarto" in result.output


def test_the_opening_book_answers_the_first_moves_at_once():
    # the empty board's columns score -2 -1 0 1 0 -1 -2 (minutes of search without
    # the book); after 4, the book's 2-stone scores
    book, after = c4book.load(), get_game("connect4").parse_position("4")
    result = run("\n4\n", "--analyze")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        " -2 -1 0 1 0 -1 -2",
        "4 " + " ".join(str(-book.score(after.play(c))) for c in range(7))]


def test_the_solve_command_builds_a_book(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(c4book, "build", lambda depth, out, log, jobs: calls.append(
        (depth, out, jobs)) or log("built"))
    result = CliRunner().invoke(cli.app, ["solve", "connect4", "--build-book", "3",
                                          "--out", str(tmp_path / "b.json"), "-j", "2"])
    assert result.exit_code == 0 and result.stdout == "built\n"
    assert calls == [(3, tmp_path / "b.json", 2)]


@pytest.mark.parametrize("options, problem", [
    (["--build-book", "9"], "a book depth must be 0..8, not 9"),
    (["--build-book", "99"], "'--build-book': Input should be less than or equal to 64"),
    (["--build-book", "-1"], "'--build-book': Input should be greater than or equal"),
    (["--build-book", "three"], "Invalid value for '--build-book'"),
    (["--build-book", "3", "--jobs", "0"], "'--jobs' / '-j': Input should be greater"),
    (["--build-book", "3", "--analyze"], "--analyze does not go with --build-book"),
    (["--build-book", "3", "--weak"], "--weak does not go with --build-book"),
    (["--build-book", "3", "--out", "."], "is a folder"),
    (["--out", "x.json"], "--out goes with --build-book"),
    (["--jobs", "2"], "--jobs goes with --build-book"),
])
def test_the_solve_command_reports_a_bad_build_request_on_one_line(options, problem):
    result = CliRunner().invoke(cli.app, ["solve", "connect4", *options])
    assert result.exit_code == 2 and problem in result.output
    assert result.output.startswith("error: ") and result.output.count("\n") == 1


def test_an_interrupted_build_says_where_its_work_is_kept(tmp_path, monkeypatch):
    def interrupted(depth, out, log, jobs):
        log("1/121 111 2")
        raise KeyboardInterrupt

    monkeypatch.setattr(c4book, "build", interrupted)
    result = CliRunner().invoke(cli.app, ["solve", "connect4", "--build-book", "3",
                                          "--out", str(tmp_path / "b.json")])
    assert result.exit_code == 130 and result.stdout == "1/121 111 2\n"
    assert result.stderr == (f"interrupted: the positions solved are kept in "
                             f"{tmp_path / 'b.json'}.partial; the same command goes on "
                             "from there\n")
