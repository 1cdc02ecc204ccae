"""A class whose submissions misbehave in each of the ways a review names (a crash, a
crash at import, a hang, a flood of output, a fork bomb, a memory hog, an illegal move,
a wrong engine protocol): `grade run` exits 0, grades every student, and each way costs
its own student the check, with the reason in the grades, and no one else anything.

One run of each class (bots, engines) serves all its tests."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from plyground.core.grade.runner import OUTPUT_CAP

FIXTURES = Path(__file__).parent / "fixtures"
REFERENCE_ENGINE = Path(__file__).parents[2] / "examples" / "reference_engine.py"
PLYGROUND = str(Path(sys.executable).with_name("plyground"))
WAIT = 600  # seconds: a hang guard on a loaded machine, never a speed claim
BOTS = ("ok", "crash", "start-crash", "hang", "flood", "fork", "memhog", "illegal")

SPEC = '''title = "misbehaviour"
game = "connect4"
time = 0.5
mem = "256M"
{submission}

[[check]]
name = "legal"
kind = "legal"
points = 10
games = 2
against = ["random"]
'''


class Run:
    def __init__(self, out: Path, result: subprocess.CompletedProcess) -> None:
        self.out, self.result = out, result
        self.grades = json.loads((out / "grades.json").read_text())
        self.evidence = {entry["student"]: entry for entry in self.grades["evidence"]}
        self.points = {entry["student"]: entry["checks"]["legal"]
                       for entry in self.grades["students"]}

    def legal(self, student: str) -> dict:
        return self.evidence[student]["checks"][0]

    def faults(self, student: str) -> list[str]:
        return [game["fault"] for game in self.legal(student)["games"] if game["fault"]]


def grade_class(folder: Path, submission: str, students: dict[str, Path]) -> Run:
    (folder / "spec.toml").write_text(SPEC.format(submission=submission))
    for name, source in students.items():
        shutil.copytree(source, folder / "subs" / name)
    result = subprocess.run(
        [PLYGROUND, "grade", "run", str(folder / "spec.toml"), str(folder / "subs"),
         "--out", str(folder / "out"), "--jobs", "2"],
        capture_output=True, text=True, timeout=WAIT)
    assert result.returncode == 0, result.stderr[-2000:]
    return Run(folder / "out", result)


@pytest.fixture(scope="module")
def bots(tmp_path_factory) -> Run:
    return grade_class(tmp_path_factory.mktemp("bots"), 'agent = "bot.py:MyBot"',
                       {name: FIXTURES / name for name in BOTS})


@pytest.fixture(scope="module")
def engines(tmp_path_factory) -> Run:
    folder = tmp_path_factory.mktemp("engines")
    good = folder / "good"
    good.mkdir()
    shutil.copy(REFERENCE_ENGINE, good / "engine.py")
    return grade_class(folder, f'engine = "{sys.executable} engine.py"',
                       {"good": good, "protocol": FIXTURES / "protocol"})


def test_every_student_is_graded_and_the_well_behaved_one_loses_nothing(bots):
    assert [entry["student"] for entry in bots.grades["students"]] == sorted(BOTS)
    assert bots.points["ok"] == 10
    assert bots.faults("ok") == []
    assert "Traceback" not in bots.result.stderr


@pytest.mark.parametrize("student", [name for name in BOTS if name != "ok"])
def test_each_misbehaving_bot_loses_the_check(bots, student):
    assert bots.points[student] == 0
    summary = bots.legal(student)["summary"]
    assert summary.startswith("not run: its agent did not start") or \
        summary.startswith("2 of 2 games lost by a fault"), summary


def test_a_crash_is_named(bots):
    assert all("raised" in fault for fault in bots.faults("crash"))


def test_a_submission_that_fails_to_start_is_started_once_and_marked(bots):
    assert bots.evidence["start-crash"]["start_fault"]
    keys = [json.loads(line)["key"] for line in
            (bots.out / "journal.jsonl").read_text().splitlines()[1:]]
    assert [key for key in keys if "start-crash" in key] == ["start/start-crash"]


def test_a_hang_is_lost_on_time(bots):
    assert all("did not answer" in fault or "took" in fault
               for fault in bots.faults("hang")), bots.faults("hang")


def test_a_flood_is_kept_out_of_the_run_and_capped(bots):
    assert all("output limit" in fault for fault in bots.faults("flood")), \
        bots.faults("flood")
    assert len(bots.result.stderr) < 100_000  # the run's own lines, no flood
    assert "flood flood" not in bots.result.stdout
    log = bots.out / "logs" / "flood.log"
    assert 0 < log.stat().st_size <= OUTPUT_CAP
    report = (bots.out / "students" / "flood.html").read_text()
    assert len(report) < 1_000_000


def test_a_fork_bomb_is_lost_and_its_processes_ended(bots):
    # (the suite's conftest fails any test that leaves a process it started)
    assert len(bots.faults("fork")) == 2


def test_a_memory_hog_is_lost_naming_the_limit(bots):
    assert all("memory limit" in fault for fault in bots.faults("memhog")), \
        bots.faults("memhog")


def test_an_illegal_move_is_named(bots):
    assert all("not a legal move" in fault for fault in bots.faults("illegal")), \
        bots.faults("illegal")


def test_an_engine_with_a_wrong_protocol_loses_and_a_good_one_does_not(engines):
    assert engines.points == {"good": 10, "protocol": 0}
    legal = engines.legal("protocol")
    assert legal["summary"].startswith(("not run", "2 of 2 games lost by a fault")), \
        legal["summary"]
