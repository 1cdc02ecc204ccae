"""The box holds an agent's whole process tree: where a cgroup can be made, the tree's
memory is bounded as a whole (an engine's four helpers cannot take four times its
limit), and wherever it runs, a helper that left the agent's session and process tree
(setsid, then a second fork) is ended with the agent, on the cgroup path and on the
fallback (a subreaper) alike. Each case is a real misbehaving agent: the engines of
tests/fakes, the bots of tests/plugins/bots."""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from plyground.core import get_game
from plyground.core.agents.tree_box import TreeBox
from plyground.core.catalogue import make_agent, parse_agent
from plyground.core.errors import AgentFault
from plyground.core.play.tournament import match_game
from tests.processes import still_running

ROOT = Path(__file__).resolve().parents[2]
FAKES = ROOT / "tests" / "fakes"
BOTS = ROOT / "tests" / "plugins" / "bots"
C4 = get_game("connect4")
WAIT_SECONDS = 30  # the most a killed process may take to go, on a busy machine
LIMIT = 300 << 20
# the cgroup where the system gives one, and the fallback forced
PATHS = [pytest.param({}, id="cgroup"),
         pytest.param({"PLYGROUND_NO_CGROUP": "1"}, id="fallback")]


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path))
    return tmp_path


def command(fake: str, *args: str) -> str:
    return shlex.join([sys.executable, str(FAKES / f"engine_{fake}.py"), *args])


def pids(path: Path) -> list[int]:
    """Every pid the fake wrote, on every line."""
    return [int(word) for word in path.read_text().split()]


