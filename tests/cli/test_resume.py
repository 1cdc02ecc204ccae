"""`--resume`: a match stopped by Ctrl-C or killed outright goes on from the games its
run kept, and its report is the one an uninterrupted match of the same seed gives,
each game counted once. The match runs for real, as the leader of a session of its
own, and is stopped once the history holds some of its games."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plyground.core.records.history import History
from plyground.core.records.runs import load_run, run_results, start_run
from plyground.tui import cli
from plyground.tui.cli import runs
from tests.processes import as_from_a_terminal, in_session, still_running

GAMES = 8
# deterministic agents, slow enough (a few tenths of a second a game) to be stopped
MATCH = ["match", "connect4", "--first", "alphabeta:depth=7", "--second",
         "mcts:iterations=20000", "--games", str(GAMES), "--seed", "2", "--jobs", "1"]


def environment(home: Path) -> dict:
    return {**os.environ, "PLYGROUND_HOME": str(home), "PYTHONUNBUFFERED": "1"}


def plyground(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "plyground", *args], env=environment(home),
                          capture_output=True, text=True, timeout=300)


def kept(home: Path) -> dict:
    """The games the history's first run has kept so far, by key."""
    if not (home / "history.sqlite3").exists():
        return {}
    with History(home / "history.sqlite3") as history:
        if not history.db.execute("SELECT 1 FROM runs WHERE id = 1").fetchone():
            return {}
        return run_results(history, 1)


def stopped(home: Path, stop: signal.Signals, command: list[str] = MATCH
            ) -> tuple[int, str, str]:
    """The run of `command` (the match) started in `home` and sent `stop` (to its whole
    session, workers too) once two of its games are kept: its exit code, stdout and
    stderr."""
    process = subprocess.Popen([sys.executable, "-m", "plyground", *command, "--json"],
                               env=environment(home), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True,
                               preexec_fn=as_from_a_terminal)
    try:
        deadline = time.monotonic() + 120  # a hang guard
        while len(kept(home)) < 2:
            assert process.poll() is None, process.stderr.read()
            assert time.monotonic() < deadline, "no game was kept"
            time.sleep(0.05)
        os.killpg(process.pid, stop)
        stdout, stderr = process.communicate(timeout=120)
        assert still_running(in_session(process.pid)) == []
        return process.returncode, stdout, stderr
    finally:
        for pid in in_session(process.pid):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def straight(tmp_path_factory) -> tuple[Path, str]:
    """An uninterrupted match of the same seed: its history's folder and its JSON."""
    home = tmp_path_factory.mktemp("straight")
    done = plyground(home, *MATCH, "--json")
    assert done.returncode == 0, done.stderr
    return home, done.stdout


def text_of(home: Path) -> str:
    """The text report of run 1 in `home`, a finished one (nothing is played)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PLYGROUND_HOME", str(home))
        result = CliRunner().invoke(cli.app, ["match", "--resume", "1"])
    assert result.exit_code == 0, result.output
    return result.stdout


def resumed(home: Path, straight: tuple[Path, str], before: int) -> None:
    """Resume run 1 in `home`, which kept `before` games: it plays only the others, and
    its report, as JSON and as text, is the uninterrupted match's."""
    done = plyground(home, "match", "--resume", "1", "--json")
    assert done.returncode == 0, done.stderr
    start, *progress, last = done.stderr.splitlines()
    assert start.startswith(f"playing the {GAMES - before} games of {GAMES} not kept on ")
    assert last == "run 1"
    assert [int(re.match(r"\[(\d+)/", line)[1]) for line in progress] == list(
        range(before + 1, GAMES + 1))
    assert json.loads(done.stdout) == json.loads(straight[1])
    assert done.stdout == straight[1]
    assert text_of(home) == text_of(straight[0])
    with History(home / "history.sqlite3") as history:
        assert load_run(history, 1, "match").state == "finished"
        keys = [row[0] for row in history.db.execute("SELECT key FROM run_games")]
        runs = [history.get(game.id).headers["Run"] for game in history.list()]
    assert sorted(keys) == sorted(f"0:{number}" for number in range(1, GAMES + 1))
    assert sorted(runs) == sorted(f"1 {key}" for key in keys)  # each game stored once


