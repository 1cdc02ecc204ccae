"""`plyground sprt GAME A B` played for real: its JSON and text are what run_sprt
gives on the same plan, its progress shows each counted pair, every game goes to the
history with its run as it ends, a run stopped by Ctrl-C or killed outright resumes
to the uninterrupted result, and bad input is one line."""
from __future__ import annotations

import io
import json
import re
import signal
import subprocess
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from plyground.core import get_game
from plyground.core.catalogue import parse_agent
from plyground.core.play.arena import (GameEnded, PairCounted, SprtPlan, run_sprt,
                                       sprt_jobs)
from plyground.core.play.openings import load_suite
from plyground.core.play.sprt import PAIR_CLASSES, SPRT
from plyground.core.play.tournament import match_game
from plyground.core.records.history import History
from plyground.core.records.runs import load_run, run_results, start_run
from plyground.tui import cli
from plyground.tui.cli import sprt
from plyground.tui.exit_codes import INTERRUPTED, USAGE_ERROR
from plyground.tui.sprt_text import llr_texts
from tests.cli.test_resume import plyground, stopped
from tests.core.test_arena import inline_pool

CONNECT4 = get_game("connect4")
# decides H1 in a few seconds: alphabeta wins every game
QUICK = ("alphabeta:depth=2", "random", "--elo1", "50", "--seed", "1", "--openings",
         "none", "--jobs", "2")
# deterministic and slow enough (about half a second a game) to be stopped mid-run
SLOW = ["sprt", "connect4", "alphabeta:depth=7", "mcts:iterations=20000", "--elo1", "50",
        "--max-pairs", "2", "--seed", "2", "--openings", "none", "--jobs", "1"]
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PAIR_LINE = re.compile(r"\[pair (\d+), \d+ s\] (\S+) · LLR (-?\d+\.\d\d\d?) ")


def core_run(a: str, b: str, test: SPRT, seed: int, max_pairs: int = 10_000,
             openings=None) -> list[GameEnded | PairCounted]:
    """The test's events as run_sprt gives them, played here."""
    players = (parse_agent(a), parse_agent(b))
    return list(run_sprt(CONNECT4, players, test, seed, inline_pool(), max_pairs,
                         openings))


def counted(events) -> list[PairCounted]:
    return [event for event in events if isinstance(event, PairCounted)]


def invoke(home: Path, *args: str):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PLYGROUND_HOME", str(home))
        return CliRunner().invoke(cli.app, list(args))


