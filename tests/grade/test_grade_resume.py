"""`grade run` stopped and run again: killed with SIGKILL, it replays no finished unit
and ends with the grades of an uninterrupted run; Ctrl-C keeps what finished and
prints the command that resumes; the journal refuses another run's folder and
survives a line cut short."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from plyground.core.errors import PlygroundError
from plyground.core.grade.journal import Journal

PLYGROUND = str(Path(sys.executable).with_name("plyground"))
WAIT = 120  # seconds: a hang guard on a loaded machine, never a speed claim

BOT = '''import time
from plyground.core.agents.bot import Bot


class MyBot(Bot):
    """Plays the {which} legal move, a little slowly, and counts one node."""

    def decide(self, state, budget):
        time.sleep(0.01)
        self.report(nodes=1)
        return state.moves()[{index}]
'''

SPEC = '''title = "resume"
game = "connect4"
time = 2.0
mem = "512M"
agent = "bot.py:MyBot"

[[check]]
name = "legal"
kind = "legal"
points = 10
games = 4
against = ["random", "greedy"]
openings = "balanced"

[[check]]
name = "beats-random"
kind = "strength"
points = 10
against = ["random"]
sprt = {elo0 = 0, elo1 = 200}

[[check]]
name = "ladder"
kind = "ladder"
points = 5
format = "round-robin"
games = 2
'''


def make_class(folder: Path) -> tuple[Path, Path]:
    (folder / "spec.toml").write_text(SPEC)
    for name, which, index in (("first", "first", 0), ("last", "last", -1),
                               ("middle", "middle", "len(state.moves()) // 2")):
        (folder / "subs" / name).mkdir(parents=True)
        (folder / "subs" / name / "bot.py").write_text(BOT.format(which=which,
                                                                   index=index))
    return folder / "spec.toml", folder / "subs"


def grade(spec: Path, subs: Path, out: Path, *pool: str, **popen) -> subprocess.Popen:
    return subprocess.Popen([PLYGROUND, "grade", "run", str(spec), str(subs), "--out",
                             str(out), *(pool or ("--jobs", "2"))],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            **popen)


def finish(process: subprocess.Popen) -> tuple[str, str]:
    out, err = process.communicate(timeout=WAIT * 3)
    assert process.returncode == 0, err
    return out, err


def journal_keys(out: Path) -> list[str]:
    lines = (out / "journal.jsonl").read_text().splitlines()
    return [json.loads(line)["key"] for line in lines[1:] if line.strip()]


def wait_for_units(out: Path, count: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + WAIT
    while True:
        path = out / "journal.jsonl"
        if path.exists() and len(path.read_text().splitlines()) > count:
            return
        assert process.poll() is None, "the run ended before it could be stopped"
        assert time.monotonic() < deadline, "the run did not get going"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """The class graded without a stop: its grades.json and units."""
    folder = tmp_path_factory.mktemp("whole")
    spec, subs = make_class(folder)
    finish(grade(spec, subs, folder / "out"))
    return spec, subs, (folder / "out" / "grades.json").read_text(), \
        journal_keys(folder / "out")


def test_sigkill_then_rerun_replays_nothing_and_grades_the_same(whole, tmp_path):
    spec, subs, expected, units = whole
    out = tmp_path / "out"
    process = grade(spec, subs, out, start_new_session=True)
    wait_for_units(out, 10, process)
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=WAIT)
    kept = journal_keys(out)
    assert 10 <= len(kept) < len(units), "the kill did not land mid-run"
    assert not (out / "grades.json").exists()
    finish(grade(spec, subs, out))
    keys = journal_keys(out)
    assert len(keys) == len(set(keys)), "a finished unit was played again"
    assert keys[:len(kept)] == kept
    # the same units as the uninterrupted run, but for the SPRT's: how many games it
    # had in play past its verdict (played, not counted) depends on the timing
    sprt = "game/beats-random/"
    assert {key for key in keys if not key.startswith(sprt)} == \
        {key for key in units if not key.startswith(sprt)}
    assert (out / "grades.json").read_text() == expected


def test_ctrl_c_keeps_finished_units_and_prints_the_resume_command(whole, tmp_path):
    spec, subs, expected, units = whole
    out = tmp_path / "out"
    process = grade(spec, subs, out, start_new_session=True)
    wait_for_units(out, 10, process)
    os.killpg(process.pid, signal.SIGINT)  # as the terminal sends it: to the group
    _, err = process.communicate(timeout=WAIT)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    resume = err.strip().splitlines()[-1].strip()
    assert resume.startswith("plyground grade run ") and str(out) in resume
    kept = journal_keys(out)
    assert 10 <= len(kept) < len(units)
    finish(grade(spec, subs, out))
    keys = journal_keys(out)
    assert len(keys) == len(set(keys))
    assert (out / "grades.json").read_text() == expected


def test_a_finished_run_run_again_plays_nothing(whole, tmp_path):
    spec, subs, expected, units = whole
    out = tmp_path / "out"
    finish(grade(spec, subs, out))
    before = (out / "journal.jsonl").read_text()
    finish(grade(spec, subs, out))
    assert (out / "journal.jsonl").read_text() == before
    assert (out / "grades.json").read_text() == expected


def test_another_runs_folder_is_refused(whole, tmp_path):
    spec, subs, _, _ = whole
    out = tmp_path / "out"
    Journal(out, "one run").close()
    process = grade(spec, subs, out)
    _, err = process.communicate(timeout=WAIT)
    assert process.returncode == 2
    assert err.startswith("error: ") and "another --out folder" in err
    assert len(err.strip().splitlines()) == 1


def test_a_line_cut_short_by_a_kill_is_dropped(tmp_path):
    journal = Journal(tmp_path, "run")
    journal.add("a", 1)
    journal.add("b", [1, 2])
    journal.close()
    with open(tmp_path / "journal.jsonl", "a") as file:
        file.write('{"key":"c","res')
    again = Journal(tmp_path, "run")
    assert again.done == {"a": 1, "b": [1, 2]}
    again.add("c", 3)
    again.close()
    assert Journal(tmp_path, "run").done == {"a": 1, "b": [1, 2], "c": 3}


def test_a_damaged_line_inside_the_journal_is_an_error(tmp_path):
    journal = Journal(tmp_path, "run")
    journal.add("a", 1)
    journal.close()
    with open(tmp_path / "journal.jsonl", "a") as file:
        file.write("not json\n")
        file.write('{"key":"b","result":2}\n')
    with pytest.raises(PlygroundError, match="journal.jsonl:3"):
        Journal(tmp_path, "run")


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def test_a_lost_worker_stops_the_run_in_one_line_and_the_rerun_resumes(whole, tmp_path):
    spec, subs, expected, units = whole
    out = tmp_path / "out"
    process = grade(spec, subs, out)
    wait_for_units(out, 10, process)
    workers = [pid for pid in children(process.pid)
               if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    assert workers
    os.kill(workers[0], signal.SIGKILL)
    _, err = process.communicate(timeout=WAIT)
    assert process.returncode == 2, err  # (10 of some 240 units: far from its end)
    assert err.strip().splitlines()[-1].startswith("error: the grading run stopped")
    assert "Traceback" not in err
    finish(grade(spec, subs, out))
    keys = journal_keys(out)
    assert len(keys) == len(set(keys))
    assert (out / "grades.json").read_text() == expected


def test_two_runs_in_one_folder_at_once_are_refused(tmp_path):
    first = Journal(tmp_path, "run")
    try:
        with pytest.raises(PlygroundError, match="another grading run is using"):
            Journal(tmp_path, "run")
    finally:
        first.close()
    Journal(tmp_path, "run").close()  # once the first has ended
