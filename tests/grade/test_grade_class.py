"""The example class (examples/class/minimax.toml and its six submissions) graded as a
teacher grades it, and its public part run by a student, as the README's walkthrough
does: each submission loses what it was written to lose, and nothing else."""
from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from plyground.core.grade.spec import load_spec

EXAMPLE = Path(__file__).parents[2] / "examples" / "class"
PLYGROUND = str(Path(sys.executable).with_name("plyground"))
WAIT = 900  # seconds: a hang guard on a loaded machine, never a speed claim


def plyground(*words: str) -> subprocess.CompletedProcess:
    result = subprocess.run([PLYGROUND, *map(str, words)], capture_output=True,
                            text=True, timeout=WAIT)
    assert result.returncode == 0, result.stderr[-3000:]
    return result


def student(name: str) -> str:
    (found,) = [path.name for path in (EXAMPLE / "submissions").iterdir()
                if path.name.split("-")[0] == name]
    return found


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    out = tmp_path_factory.mktemp("class") / "grades"
    result = plyground("grade", "run", EXAMPLE / "minimax.toml", EXAMPLE / "submissions",
                       "--out", out, "--jobs", "2")
    grades = json.loads((out / "grades.json").read_text())
    evidence = {entry["student"]: {check["check"]: check for check in entry["checks"]}
                for entry in grades["evidence"]}
    return out, result, grades, evidence


def points(graded, name: str, check: str) -> float:
    return graded[3][student(name)][check]["points"]


def test_every_student_gets_a_row_in_each_file(graded):
    out, result, grades, _ = graded
    names = sorted(path.name for path in (EXAMPLE / "submissions").iterdir())
    assert [entry["student"] for entry in grades["students"]] == names
    rows = list(csv.reader((out / "grades.csv").open()))
    assert [row[0] for row in rows[1:]] == names
    spec = load_spec(EXAMPLE / "minimax.toml")
    assert rows[0] == ["student", *(check.name for check in spec.checks), "total"]
    for entry, row in zip(grades["students"], rows[1:]):
        assert float(row[-1]) == pytest.approx(entry["total"])
        assert entry["total"] == pytest.approx(sum(entry["checks"].values()))
    assert (out / "report.html").is_file()
    for name in names:
        assert name in result.stdout
    assert max(map(len, result.stdout.splitlines())) <= 80  # a pipe's 80 columns


def test_the_illegal_the_slow_and_the_crashing_lose_the_legal_check(graded):
    full = load_spec(EXAMPLE / "minimax.toml").checks[0].points
    for name, words in (("dave", "not a legal move"), ("erin", "budget"),
                        ("carol", "raised")):
        check = graded[3][student(name)]["legal"]
        assert check["points"] == 0, name
        faults = [game["fault"] for game in check["games"] if game["fault"]]
        assert faults and all(words in fault for fault in faults), (name, faults)
    for name in ("alice", "bob", "frank"):
        assert points(graded, name, "legal") == full


def test_only_the_wrong_counter_misses_the_node_counts(graded):
    full = next(check.points for check in load_spec(EXAMPLE / "minimax.toml").checks
                if check.kind == "nodes")
    check = graded[3][student("frank")]["nodes"]
    assert check["points"] == 0
    assert all(search["nodes"] != search["expected_nodes"] for search in check["searches"])
    for name in ("alice", "bob", "carol", "dave", "erin"):
        assert points(graded, name, "nodes") == full, name


def test_the_strong_one_beats_greedy_and_tops_the_ladder(graded):
    evidence = graded[3]
    strong = evidence[student("bob")]
    assert strong["beats-greedy"]["verdict"] == "H1"
    assert strong["ladder"]["ladder"]["rank"] == 1
    assert strong["positions"]["points"] >= evidence[student("alice")]["positions"]["points"]
    for name in ("carol", "dave", "erin"):
        assert evidence[student(name)]["beats-greedy"]["verdict"] == "H0", name


def test_positions_points_are_the_share_of_best_moves(graded):
    full = next(check.points for check in load_spec(EXAMPLE / "minimax.toml").checks
                if check.kind == "positions")
    for checks in graded[3].values():
        searches = checks["positions"]["searches"]
        best = sum(search["move"] in search["best"] for search in searches)
        assert checks["positions"]["points"] == round(full * best / len(searches), 2)


def test_dry_run_counts_the_class_work(tmp_path):
    spec = load_spec(EXAMPLE / "minimax.toml")
    students = len(list((EXAMPLE / "submissions").iterdir()))
    legal = next(check for check in spec.checks if check.kind == "legal")
    result = plyground("grade", "run", EXAMPLE / "minimax.toml", EXAMPLE / "submissions",
                       "--out", tmp_path / "out", "--dry-run", "--jobs", "2")
    games = students * legal.fields["games"] * len(legal.fields["against"])
    assert f"legal (legal): {games:,} games" in result.stdout
    assert f"{students} students on 2 workers" in result.stdout
    assert not (tmp_path / "out").exists()


def test_a_student_runs_the_public_checks_on_their_own_bot(tmp_path):
    handed = tmp_path / "handed"
    handed.mkdir()
    for name in ("nodes.txt", "positions.txt"):
        shutil.copy(EXAMPLE / name, handed)
    plyground("grade", "check", EXAMPLE / "minimax.toml", "--public-out",
              handed / "public.toml")
    mine = tmp_path / "mybot"
    shutil.copytree(EXAMPLE / "submissions" / student("alice"), mine)
    out = tmp_path / "mine"
    result = plyground("grade", "student", handed / "public.toml",
                       f"{mine / 'bot.py'}:MyBot", "--out", out)
    grades = json.loads((out / "grades.json").read_text())
    public = [check.name for check in load_spec(EXAMPLE / "minimax.toml").public]
    (entry,) = grades["students"]
    assert entry["student"] == "mybot"
    assert list(entry["checks"]) == public
    assert entry["total"] == pytest.approx(sum(check.points for check in
                                               load_spec(handed / "public.toml").checks))
    assert (out / "report.html").is_file()
    assert "mybot" in result.stdout


def test_every_game_in_the_report_replays_from_its_file(graded):
    from plyground.core.records.record import load_record

    out = graded[0]
    pages = list((out / "students").glob("*.html"))
    assert len(pages) == len(graded[2]["students"])
    for page in pages:
        assert "no replay" not in page.read_text(), page.name
    files = list((out / "games").glob("*.txt"))
    assert files
    for file in files:
        record = load_record(file)
        assert record.moves
