"""Engines in any language: the `engine` agent plays programs that speak plyground's
line protocol (docs/engine-protocol.md), here the fake engines of tests/fakes and the
reference engine of examples/, and turns whatever they do wrong into a clear fault."""
from __future__ import annotations

import os
import pickle
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from plyground.core import BadSetting, get_game, parse_game
from plyground.core.catalogue import make_agent, parse_agent
from plyground.core.agents import engine_process, external as engine_protocol
from plyground.core.errors import AgentFault
from plyground.core.agents.external import EngineAgent
from plyground.core.agents.engine_process import parse_info
from plyground.core.search.control import Budget, SearchControl
from plyground.core.search.events import Info, Recorder, SearchDone
from plyground.core.play.tournament import play_game

ROOT = Path(__file__).resolve().parents[2]
FAKES = ROOT / "tests" / "fakes"
REFERENCE = ROOT / "examples" / "reference_engine.py"
C4 = get_game("connect4")


def command(fake: str, *args: str) -> str:
    return shlex.join([sys.executable, str(FAKES / f"engine_{fake}.py"), *args])


def engine(fake: str, *args: str, **settings) -> EngineAgent:
    return make_agent("engine", cmd=command(fake, *args), **settings)


def logs(home: Path, fake: str) -> list[str]:
    paths = sorted((home / "logs").glob(f"engine_{fake}-*.log"))
    return [path.read_text() for path in paths]


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """Logs in a folder of the test's own (conftest ends the test's engines)."""
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path))
    return tmp_path


# --- the agent's settings ------------------------------------------------------------


def test_an_engine_needs_its_command():
    for text in ("engine", "engine:time=2", 'engine:cmd=""'):
        with pytest.raises(BadSetting, match="the setting cmd is required"):
            parse_agent(text)
    with pytest.raises(BadSetting, match="needs a value"):
        parse_agent("engine:cmd=./bot,options=hash")
    with pytest.raises(BadSetting, match="cannot be read as a command"):
        parse_agent("engine:cmd=./bot 'unclosed")


def test_specs_with_spaces_commas_and_quotes_round_trip_and_pickle():
    agent = parse_agent(r'engine:cmd="./my bot, v2 --say \"hi\"",time=0.5,depth=4,'
                        'options="hash=64 level=3"')
    assert agent.settings == {"cmd": './my bot, v2 --say "hi"', "time": 0.5, "depth": 4,
                              "nodes": None, "options": "hash=64 level=3", "mem": 2 << 30}
    assert parse_agent(agent.spec).settings == agent.settings
    copy = pickle.loads(pickle.dumps(agent))
    assert isinstance(copy, EngineAgent) and copy.settings == agent.settings
    assert agent.budget() == Budget(time=0.5, depth=4)
    assert EngineAgent.menu_choices() == []  # the menu's "Other agent…" box takes it


# --- playing -------------------------------------------------------------------------


def test_a_good_engine_plays_and_its_info_lines_become_events(home):
    agent = engine("good")
    recorder = Recorder()
    done = agent.decide(C4.start(), observer=recorder)
    infos = [event for event in recorder.events if isinstance(event, Info)]
    assert infos == [Info(1, 5.0, (3,), 10, ""), Info(3, -7.5, (3, 2, 3), 99,
                                                      "thinking hard")]
    assert recorder.events[-1] == done and isinstance(done, SearchDone)
    assert (done.best_move, done.value, done.pv, done.work, done.depth) == \
        (3, None, (3, 2, 3), 99, 3)
    assert not done.stopped
    assert agent.label == "Goodbot (engine, 1s)"


def test_the_label_asks_the_engine_its_name_once_and_never_fails(monkeypatch):
    monkeypatch.setattr(engine_protocol, "_names", {})
    assert engine("good", "--label", time=0.5).label == "Goodbot (engine, 0.5s)"
    assert not engine_protocol._running  # that engine was asked, then told to quit
    missing = make_agent("engine", cmd="/nowhere/my-bot.exe --fast")
    assert missing.label == "my-bot (engine, 1s)"
    assert make_agent("engine", cmd="python3 -u bots/carol.py").label == \
        "carol (engine, 1s)"


def test_the_log_holds_its_stderr_and_both_sides_of_the_talk(home):
    agent = engine("good", time=0.5, depth=5, nodes=1000, options="level=5 style=wild")
    agent.decide(C4.parse_position("44"))
    # its stderr comes through a thread of its own, which a busy machine may run late
    deadline = time.monotonic() + 30
    while "\n! good engine: hello on stderr\n" not in logs(home, "good")[0] \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    [log] = logs(home, "good")
    for line in ("! good engine: hello on stderr", "> plyground 1", "< id name Goodbot",
                 "< plygroundok", "> setoption name level value 5",
                 "> setoption name style value wild", "> isready", "< readyok",
                 "> position connect4 44", "> go time 0.5 depth 5 nodes 1000",
                 "< bestmove 4"):
        assert f"\n{line}\n" in log


