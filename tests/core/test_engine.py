"""The search process: results, live events, traces, cancel and crash handling."""
from __future__ import annotations

import os
import queue
import signal
import threading
import time
import warnings
from dataclasses import dataclass

import pytest

from plyground.core import get_game
from plyground.core.catalogue import make_agent

from plyground.core.play.worker import (Engine, EngineDone, EngineError, EngineFailed,
                                        EngineWarning, Request, SearchRequest)
from plyground.core.search.events import (IterationDone, MctsSnapshot, NodeEntered,
                                          NodeResult, SearchDone)


@pytest.fixture(scope="module")
def engine():
    with Engine() as engine:
        yield engine


def test_a_search_returns_its_decision_and_live_events(engine):
    batches = []
    done = engine.run(SearchRequest("connect4", "4453", "alphabeta:depth=5"),
                      on_events=batches.append)
    assert done.result.best_move in range(7)
    assert done.result.depth == 5
    events = [e for batch in batches for e in batch]
    assert [e.depth for e in events if isinstance(e, IterationDone)] == [1, 2, 3, 4, 5]
    assert any(isinstance(e, NodeResult) for e in events)
    assert done.trace == []


def test_an_mcts_search_streams_snapshots(engine):
    batches = []
    done = engine.run(SearchRequest("connect4", "", "mcts:iterations=3000,seed=1"),
                      on_events=batches.append)
    snapshots = [e for batch in batches for e in batch if isinstance(e, MctsSnapshot)]
    assert snapshots and snapshots[-1].iterations == 3000 == done.result.work


def test_a_traced_search_brings_back_its_trace(engine):
    done = engine.run(SearchRequest("connect4", "4453", "alphabeta:depth=3", trace=True))
    entered = [e for e in done.trace if isinstance(e, NodeEntered)]
    assert len(entered) == done.result.work and not done.truncated
    capped = engine.run(SearchRequest("connect4", "4453", "alphabeta:depth=4", trace=True,
                                      trace_cap=50))
    assert len(capped.trace) == 50 and capped.truncated


def test_bad_requests_fail_with_the_reason(engine):
    with pytest.raises(EngineError, match="completes a four"):
        engine.run(SearchRequest("connect4", "1212121", "greedy"))
    with pytest.raises(EngineError, match="unknown agent"):
        engine.run(SearchRequest("connect4", "", "wizard"))
    # and the engine still works afterwards
    in_process = make_agent("greedy").choose(get_game("connect4").start())
    assert engine.run(SearchRequest("connect4", "", "greedy")).result.best_move == in_process


class Collector:
    def __init__(self):
        self.messages = []
        self.finished = threading.Event()

    def __call__(self, message):
        self.messages.append(message)
        if isinstance(message, (EngineDone, EngineFailed)):
            self.finished.set()


def test_cancel_stops_a_long_search_and_reports_nothing_for_it():
    collector = Collector()
    with Engine(collector) as engine:
        long_search = engine.submit(SearchRequest("connect4", "", "alphabeta:time=60"))
        time.sleep(0.5)
        engine.cancel()
        quick = engine.submit(SearchRequest("connect4", "4", "alphabeta:depth=2"))
        # The cancelled search gave way: had it run on, the quick one could not end
        # before its 60 s were up. (No tighter bound: on a loaded machine a new
        # process's warm-up alone may take many seconds.)
        assert collector.finished.wait(50)
        ends = [m for m in collector.messages if isinstance(m, (EngineDone, EngineFailed))]
        assert [m.search_id for m in ends] == [quick]
        assert all(m.search_id != long_search for m in collector.messages
                   if isinstance(m, EngineDone))