def test_ctrl_c_then_resume_gives_the_uninterrupted_report(straight, tmp_path):
    code, stdout, stderr = stopped(tmp_path, signal.SIGINT)
    assert code == 130, stderr
    assert "Traceback" not in stderr
    before = len(kept(tmp_path))
    assert 2 <= before < GAMES
    assert stderr.splitlines()[-1] == (f"interrupted after {before} of {GAMES} games; "
                                       "resume with: plyground match --resume 1")
    assert len(json.loads(stdout)["results"]) == before  # the report of those kept
    with History(tmp_path / "history.sqlite3") as history:
        assert load_run(history, 1, "match").state == "interrupted"
    resumed(tmp_path, straight, before)


def test_a_crash_then_resume_gives_the_uninterrupted_report(straight, tmp_path):
    code, _, _ = stopped(tmp_path, signal.SIGKILL)
    assert code == -signal.SIGKILL
    before = len(kept(tmp_path))
    assert 2 <= before < GAMES
    with History(tmp_path / "history.sqlite3") as history:
        assert load_run(history, 1, "match").state == "running"  # it never said
        assert history.count() == before  # no game half stored
    resumed(tmp_path, straight, before)


@pytest.mark.parametrize("args, message", [
    (("--resume", "1", "--games", "6"), "--games 6 differs from run 1's (8): leave it "
                                        "out to resume the run"),
    (("quarto", "--resume", "1"), "run 1 plays connect4, not quarto"),
    (("--resume", "2"), "run 2 is a tournament, not a match: resume it with plyground "
                        "tournament --resume 2"),
    (("--resume", "3"), "no run 3 in the game history"),
    (("--resume", "1", "--no-history"), "--resume needs the game history"),
    (("--first", "random"), "a match needs a game and --second and --games (or "
                            "--resume RUN)"),
])
def test_a_resume_that_does_not_fit_is_one_line(tmp_path, monkeypatch, args, message):
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path))
    with History() as history:
        start_run(history, "match", "connect4", {
            "first": "random", "second": "greedy", "games": 8, "seed": 2,
            "openings": None}, "plyground match ...")
        start_run(history, "tournament", "connect4", {}, "plyground tournament ...")
    result = CliRunner().invoke(cli.app, ["match", *args])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {message}")
    assert len(result.stderr.splitlines()) == 1


def test_a_tournament_resumes_with_its_gauntlet_and_openings(tmp_path, monkeypatch):
    """Stopped after two games (Ctrl-C while the second is shown), the gauntlet on
    openings resumes from its run alone and ends as the uninterrupted one."""
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path))
    suite = tmp_path / "suite.txt"
    suite.write_text("# game: connect4\n44\n4453\n")
    args = ["tournament", "connect4", "--agents", "random", "minimax:depth=1",
            "--gauntlet", "greedy", "--games", "4", "--seed", "3", "--openings",
            str(suite), "--jobs", "2", "--json"]
    straight = CliRunner().invoke(cli.app, args)
    assert straight.exit_code == 0, straight.output
    shown = []

    def advance(progress, task):
        shown.append(task)
        if len(shown) == 2:
            raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(runs.Progress, "advance", advance)
        stopped = CliRunner().invoke(cli.app, args)
    assert stopped.exit_code == 130
    assert stopped.stderr.splitlines()[-1] == ("interrupted after 2 of 8 games; resume "
                                               "with: plyground tournament --resume 2")
    done = CliRunner().invoke(cli.app, ["tournament", "--resume", "2", "--json"])
    assert done.exit_code == 0, done.output
    assert [line.split(",")[0] for line in done.stderr.splitlines()[1:-1]] == [
        f"[{number}/8" for number in range(3, 9)]  # only the games not kept
    assert done.stdout == straight.stdout