def test_moves_reuse_the_process_and_a_dead_one_is_started_again(home):
    agent = engine("good")
    state = C4.start()
    agent.prepare()
    agent.decide(state)
    parse_agent(agent.spec).decide(state.play(3))  # the app parses the spec anew
    assert len(logs(home, "good")) == 1
    [running] = engine_protocol._running.values()
    running.process.kill()
    running.process.wait()
    assert agent.decide(state).best_move == 3
    assert len(logs(home, "good")) == 2


def test_options_the_engine_did_not_announce_are_a_fault():
    with pytest.raises(AgentFault, match=r"Goodbot .* has no option 'hash' \(its "
                                         r"options: level, style\)"):
        engine("good", options="hash=64").decide(C4.start())
    with pytest.raises(AgentFault, match="wants a whole number for its option level, "
                                         "not 'high'"):
        engine("good", options="level=high").prepare()


# --- faults --------------------------------------------------------------------------


def test_a_command_that_cannot_start_is_a_fault():
    with pytest.raises(AgentFault, match=r"`/nowhere/bot` could not be started "
                                         r"\(/nowhere/bot: No such file"):
        make_agent("engine", cmd="/nowhere/bot").decide(C4.start())
    with pytest.raises(AgentFault, match="Permission denied"):
        make_agent("engine", cmd=str(FAKES / "fakelib.py")).decide(C4.start())


@pytest.mark.parametrize("hello, message", [
    (("id author Nobody", "plygroundok"), "ended its handshake without an `id name"),
    (("id name Typo", "option name level type integer default 3", "plygroundok"),
     "announced an option in a line that does not read as"),
])
def test_a_bad_handshake_is_a_fault(home, hello, message):
    with pytest.raises(AgentFault, match=message) as error:
        engine("hello", *hello).decide(C4.start())
    assert str(home / "logs" / "engine_hello-") in str(error.value)


def test_an_engine_that_never_shakes_hands_is_a_fault(monkeypatch):
    monkeypatch.setattr(engine_process, "HANDSHAKE_SECONDS", 0.3)
    with pytest.raises(AgentFault, match=r"`sleep 30` did not answer `plyground 1` with "
                                         r"`plygroundok` within 0.3 s; its stderr"):
        make_agent("engine", cmd="sleep 30").prepare()


def test_a_crash_is_a_fault_with_its_exit_code_and_its_stderr_in_the_log(home):
    agent = engine("crash")
    state = C4.start()
    assert agent.decide(state).best_move == 3
    with pytest.raises(AgentFault, match="Fake .* exited with code 3 during its search; "
                                         "its stderr and the protocol transcript are in "
                                         ".*engine_crash-") as error:
        agent.decide(state)
    path = str(error.value).rsplit(" ", 1)[-1]
    assert "! crash engine: out of cheese" in Path(path).read_text()
    assert agent.decide(state).best_move == 3  # a new process, which plays again


def test_an_engine_that_never_answers_is_told_to_stop_then_ended(home):
    agent = engine("silent", time=0.05)
    started = time.perf_counter()
    with pytest.raises(AgentFault, match=r"did not answer `go time 0.05` within 2.\d s, "
                                         "though told to `stop`, and was ended"):
        agent.decide(C4.start())
    # told to stop after 0.05 * 1.5 + 1 s, ended 1 s later: never sooner, and not
    # left to hang (the bound is loose: a loaded machine is slow, not wrong)
    assert 2.0 <= time.perf_counter() - started < 30
    [running] = engine_protocol._running.values()
    assert running.process.poll() is not None
    [log] = logs(home, "silent")
    assert "\n> stop\n" in log and "\n# fault: did not answer" in log


def test_garbage_is_ignored_and_a_legal_answer_still_plays():
    recorder = Recorder()
    done = engine("garbage").decide(C4.start(), observer=recorder)
    assert done.best_move == 4
    infos = [event for event in recorder.events if isinstance(event, Info)]
    assert infos == [Info(2, None, (3,), None, "(pv then 9 4: not legal moves here)")]
    assert done.pv == (4,) and done.work == 0 and done.depth == 2
    assert engine("garbage").label == "Chatty (engine, 1s)"


