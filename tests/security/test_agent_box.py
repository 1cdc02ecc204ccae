"""Agents from outside plyground run in a box: a memory limit (`mem=`, 2 GiB unless
given) whose overrun forfeits naming it, their whole process group killed when they
are done (helpers they started included), protocol lines capped at 1 MB and logs at
10 MB. Each case is a real misbehaving agent: the engines of tests/fakes, the bots of
tests/plugins/bots. (A memory hog takes its gigabytes as untouched pages: address
space, not the machine's memory.)"""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from plyground.core import BadSetting, get_game
from plyground.core.catalogue import make_agent, parse_agent
from plyground.core.errors import AgentFault
from plyground.core.play.isolation import Isolation
from plyground.core.search.control import SearchControl, SearchStopped, StopFlag
from plyground.core.play.tournament import match_game
from tests.processes import descendants, still_running

ROOT = Path(__file__).resolve().parents[2]
FAKES = ROOT / "tests" / "fakes"
BOTS = ROOT / "tests" / "plugins" / "bots"
C4 = get_game("connect4")
WAIT_SECONDS = 30  # the most a killed process may take to go, on a busy machine


def command(fake: str, *args: str) -> str:
    return shlex.join([sys.executable, str(FAKES / f"engine_{fake}.py"), *args])


def engine(fake: str, *args: str, **settings):
    return make_agent("engine", cmd=command(fake, *args), **settings)


def engine_spec(fake: str, *args: str, settings: str = "") -> str:
    return f'engine:cmd="{command(fake, *args)}"' + (f",{settings}" if settings else "")


def demo(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "plyground", "demo", "connect4", *args],
                          capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, "PLYGROUND_HOME": str(home)})


def pids(path: Path) -> list[int]:
    """The pids a forker wrote: its own and its helper's."""
    return [int(word) for word in path.read_text().split()]


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:  # it has gone
        return ""


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """Logs in a folder of the test's own (conftest ends the test's engines)."""
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path))
    return tmp_path


# --- memory ----------------------------------------------------------------------------


def test_an_engine_over_its_memory_limit_forfeits_naming_the_limit():
    with pytest.raises(AgentFault, match=r"^The engine Fake \(`.*engine_hog.py`\) ran out "
                       r"of its memory limit during its search \(2 GiB; set mem= to "
                       r"change it\); its stderr"):
        engine("hog").decide(C4.start())


def test_mem_sets_an_engines_limit():
    roomy = engine("hog", mem=4 << 30)
    assert roomy.decide(C4.start()).best_move == 3  # 3 GiB fit in 4
    with pytest.raises(AgentFault, match=r"ran out of its memory limit during its search "
                                         r"\(4 GiB; set mem= to change it\)"):
        roomy.decide(C4.parse_position("44"))  # 6 GiB do not


def test_a_bot_over_its_memory_limit_forfeits_and_the_game_ends_cleanly():
    players = (parse_agent(f"{BOTS}/hog.py:Bot"), parse_agent("greedy"))
    result = match_game(C4.spec, players, 1, seed=1)
    assert result.fault == "Hog (1s) ran out of its memory limit (2 GiB; set mem= to " \
                           "change it)"
    assert result.winner == 1 and result.plies == 0
    assert result.reason == f"X forfeits: {result.fault}"


def test_mem_sets_a_bots_limit():
    players = (parse_agent(f"{BOTS}/hog.py:Bot:mem=4G"), parse_agent("greedy"))
    result = match_game(C4.spec, players, 1, seed=1)
    assert result.plies == 2  # its first 3 GiB fit, the next 3 do not
    assert result.fault == "Hog (1s) ran out of its memory limit (4 GiB; set mem= to " \
                           "change it)"


@pytest.mark.parametrize("spec", [engine_spec("good", settings="mem={}"),
                                  f"{BOTS}/good.py:Bot:mem={{}}"])
def test_mem_reads_sizes_and_refuses_others_in_one_line(spec):
    assert parse_agent(spec.format("1.5G")).settings["mem"] == 1536 << 20
    assert "mem=1536M" in parse_agent(spec.format("1.5G")).spec  # read back the same
    assert parse_agent(spec.format("512M")).settings["mem"] == 512 << 20
    with pytest.raises(BadSetting, match=r"mem='lots' is not a memory size: give a "
                                         r"number and a unit, as in 512M or 2G$"):
        parse_agent(spec.format("lots"))
    with pytest.raises(BadSetting, match="mem='1K' is less than 16 MiB$"):
        parse_agent(spec.format("1K"))


def test_a_bad_mem_is_one_line_and_exit_2_on_the_command_line(home):
    result = demo(home, "--x", engine_spec("good", settings="mem=2X"), "--o", "random")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "error: engine: mem='2X' is not a memory size: give a number and a unit, as in "
        "512M or 2G"]


# --- process groups --------------------------------------------------------------------


def test_an_engines_helper_dies_with_it_when_the_demo_ends(home, tmp_path):
    written = tmp_path / "pids"
    # X to move, and column 1 wins: the engine plays once
    result = demo(home, "--position", "121212", "--x",
                  engine_spec("forker", str(written), "1"), "--o", "random", "--quiet")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "X wins"
    engine_pid, helper = pids(written)
    assert still_running([engine_pid, helper], WAIT_SECONDS) == []