@pytest.fixture(scope="module")
def quick(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """The quick test run for real, in a pipe, with a history of its own."""
    home = tmp_path_factory.mktemp("quick")
    done = plyground(home, "sprt", "connect4", *QUICK, "--json")
    assert done.returncode == 0, done.stderr
    return home, done


def test_the_json_is_run_sprts_on_the_same_plan(quick):
    _, done = quick
    found = json.loads(done.stdout)
    test = SPRT(elo0=0, elo1=50)
    status = counted(core_run("alphabeta:depth=2", "random", test, 1))[-1].status
    assert status.result == "H1"
    expected = status.to_json()
    assert {key: found[key] for key in expected} == expected
    plan = SprtPlan(CONNECT4, ("alphabeta:depth=2", "random"), (), test, 1, 10_000,
                    None, "none")
    assert {key: found[key] for key in ("agents", "seed", "openings", "command",
                                        "run")} == {
        "agents": ["alphabeta:depth=2", "random"], "seed": 1, "openings": "none",
        "command": plan.command, "run": 1}
    for key in ("result", "llr", "lower_bound", "upper_bound", "pentanomial", "pairs",
                "elo", "elo_95", "los"):
        assert key in found


def test_in_a_pipe_a_line_per_counted_pair_in_order(quick):
    _, done = quick
    start, *progress, last = done.stderr.splitlines()
    assert start.startswith("playing game pairs on ")  # as the games start
    assert last == "run 1"
    pairs = counted(core_run("alphabeta:depth=2", "random", SPRT(elo0=0, elo1=50), 1))
    shown = [PAIR_LINE.match(line).groups() for line in progress]
    assert shown == [(str(number), PAIR_CLASSES[event.pair.kind],
                      llr_texts(event.status)[0]) for number, event in enumerate(pairs, 1)]
    assert float(shown[-1][2]) == round(json.loads(done.stdout)["llr"], len(shown[-1][2])
                                        - shown[-1][2].index(".") - 1)


def test_every_game_is_in_the_history_with_its_run(quick):
    home, done = quick
    jobs = sprt_jobs((parse_agent("alphabeta:depth=2"), parse_agent("random")), 1,
                     10_000)
    with History(home / "history.sqlite3") as history:
        assert load_run(history, 1, "sprt").state == "finished"
        stored = run_results(history, 1)
        games = history.list()
        runs = sorted(history.get(game.id).headers["Run"] for game in games)
    pairs = json.loads(done.stdout)["pairs"]
    assert {f"0:{number}" for number in range(1, 2 * pairs + 1)} <= set(stored)
    assert stored == {job.key: match_game(CONNECT4.spec, job.players, job.number,
                                          job.seed, job.opening)
                      for job in jobs if job.key in stored}  # the test's games
    assert {game.source for game in games} == {"sprt"}
    assert runs == sorted(f"1 {key}" for key in stored)  # each game once


def test_max_pairs_reached_is_no_decision_and_no_history_keeps_none(tmp_path):
    args = ("connect4", "random", "random", "--seed", "4", "--max-pairs", "3",
            "--openings", "none", "--jobs", "1", "--no-history")
    found = json.loads(invoke(tmp_path, "sprt", *args, "--json").stdout)
    status = counted(core_run("random", "random", SPRT(), 4, 3))[-1].status
    assert status.result is None and found == {**found, **status.to_json()}
    assert (found["result"], found["pairs"], found["run"]) == ("none", 3, None)
    text = invoke(tmp_path, "sprt", *args)
    assert text.exit_code == 0, text.output
    assert "stopped at --max-pairs 3: no decision" in text.stdout.splitlines()
    assert "no decision yet: LLR" in text.stdout
    assert not (tmp_path / "history.sqlite3").exists()


def test_the_default_openings_are_the_games_shipped_suite(tmp_path):
    boom = get_game("boom")
    suite = load_suite(boom, "balanced")
    done = invoke(tmp_path, "sprt", "boom", "random", "greedy", "--max-pairs", "1",
                  "--seed", "3", "--jobs", "1", "--json")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["openings"] == "balanced"
    assert json.loads(done.stdout)["command"].endswith("--openings balanced")
    with History(tmp_path / "history.sqlite3") as history:
        records = [history.get(game.id) for game in history.list()]
    opening = boom.parse_line(boom.start(), suite.opening(0))
    assert len(records) == 2
    assert all(record.moves[:len(opening)] == opening for record in records)


def test_a_game_with_no_shipped_suite_plays_from_the_start(tmp_path):
    done = invoke(tmp_path, "sprt", "tictactoe", "random", "greedy", "--max-pairs", "1",
                  "--seed", "3", "--jobs", "1", "--json", "--no-history")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["openings"] == "none"


@pytest.mark.parametrize("args, message", [
    (("connect4", "nosuch", "random"), "unknown agent 'nosuch'"),
    (("connect4", "seed", "random"), "cannot play Connect 4"),
    (("connect4", "random", "greedy", "--elo0", "5", "--elo1", "5"),
     "elo0 must be below elo1"),
    (("connect4", "random", "greedy", "--elo0", "6", "--elo1", "5"),
     "elo0 must be below elo1"),
    (("boom", "random", "greedy", "--openings", "nosuch"), "no opening suite 'nosuch'"),
    (("connect4", "random", "greedy", "--openings", "SUITE"), "SUITE line 3: '4x'"),
    (("connect4", "random"), "sprt needs GAME A B"),
])
def test_bad_input_is_one_line_and_exit_code_2(tmp_path, args, message):
    suite = tmp_path / "suite.txt"
    suite.write_text("# game: connect4\n44\n4x\n")
    result = invoke(tmp_path, "sprt", *(str(suite) if arg == "SUITE" else arg
                                        for arg in args))
    assert result.exit_code == USAGE_ERROR, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert message.replace("SUITE", str(suite)) in lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args, message", [
    (("--max-pairs", "30"), "--max-pairs 30 differs from run 1's (2): leave it out"),
    (("--elo1", "30"), "--elo1 30 differs from run 1's (50)"),
    (("connect4", "random", "greedy"), "A B random greedy differs from run 1's "
                                       "(alphabeta:depth=7 mcts:iterations=20000)"),
    (("--no-history",), "--resume needs the game history"),
])
def test_a_resume_that_does_not_fit_is_one_line(tmp_path, args, message):
    with History(tmp_path / "history.sqlite3") as history:
        start_run(history, "sprt", "connect4", {
            "players": ["alphabeta:depth=7", "mcts:iterations=20000"], "elo0": 0.0,
            "elo1": 50.0, "alpha": 0.05, "beta": 0.05, "model": "logistic",
            "max_pairs": 2, "seed": 2, "openings": "none"}, "plyground sprt ...")
        start_run(history, "match", "connect4", {}, "plyground match ...")
    for resume, said in (("1", message), ("2", "run 2 is a match, not an SPRT: resume "
                                                "it with plyground match --resume 2")):
        result = invoke(tmp_path, "sprt", "--resume", resume,
                        *(args if resume == "1" else ()))
        assert result.exit_code == USAGE_ERROR, result.output
        assert result.stderr.startswith(f"error: {said}")
        assert len(result.stderr.splitlines()) == 1