@dataclass(frozen=True)
class SlowRequest(Request):
    """A request that runs `seconds` and returns `name`: `deaf` ones do not look at
    the stop flag (a kernel between two checks), the others stop when it is set. It
    says when it starts in the file `started`."""

    name: str
    seconds: float
    started: str
    deaf: bool = False

    def run(self, observer, stop, clock) -> SearchDone:
        with open(self.started, "a") as log:
            log.write(self.name + "\n")
        end = time.monotonic() + self.seconds
        while time.monotonic() < end and (self.deaf or not stop.is_set()):
            time.sleep(0.01)
        return SearchDone(self.name, None, (), 0, 0.0)


def test_a_search_replaced_before_the_child_takes_it_never_runs(tmp_path):
    """A move, then the reply at once: the first search is cancelled while it waits
    behind one still running, and the child clears the stop flag as it takes each
    search, so it must not run when its turn comes."""
    started = tmp_path / "started"
    updates = queue.Queue()
    with Engine(updates.put) as engine:
        engine.submit(SlowRequest("busy", 2.0, str(started), deaf=True))
        while not started.exists():  # the child is busy with it
            time.sleep(0.01)
        engine.submit(SlowRequest("replaced", 600, str(started)))  # waits in the pipe
        last = engine.submit(SlowRequest("last", 0, str(started)))
        done = updates.get(timeout=300)  # a bound on a hang: "replaced" runs 600 s
        while not isinstance(done, EngineDone):
            done = updates.get(timeout=300)
    assert done.search_id == last and done.result.best_move == "last"
    assert started.read_text().split() == ["busy", "last"]


def test_a_killed_search_process_is_reported_and_replaced():
    collector = Collector()
    with Engine(collector) as engine:
        doomed = engine.submit(SearchRequest("connect4", "", "alphabeta:time=60"))
        time.sleep(0.5)
        os.kill(engine.pid, signal.SIGKILL)
        assert collector.finished.wait(120)  # a bound on a hang, not a speed
        failure = collector.messages[-1]
        assert isinstance(failure, EngineFailed) and failure.search_id == doomed
        assert "stopped unexpectedly" in failure.message
        collector.finished.clear()
        engine.submit(SearchRequest("connect4", "", "greedy"))
        assert collector.finished.wait(120)
        assert isinstance(collector.messages[-1], EngineDone)


@dataclass(frozen=True)
class WarningRequest(Request):
    """A request whose run warns, as the solver does when its opening book is bad."""

    def run(self, observer, stop, clock) -> SearchDone:
        warnings.warn("the opening book is unusable")
        return SearchDone(0, None, (), 0, 0.0)


def test_a_warning_in_the_child_reaches_the_listener_not_the_terminal(capfd):
    updates = queue.Queue()
    with Engine(updates.put) as engine:
        search_id = engine.submit(WarningRequest())
        seen = [updates.get(timeout=60)]
        while not isinstance(seen[-1], EngineDone):
            seen.append(updates.get(timeout=60))
    assert EngineWarning("the opening book is unusable") in seen
    assert seen[-1].search_id == search_id
    assert "opening book" not in capfd.readouterr().err


def test_a_run_prints_a_childs_warning_and_still_returns_its_result(capfd):
    with Engine() as engine:
        done = engine.run(WarningRequest())
    assert isinstance(done, EngineDone) and done.result.best_move == 0
    assert "warning: the opening book is unusable" in capfd.readouterr().err


def test_a_search_warms_the_games_kernels_up_before_its_clock_starts(monkeypatch):
    """A new engine process (after a crash or a retry) has no kernels compiled or
    loaded: the request warms them up before the agent's clock is first read, so a
    1 s search does not spend its second on it."""
    from plyground.core import fast
    from plyground.core.search.control import StopFlag
    from plyground.core.search.events import Recorder

    happened = []
    monkeypatch.setattr(fast, "warm_up", lambda game_id: happened.append(game_id))

    def clock() -> float:
        happened.append("clock")
        return 0.0

    request = SearchRequest("connect4", "4453", "alphabeta:depth=2")
    request.run(Recorder(), StopFlag(), clock)
    assert happened[:2] == ["connect4", "clock"]
