"""`plyground grade label`: positions labelled by Connect 4's solver or by a search
with a fixed budget, the same bytes each time; a clock budget, an unknown game, a
missing file or a bad position refused in one line."""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from plyground.core.game import get_game
from plyground.core.grade.positions import read_positions
from plyground.tui import cli

from .test_bounds import one_error_line

POSITIONS = {
    "quarto": ["0.81/..../..../.... b", "1.92/.c.7/..../.... 5"],
    "boom": ["1111", "222222", "33333335"],
}
TIED = {"quarto": [1, 3], "boom": [7, 7, 6]}  # the best moves depth 2 cannot separate


def label(*args: str):
    return CliRunner().invoke(cli.app, ["grade", "label", *args])


def unlabelled(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "in.txt"
    path.write_text("# positions to label\n" + "\n".join(lines) + "\n")
    return path


def test_connect4_is_labelled_by_the_solver_with_progress_and_its_command(tmp_path):
    source = unlabelled(tmp_path, ["251", "2541266355551"])
    out = tmp_path / "out.txt"
    result = label("connect4", str(source), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "position 1 of 2" in result.stderr and "position 2 of 2" in result.stderr
    read = read_positions(out, get_game("connect4"))
    assert read.header["labeller"] == "solver"
    assert read.header["command"] == (f"plyground grade label connect4 {source} "
                                      f"--out {out}")
    # the published scores (Test_L1_R3, Test_L1_R2): 4, and -3 by columns 3 and 4 both
    assert [(sorted(e.best), max(dict(e.values).values())) for e in read.positions] \
        == [([3], 4), ([2, 3], -3)]
    again = label("connect4", str(source), "--out", str(out))
    assert again.exit_code == 2 and "already exists (--force replaces it)" in again.output


@pytest.mark.parametrize("game", ["quarto", "boom"])
def test_a_search_labels_the_same_bytes_twice_with_its_budget_in_the_header(tmp_path,
                                                                            game):
    source = unlabelled(tmp_path, POSITIONS[game])
    out = tmp_path / "out.txt"
    made = []
    for _ in range(2):
        result = label(game, str(source), "--agent", "alphabeta:depth=2", "--out",
                       str(out), "--force")
        assert result.exit_code == 0, result.output
        made.append(out.read_bytes())
    assert made[0] == made[1]
    read = read_positions(out, get_game(game))
    assert read.header["budget"] == "depth=2"
    assert len(read.positions) == len(POSITIONS[game])
    # every move valued, and every move that ties for the best value among the best
    for entry in read.positions:
        assert len(entry.values) == len(entry.state.moves())
    assert [len(entry.best) for entry in read.positions] == TIED[game]


@pytest.mark.parametrize("agent, said", [
    ("alphabeta:time=1", "labels must be reproducible, so the reference search is "
                         "bounded by nodes= or depth=, never by time="),
    ("alphabeta:depth=2,time=1", "never by time="),
    ("alphabeta", "give the reference search a nodes= or depth= budget"),
    ("mcts:iterations=100", "cannot label positions"),
    ("bot.py:Bot", "cannot label positions"),
])
def test_a_reference_not_bounded_by_nodes_or_depth_is_refused(tmp_path, monkeypatch,
                                                               agent, said):
    monkeypatch.chdir(tmp_path)
    source = unlabelled(tmp_path, POSITIONS["boom"])
    # a bot file that would say so if it were imported
    (tmp_path / "bot.py").write_text("raise SystemExit('imported')\n")
    line = one_error_line("grade", "label", "boom", str(source), "--agent", agent,
                          "--out", str(tmp_path / "out.txt"))
    assert said in line
    assert not (tmp_path / "out.txt").exists()


def test_bad_input_is_one_line(tmp_path):
    out = str(tmp_path / "out.txt")
    assert "unknown game 'nogame'" in one_error_line("grade", "label", "nogame", "x",
                                                     "--out", out)
    missing = str(tmp_path / "missing.txt")
    assert "cannot read" in one_error_line("grade", "label", "connect4", missing,
                                           "--out", out)
    source = unlabelled(tmp_path, ["44", "4x4"])
    assert f"{source}:3: not a Connect 4 position" in one_error_line(
        "grade", "label", "connect4", str(source), "--out", out)
    assert "has no exact solver" in one_error_line("grade", "label", "quarto",
                                                   str(source), "--out", out)