@pytest.fixture(scope="module")
def straight(tmp_path_factory) -> dict:
    """The slow test's JSON, played without a stop."""
    done = invoke(tmp_path_factory.mktemp("straight"), *SLOW, "--json")
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def resumed(home: Path, straight: dict) -> None:
    """Run 1 in `home` resumed ends as the uninterrupted test, each game kept once."""
    done = invoke(home, "sprt", "--resume", "1", "--json")
    assert done.exit_code == 0, done.output
    assert done.stderr.splitlines()[-1] == "run 1"
    found = json.loads(done.stdout)
    assert {**found, "run": None} == {**straight, "run": None}
    with History(home / "history.sqlite3") as history:
        assert load_run(history, 1, "sprt").state == "finished"
        keys = [row[0] for row in history.db.execute("SELECT key FROM run_games")]
        runs = [history.get(game.id).headers["Run"] for game in history.list()]
    assert len(set(keys)) == len(keys) >= 2 * straight["pairs"]
    assert sorted(runs) == sorted(f"1 {key}" for key in keys)


def test_ctrl_c_then_resume_gives_the_uninterrupted_result(straight, tmp_path):
    code, stdout, stderr = stopped(tmp_path, signal.SIGINT, SLOW)
    assert code == INTERRUPTED, stderr
    assert "Traceback" not in stderr
    pairs = json.loads(stdout)["pairs"]
    assert pairs < straight["pairs"] or json.loads(stdout)["result"] == "none"
    assert stderr.splitlines()[-1] == (f"interrupted after {pairs} pairs counted; "
                                       "resume with: plyground sprt --resume 1")
    with History(tmp_path / "history.sqlite3") as history:
        assert load_run(history, 1, "sprt").state == "interrupted"
    resumed(tmp_path, straight)


def test_a_crash_then_resume_gives_the_uninterrupted_result(straight, tmp_path):
    code, _, _ = stopped(tmp_path, signal.SIGKILL, SLOW)
    assert code == -signal.SIGKILL
    with History(tmp_path / "history.sqlite3") as history:
        assert load_run(history, 1, "sprt").state == "running"  # it never said
        assert history.count() == len(run_results(history, 1))  # none half stored
    resumed(tmp_path, straight)


def test_on_a_terminal_a_live_line_within_80_columns(tmp_path, monkeypatch):
    """stderr a terminal 80 columns wide: one line, rewritten as pairs are counted,
    never a line per pair; the report on stdout is the same."""
    screen = io.StringIO()
    monkeypatch.setattr(sprt, "Console", lambda **options: Console(
        file=screen, force_terminal=True, width=80, highlight=False))
    done = invoke(tmp_path, "sprt", "connect4", *QUICK, "--max-pairs", "5",
                  "--no-history")
    assert done.exit_code == 0, done.output
    shown = ESCAPES.sub("", screen.getvalue()).replace("\r", "\n")
    live = [line for line in shown.splitlines() if line.strip()]
    assert live and all(re.match(r"(pair \d+ · LLR |no pair counted yet)", line)
                        for line in live), live
    assert max(map(len, live)) <= 80
    last_llr = re.match(r"pair \d+ · LLR (-?\d+\.\d\d) ", live[-1])[1]
    assert f"LLR      {last_llr}," in done.stdout
    assert "[pair" not in done.stderr