def test_an_engine_stopped_mid_search_takes_its_helper_along(tmp_path):
    """The agent's process is ended at once (a Ctrl-C, a closed game): the engine it
    started, and what that started, go with it."""
    written = tmp_path / "pids"
    stop = StopFlag()
    with Isolation() as isolation:
        agent = isolation.isolate(engine("forker", str(written), "never", time=30),
                                  "forker", C4.spec)
        agent.prepare()
        threading.Timer(0.3, stop.set).start()
        with pytest.raises(SearchStopped):
            agent.decide(C4.start(), control=SearchControl(agent.budget(), stop))
        assert still_running(pids(written), WAIT_SECONDS) == []


def test_everything_below_a_demo_killed_mid_search_goes_with_it(home, tmp_path):
    """The agent's process, the engine it started and the engine's helper: none
    outlives a `demo` killed by SIGKILL, which can clean nothing up itself."""
    written = tmp_path / "pids"
    command = subprocess.Popen(
        [sys.executable, "-m", "plyground", "demo", "connect4", "--x",
         engine_spec("forker", str(written), "never", settings="time=60"), "--o",
         "random", "--quiet"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
        env={**os.environ, "PLYGROUND_HOME": str(home)})
    try:
        # the engine that plays, not the one asked its name for the label, which has
        # quit: its pids are below the demo
        deadline = time.monotonic() + 120  # a hang guard: the engine starts in seconds
        while not (written.exists() and len(pids(written)) == 2 and
                   set(pids(written)) < descendants(command.pid)):
            assert time.monotonic() < deadline and command.poll() is None
            time.sleep(0.05)
        below = [pid for pid in descendants(command.pid)
                 if "resource_tracker" not in command_line(pid)]
    finally:
        command.kill()
        command.wait()
    assert still_running(below, WAIT_SECONDS) == []


def test_a_bots_helper_dies_with_it_when_the_demo_ends(home, tmp_path):
    written = tmp_path / "pids"
    result = demo(home, "--x", f"{BOTS}/forks.py:Bot:pids={written}", "--o", "random",
                  "--quiet")
    assert result.returncode == 0, result.stderr
    assert still_running(pids(written), WAIT_SECONDS) == []


def test_a_bots_helper_dies_with_it_when_the_match_ends(home, tmp_path):
    """A match worker keeps the bot's process from game to game; it ends with the
    worker, and takes its group along."""
    written = tmp_path / "pids"
    result = subprocess.run(
        [sys.executable, "-m", "plyground", "match", "connect4", "--first",
         f"{BOTS}/forks.py:Bot:pids={written}", "--second", "random", "--games", "2",
         "--jobs", "1", "--seed", "1"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
        env={**os.environ, "PLYGROUND_HOME": str(home)})
    assert result.returncode == 0, result.stderr
    assert still_running(pids(written), WAIT_SECONDS) == []


# --- lines and logs --------------------------------------------------------------------


def test_a_line_over_the_cap_forfeits_and_is_read_no_further(home):
    """20 MB with no newline: the engine is ended at its first megabyte."""
    with pytest.raises(AgentFault, match=r"^The engine Fake \(`.*`\) wrote a line longer "
                       r"than the protocol's cap of 1 MB during its search; its stderr"):
        engine("long_line").decide(C4.start())
    [log] = (home / "logs").glob("engine_long_line-*.log")
    assert log.stat().st_size < 10_000  # the line itself is not in it


def test_a_line_over_the_cap_is_a_one_line_forfeit_in_a_demo(home):
    result = demo(home, "--x", engine_spec("long_line", settings="time=0.2"), "--o",
                  "random", "--quiet")
    assert result.returncode == 0, result.stderr
    forfeit, outcome, moves = result.stdout.splitlines()
    assert forfeit.startswith("1. X forfeits: The engine Fake") and \
        "wrote a line longer than the protocol's cap of 1 MB" in forfeit
    assert (outcome, moves) == ("O wins", "")


def test_an_engine_that_floods_its_log_is_cut_at_the_cap_and_still_plays(home):
    assert engine("flood").decide(C4.start()).best_move == 3  # 25 MB of info, then 4
    [log] = (home / "logs").glob("engine_flood-*.log")
    assert log.stat().st_size <= 10_000_000
    cut = [line for line in log.read_text().splitlines() if line.startswith("# the log")]
    assert cut == ["# the log is cut here, at its cap of 10 MB: later lines to and from "
                   "the engine are left out"]


# --- reports ---------------------------------------------------------------------------


@pytest.mark.parametrize("mem", ["2G", "24M"])  # 24M: no room for a thread's stack
def test_a_bots_reports_come_back_from_its_process_to_the_observer(mem):
    from plyground.core.search.events import Info

    seen = []
    with Isolation() as isolation:
        agent = isolation.isolate(parse_agent(f"{BOTS}/good.py:Bot:mem={mem}"), "good",
                                  C4.spec)
        agent.prepare()
        done = agent.decide(C4.start(), observer=seen.append)
        pid = agent.child.process.pid
    assert done.best_move == 3
    assert [event.text for event in seen if isinstance(event, Info)] == [f"pid {pid}"]
    assert seen[-1] is done  # the decision comes last, once