def proportional_memory(pid: int) -> int:
    """The bytes of memory process `pid` takes, pages it shares counted in part (Pss),
    so that the sum over a tree is what the tree takes; 0 once it has gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) << 10
    except OSError:
        pass
    return 0


def start_runaway(written: Path, preexec) -> subprocess.Popen:
    """The runaway engine, started with `preexec`, once its helper has left."""
    runaway = subprocess.Popen(
        [sys.executable, str(FAKES / "engine_runaway.py"), str(written), "4"],
        stdin=subprocess.PIPE, preexec_fn=preexec, start_new_session=True)
    try:
        while not (written.exists() and len(pids(written)) == 2):
            assert runaway.poll() is None
            time.sleep(0.01)
    except BaseException:
        runaway.kill()
        runaway.wait()
        raise
    return runaway


def tree_box_or_skip() -> None:
    """Skip, with the fallback's own line as the reason, where no cgroup can be made:
    the tree is then bounded per process only, as that line says."""
    box = TreeBox.make("probe", LIMIT)
    box.end()
    if not box.bounded:
        pytest.skip(box.note)


# --- memory ----------------------------------------------------------------------------


def test_an_engines_four_helpers_stay_under_its_limit_as_a_whole(tmp_path):
    """Four helpers of 250 MiB each under mem=300M: with a per-process limit they held
    1 GB between them; in the tree's cgroup the kernel kills what goes over, the
    engine forfeits naming its limit, and its tree is ended."""
    tree_box_or_skip()
    written = tmp_path / "pids"
    held = []

    def measure(event):  # the engine says its helpers hold their memory, or died
        if not held:
            held.append(sum(proportional_memory(pid) for pid in pids(written)))

    brood = make_agent("engine", cmd=command("brood", str(written)), mem=LIMIT, time=30)
    with pytest.raises(AgentFault, match=r"^The engine Fake \(`.*engine_brood.py .*`\) "
                                         r"ran out of its memory limit during its search "
                                         r"\(300 MiB; set mem= to change it\)"):
        brood.decide(C4.start(), observer=measure)
    # what its processes held together when it said so (unless the kernel chose the
    # engine itself to kill, before it could)
    assert all(size < LIMIT for size in held)
    assert still_running(pids(written), WAIT_SECONDS) == []


def test_a_bots_four_helpers_stay_under_its_limit_as_a_whole(tmp_path):
    """The same in a bot's process (four helpers of 120 MiB: a bot's process with
    plyground imported already has 150 MiB of address space): the bot forfeits,
    naming its limit."""
    tree_box_or_skip()
    written = tmp_path / "pids"
    players = (parse_agent(f"{BOTS}/brood.py:Bot:pids={written},mem=300M"),
               parse_agent("greedy"))
    result = match_game(C4.spec, players, 1, seed=1)
    assert result.fault == "Brood (1s) ran out of its memory limit (300 MiB; set mem= " \
                           "to change it)"
    assert result.winner == 1 and result.plies == 0
    assert still_running(pids(written), WAIT_SECONDS) == []


# --- helpers that leave the tree -------------------------------------------------------


def demo(home: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "plyground", "demo", "connect4", *args,
                           "--quiet"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, "PLYGROUND_HOME": str(home), **env})


@pytest.mark.parametrize("env", PATHS)
def test_an_engines_helper_that_left_its_session_is_gone_when_the_demo_ends(
        home, tmp_path, env):
    written = tmp_path / "pids"
    spec = f'engine:cmd="{command("runaway", str(written), "1")}"'
    # X to move, and column 1 wins: the engine plays once
    result = demo(home, env, "--position", "121212", "--x", spec, "--o", "random")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "X wins"
    started = pids(written)
    assert len(started) == 4  # the engine asked its name, and the one that played
    assert still_running(started, WAIT_SECONDS) == []


@pytest.mark.parametrize("env", PATHS)
def test_a_bots_helper_that_left_its_session_is_gone_when_its_game_ends(
        tmp_path, monkeypatch, env):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    written = tmp_path / "pids"
    players = (parse_agent(f"{BOTS}/runaway.py:Bot:pids={written}"),
               parse_agent("greedy"))
    assert match_game(C4.spec, players, 1, seed=1).fault is None
    started = pids(written)
    assert len(started) == 2
    assert still_running(started, WAIT_SECONDS) == []


def test_a_bots_helper_that_left_its_session_is_gone_when_the_match_ends(home, tmp_path):
    """A match worker keeps the bot's process from game to game and never closes it:
    it is ended, with its tree, as the worker exits."""
    written = tmp_path / "pids"
    result = subprocess.run(
        [sys.executable, "-m", "plyground", "match", "connect4", "--first",
         f"{BOTS}/runaway.py:Bot:pids={written}", "--second", "random", "--games", "2",
         "--jobs", "1", "--seed", "1"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
        env={**os.environ, "PLYGROUND_HOME": str(home)})
    assert result.returncode == 0, result.stderr
    started = pids(written)
    assert len(started) == 2
    assert still_running(started, WAIT_SECONDS) == []


@pytest.mark.parametrize("env", PATHS)
def test_an_engines_helper_that_left_its_session_is_gone_when_it_is_closed(
        tmp_path, monkeypatch, env):
    """In this process: the engine kept for the next move, then closed (the end of
    its game)."""
    from plyground.core.agents.external import close_engines

    for name, value in env.items():
        monkeypatch.setenv(name, value)
    written = tmp_path / "pids"
    runaway = make_agent("engine", cmd=command("runaway", str(written), "4"))
    assert runaway.decide(C4.start()).best_move == 3
    close_engines()
    started = pids(written)
    assert len(started) == 2
    assert still_running(started, WAIT_SECONDS) == []


def test_a_group_left_by_a_plyground_killed_by_sigkill_is_ended_by_the_next():
    """A process killed by SIGKILL ends nothing: its agent's group, and the helper in
    it, stay until the next box made beside them."""
    tree_box_or_skip()
    script = ("import subprocess, sys, time\n"
              "from plyground.core.agents.tree_box import TreeBox\n"
              "box = TreeBox.make('left', 1 << 30)\n"
              "helper = subprocess.Popen(['sleep', '300'], preexec_fn=box.preexec,\n"
              "                          start_new_session=True)\n"
              "print(helper.pid, flush=True)\n"
              "time.sleep(300)\n")
    owner = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                             text=True)
    try:
        helper = int(owner.stdout.readline())
    finally:
        owner.kill()
        owner.wait()
        owner.stdout.close()
    TreeBox.make("next", LIMIT).end()
    assert still_running([helper], WAIT_SECONDS) == []


def test_a_cgroup_v2_group_is_ended_whole(tmp_path):
    """The v2 end (cgroup.kill), on these machines' v2 mount, which has no memory
    controller to bound with but ends a group as any v2 mount does."""
    from plyground.core.agents.cgroup import Group, mounts, own_paths

    _, v2 = mounts()
    assert v2 is not None, "these machines mount cgroup v2 beside v1"
    folder = Path(v2[1]) / own_paths()[""].lstrip("/") / f"plyground-test-{os.getpid()}"
    folder.mkdir()
    group = Group([folder], 2)
    written = tmp_path / "pids"
    helper = start_runaway(written, lambda: group.join(0))
    try:
        group.end()
        assert still_running(pids(written), WAIT_SECONDS) == []
        assert not folder.exists()
    finally:
        helper.kill()
        helper.wait()
        helper.stdin.close()
        group.remove()


# --- what the log says -----------------------------------------------------------------


def test_without_a_cgroup_the_engines_log_says_its_tree_is_not_bounded(home, monkeypatch):
    monkeypatch.setenv("PLYGROUND_NO_CGROUP", "1")
    assert make_agent("engine", cmd=command("good")).decide(C4.start()).best_move == 3
    [log] = (home / "logs").glob("engine_good-*.log")
    notes = [line for line in log.read_text().splitlines() if "not for its" in line]
    assert notes == ["# the memory limit holds for each of the agent's processes, not "
                     "for its process tree as a whole: cgroups are turned off "
                     "(PLYGROUND_NO_CGROUP)"]


@pytest.mark.parametrize("env", PATHS)
def test_a_box_ends_its_tree_and_removes_its_group(tmp_path, monkeypatch, env):
    """Every process of the tree goes, even one that left the session and the tree,
    and the group's folders with them; ending twice does nothing more."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    box = TreeBox.make("unit", LIMIT)
    written = tmp_path / "pids"
    helper = start_runaway(written, box.preexec)
    box.add(helper.pid)
    try:
        box.end()
        assert still_running(pids(written), WAIT_SECONDS) == []
        if box.bounded:
            assert not any(folder.exists() for folder in box.group.folders)
        box.end()
    finally:
        helper.kill()
        helper.wait()
        helper.stdin.close()