@pytest.mark.parametrize("answer, position, message", [
    ("9", "", "answered `bestmove 9`, which is not a legal move here"),
    ("banana split", "", "answered `bestmove banana split`, which is not a legal move"),
    ("4", "444444", "answered `bestmove 4`, which is not a legal move here"),
])
def test_an_illegal_or_garbled_bestmove_is_a_fault(answer, position, message):
    with pytest.raises(AgentFault, match=message):
        engine("illegal", *answer.split()).decide(C4.parse_position(position))


def test_a_cancel_gets_a_prompt_bestmove():
    agent = engine("stops", time=30)
    agent.prepare()
    control = SearchControl(agent.budget())
    cancelled = []

    def cancel():
        cancelled.append(time.perf_counter())
        control.stop.set()

    threading.Timer(0.3, cancel).start()
    done = agent.decide(C4.start(), control=control)
    assert time.perf_counter() - cancelled[0] < 15  # not its 30 s: the cancel acted
    assert done.best_move == 2 and done.stopped and done.pv == (2,)


def test_an_engine_is_told_to_stop_when_its_time_has_passed(home):
    started = time.perf_counter()
    done = engine("stops", time=0.2).decide(C4.start())
    assert time.perf_counter() - started >= 0.2  # (told to stop at its time, not
    # at the grace limit: then it would have been ended as a fault, not stopped)
    assert done.best_move == 2 and done.stopped
    assert "\n> stop\n< bestmove 3\n" in logs(home, "stops")[0]


def test_info_lines_read_any_subset_in_any_order():
    state = C4.start()
    assert parse_info("info string  two  spaces kept ", state) == \
        Info(text="two  spaces kept")
    assert parse_info("info pv 1 2 string why not depth 3", state) == \
        Info(pv=(0, 1), text="why not depth 3")
    assert parse_info("info score 12 depth 2", state) == Info(depth=2, score=12.0)
    for garbage in ("info depth", "info score inf", "info depth two", "info colour red",
                    "infodepth 3"):
        assert parse_info(garbage, state) is None


# --- the reference engine ------------------------------------------------------------


def reference(time_: float = 0.05) -> str:
    return f'engine:cmd="{sys.executable} {REFERENCE}",time={time_:g}'


def test_the_reference_engine_plays_whole_games():
    for spec in ("connect4", "cephalopod:rows=3,cols=3"):
        game = parse_game(spec)
        played = play_game(game.start(), [parse_agent(reference()),
                                          parse_agent("random:seed=1")])
        # (play_game's answer: a PlayedGame, or (final, moves) before it had one)
        final, moves = (played.final, played.moves) if hasattr(played, "final") \
            else played
        assert getattr(played, "fault", None) is None and final.outcome() is not None
        state = game.start()
        for move in moves:
            assert move in state.moves()
            state = state.play(move)
        assert state == final
    assert parse_agent(reference()).label == "Reference (engine, 0.05s)"


def test_the_reference_engine_plays_from_the_command_line(home):
    script = Path(sys.executable).with_name("plyground")
    program = [str(script)] if script.exists() else [sys.executable, "-m", "plyground"]
    result = subprocess.run(
        [*program, "demo", "connect4", "--x", reference(), "--o", "random", "--quiet"],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
        env={**os.environ, "PLYGROUND_HOME": str(home)})
    assert result.returncode == 0, result.stderr
    outcome, record = result.stdout.strip().splitlines()
    assert outcome in ("X wins", "O wins", "draw")
    C4.parse_position(record[:-1])  # every move but the last (which ended it) replays
    assert list((home / "logs").glob("reference_engine-*.log"))


def test_an_engine_dies_with_the_process_that_started_it(home):
    """A match's agent child killed at its deadline leaves no hung engine behind."""
    parent = subprocess.Popen(
        [sys.executable, "-c", "import threading, time\n"
         "from plyground.core import get_game\n"
         "from plyground.core.catalogue import make_agent\n"
         "from plyground.core.agents.external import _running\n"
         f"agent = make_agent('engine', cmd={command('silent')!r}, time=60)\n"
         "agent.prepare()\n"
         "start = get_game('connect4').start()\n"
         "threading.Thread(target=agent.decide, args=(start,), daemon=True).start()\n"
         "time.sleep(0.2)  # the engine is in its endless `go`\n"
         "while not _running:  # (or, on a busy machine, has started at least)\n"
         "    time.sleep(0.02)\n"
         "print([e.process.pid for e in _running.values()][0], flush=True)\n"
         "time.sleep(60)"],
        stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PLYGROUND_HOME": str(home)})
    engine_pid = int(parent.stdout.readline())
    parent.kill()
    parent.wait()
    for _ in range(1500):  # 30 s: a bound on a hang, not a speed
        try:
            os.kill(engine_pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.02)  # (a zombie until init reaps it: it is gone soon after)
    pytest.fail("the engine outlived the process that started it")
