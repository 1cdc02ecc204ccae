"""Runs agents in a child process and streams their events back.

Pure-Python search holds the GIL, so searching in a thread would starve the UI. The
engine keeps one spawned child process (spawning costs a fraction of a second of
imports, so it is reused), sends it one search at a time, and reads its messages on a
background thread that hands them to a listener:

- `EngineStarted(search_id)`: the search's clock has started. What came before it
  (starting the process, compiling or loading kernels, preparing the agent) is no
  part of the move's time, and an app shows it as preparing, not thinking;
- `EngineEvents(search_id, events)`: live events, batched at most ~20 times a second;
- `EngineDone(search_id, result, trace, truncated)`: the decision, and the recorded
  node-level trace when the request asked for one;
- `EngineFailed(search_id, message)`: the search raised, or the child died;
- `EngineForfeit(search_id, message)`: the agent (one from outside plyground) raised,
  chose an illegal move or overran its time: its side forfeits;
- `EngineWarning(message)`: a Python warning in the child, which must not write on the
  terminal an app is drawing (id 0: it belongs to no one search).

`cancel()` is immediate for the caller: it sets a flag the search polls, and nothing
more is reported for that search. It records the highest cancelled id where the child
sees it too, so a search cancelled while it still waits in the pipe (a move, then an
instant reply) is dropped when the child takes it, not run to its end. If the child
dies, the next search starts a new one.

A Python agent from outside plyground (a bot from a file or module) decides in a child
of the engine's process, boxed as in a `demo` (`Boxes`, core/play/isolation.py), its events
streamed back through it; an engine needs no such child, as its own process is boxed.
"""
from __future__ import annotations

import itertools
import multiprocessing
import queue
import sys
import threading
import time
import traceback
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable

from .. import fast, games  # noqa: F401  (games: registers the games)
from ..agents.external import EngineAgent
from ..catalogue import parse_agent
from ..errors import AgentFault, PlygroundError
from ..game import get_game, load_ref
from ..search.control import Budget, SearchControl, StopFlag, TickClock
from ..search.events import TRACE_CAP, TRACE_EVENTS, Recorder, SearchDone, TraceProgress
from ..study.review import ReviewProgress, review
from .isolation import Isolation
from .spawn import spawn_context

FLUSH_INTERVAL = 0.05  # seconds between batches of live events


class Request:
    """What the engine runs in its child: `run` gives the result, its events sent to
    `observer`. By default no node-level trace is recorded; a search request says
    whether to record one, how much of it (`trace_cap`, `trace_depth`: one iteration
    of a tree search) and the work it expects (`target`, for its progress)."""

    trace: bool = False
    trace_cap: int = 0
    trace_depth: int | None = None
    target: int = 0

    def run(self, observer: Callable[[Any], None], stop: StopFlag,
            clock: Callable[[], float]) -> Any:
        raise NotImplementedError


@dataclass(frozen=True)
class SearchRequest(Request):
    game_id: str
    position: str
    agent: str  # an agent spec, e.g. "mcts:iterations=3000,seed=1"
    game_options: dict = field(default_factory=dict)
    trace: bool = False
    trace_cap: int = TRACE_CAP
    budget: Budget | None = None  # the agent's own unless given (a replay's)
    trace_depth: int | None = None  # record only this iteration of a tree search
    target: int = 0  # the work a replay expects to do, for its progress

    def run(self, observer, stop: StopFlag, clock) -> SearchDone:
        """In the child: the agent's decision. The game's kernels are warmed up first,
        before the clock starts (a new process, after a crash or a retry, has none)."""
        state = _parse_state(self.game_id, self.game_options, self.position)
        agent = BOXES.box(parse_agent(self.agent), state)
        fast.warm_up(state.game.id)
        try:
            agent.prepare()
            budget = self.budget or agent.budget()
            done = agent.decide(state, budget, observer=observer,
                                control=SearchControl(budget, stop, clock))
        except AgentFault:
            BOXES.close()  # its side forfeits: the game is over
            raise
        if not self.trace and state.play(done.best_move).outcome() is not None:
            BOXES.close()
        return done


@dataclass(frozen=True)
class AnalysisRequest(Request):
    """Every move's exact value in a position (the game's declared analysis), reported
    as it comes."""

    game_id: str
    position: str
    game_options: dict = field(default_factory=dict)

    def run(self, observer, stop: StopFlag, clock) -> SearchDone:
        """In the child: the analysis, its values so far streamed as progress."""
        state = _parse_state(self.game_id, self.game_options, self.position)
        analyse = load_ref(state.game.entry.analysis)
        return analyse(state, observer, SearchControl(Budget(), stop, clock))


@dataclass(frozen=True)
class ReviewRequest(Request):
    """A review of a line of moves from a position (core/study/review.py): a `Review`, its
    progress streamed as `ReviewProgress` events. Cancelling stops it after the
    position being analysed."""

    game_id: str
    position: str
    moves: tuple[str, ...]  # in the game's notation
    game_options: dict = field(default_factory=dict)
    agent: str | None = None  # the analyser (None: the game's own plan)

    def run(self, observer, stop: StopFlag, clock):
        """In the child: the review (a `Review`)."""
        states = [_parse_state(self.game_id, self.game_options, self.position)]
        moves = []
        for text in self.moves:
            moves.append(states[-1].game.parse_move(text, states[-1]))
            states.append(states[-1].play(moves[-1]))

        def progress(done: int, total: int) -> None:
            observer(ReviewProgress(done, total))
            if stop.is_set():
                raise PlygroundError("the review was stopped")

        progress(0, sum(state.outcome() is None for state in states))
        return review((states[0].game, states[0], moves), self.agent, progress)


class Boxes:
    """In the engine's process: the children its Python agents from outside decide in,
    one for each side, kept from move to move as a `demo` keeps them. A side's child
    ends when another agent (or another game) takes the side; every child when a
    decision ends the game or forfeits it, and with the engine, taking along whatever
    its bot started."""

    def __init__(self) -> None:
        self.isolation = None  # an Isolation, from the first agent from outside
        self.players: dict[str, tuple[str, str]] = {}  # side: (agent spec, game spec)

    def box(self, agent, state):
        """`agent`, or its proxy deciding in its side's child."""
        if not agent.external or isinstance(agent, EngineAgent):
            return agent
        if self.isolation is None:
            self.isolation = Isolation()
        side, player = str(state.to_move), (agent.spec, state.game.spec)
        if self.players.get(side) != player:
            self.isolation.release(side)
            self.players[side] = player
        # the app stops an agent long past its time itself (it ends this process):
        # this deadline is the backstop, for when its clock is not real
        return self.isolation.isolate(agent, side, state.game.spec,
                                      late=agent.HANG_SECONDS)

    def close(self) -> None:
        if self.isolation is not None:
            self.isolation.close()
        self.players.clear()


BOXES = Boxes()


def _parse_state(game_id: str, options: dict, position: str):
    return get_game(game_id, **options).parse_position(position)


@dataclass(frozen=True)
class EngineStarted:
    search_id: int


@dataclass(frozen=True)
class EngineEvents:
    search_id: int
    events: list


@dataclass(frozen=True)
class EngineDone:
    search_id: int
    result: SearchDone
    trace: list
    truncated: bool


@dataclass(frozen=True)
class EngineFailed:
    search_id: int
    message: str


@dataclass(frozen=True)
class EngineForfeit:
    """The agent broke the rules of play (AgentFault): its side forfeits the game."""

    search_id: int
    message: str


@dataclass(frozen=True)
class EngineWarning:
    message: str
    search_id: int = 0


@contextmanager
def real_stderr():
    """Starting a process passes stderr's file descriptor to the child; an app that
    captures stderr (Textual does) leaves one that is not a real descriptor."""
    captured = sys.stderr
    sys.stderr = sys.__stderr__
    try:
        yield
    finally:
        sys.stderr = captured


class EngineError(Exception):
    """A search failed in the engine (its message says why)."""


class AgentFaultReported(EngineError):
    """`Engine.run`: the agent broke the rules of play (see EngineForfeit)."""


# --- the child process ---------------------------------------------------------------


class _Streamer:
    """The child's observer: batches live events, records the trace (capped), and
    while it records, reports its progress with each batch."""

    def __init__(self, conn, search_id: int, request: Request) -> None:
        self.conn = conn
        self.search_id = search_id
        self.trace = request.trace
        self.target = request.target
        self.recorder = Recorder(trace=True, cap=request.trace_cap,
                                 depth=request.trace_depth)
        self.pending: list = []
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.flusher = threading.Thread(target=self._flush_periodically, daemon=True)
        self.flusher.start()

    def __call__(self, event: Any) -> None:
        if isinstance(event, TRACE_EVENTS):
            self.recorder(event)
            return
        with self.lock:
            self.pending.append(event)

    def flush(self) -> None:
        with self.lock:
            batch, self.pending = self.pending, []
            if self.trace:
                batch.append(TraceProgress(self.recorder.work, self.target))
            if batch:
                self.conn.send(("events", self.search_id, batch))

    def started(self) -> None:
        """Tell the parent that the search's clock has started, after the events sent
        before it."""
        self.flush()
        with self.lock:
            self.conn.send(("started", self.search_id))

    def _flush_periodically(self) -> None:
        while not self.done.wait(FLUSH_INTERVAL):
            self.flush()

    def close(self) -> None:
        self.done.set()
        self.flusher.join()
        self.flush()


def _child_main(commands, events, stop_buffer, cancelled, clock_kind: str) -> None:
    """The engine's process: its searches, one at a time, until `quit`; then the
    children its agents from outside decide in are ended."""
    # The app ends this process itself (Engine.close, and as a daemon when the app
    # exits); here it must not count as one, which multiprocessing forbids children:
    # the agents from outside decide in children of its own.
    multiprocessing.current_process().daemon = False
    stop = StopFlag(stop_buffer)
    warnings.showwarning = lambda message, *_, **__: events.send(
        ("warning", 0, str(message)))
    try:
        _serve(commands, events, stop, cancelled, clock_kind)
    finally:
        BOXES.close()


class _Announcing:
    """A search's clock that says when it is first read: a search reads it as its
    time starts (SearchControl), once the kernels and the agent are ready."""

    def __init__(self, clock: Callable[[], float], announce: Callable[[], None]) -> None:
        self.clock = clock
        self.announce = announce

    def __call__(self) -> float:
        if self.announce is not None:
            announce, self.announce = self.announce, None
            announce()
        return self.clock()


def _serve(commands, events, stop: StopFlag, cancelled, clock_kind: str) -> None:
    while True:
        try:
            message = commands.recv()
        except EOFError:
            return
        kind = message[0]
        if kind == "quit":
            return
        if kind == "release":  # the game is over or left: its outside agents end
            BOXES.close()
            continue
        if kind == "warm":
            try:
                fast.warm_up(message[1])
            except Exception:  # a failed warm-up only costs time at the first search
                traceback.print_exc()
            continue
        search_id, request = message[1], message[2]
        stop.clear()  # the flag may have been set for an earlier search
        if cancelled.value >= search_id:  # cancelled before it started
            events.send(("failed", search_id, "cancelled before it started"))
            continue
        streamer = _Streamer(events, search_id, request)
        try:
            clock = TickClock() if clock_kind == "tick" else time.perf_counter
            result = request.run(streamer, stop, _Announcing(clock, streamer.started))
        except AgentFault as fault:
            streamer.close()
            events.send(("forfeit", search_id, str(fault)))
            continue
        except PlygroundError as error:
            streamer.close()
            events.send(("failed", search_id, str(error)))
            continue
        except Exception as error:  # a bug: say what, keep the engine alive
            streamer.close()
            detail = traceback.format_exc(limit=3)
            events.send(("failed", search_id, f"internal error: {error!r}\n{detail}"))
            continue
        streamer.close()
        events.send(("done", search_id, result, streamer.recorder.events,
                     streamer.recorder.truncated))


# --- the parent side -----------------------------------------------------------------


class Engine:
    """A reusable search process. `listener` is called on a background thread."""

    def __init__(self, listener: Callable[[Any], None] | None = None,
                 clock: str = "real") -> None:
        self._queue: queue.Queue = queue.Queue()
        self.listener = listener or self._queue.put
        self.clock = clock
        self._context = spawn_context()
        self._stop_buffer = self._context.RawArray("b", 8)
        self._stop = StopFlag(self._stop_buffer)
        # every search id up to this one was cancelled (the child reads it too)
        self._cancelled_id = self._context.RawValue("q", 0)
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._process = None
        self._commands = None
        self.active: int | None = None

    # lifecycle

    def _ensure_running(self) -> None:
        if self._process is not None and self._process.is_alive():
            return
        command_reader, command_writer = self._context.Pipe(duplex=False)
        event_reader, event_writer = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=_child_main,
            args=(command_reader, event_writer, self._stop_buffer,
                  self._cancelled_id, self.clock),
            daemon=True, name="plyground-engine",
        )
        with real_stderr():
            process.start()
        command_reader.close()
        event_writer.close()
        self._process, self._commands = process, command_writer
        reader = threading.Thread(target=self._read, args=(event_reader, process),
                                  daemon=True, name="plyground-engine-reader")
        reader.start()

    def _send(self, message: tuple) -> None:
        """Send to the child, starting a new one if the last has died."""
        self._ensure_running()
        try:
            self._commands.send(message)
        except (BrokenPipeError, OSError):
            self._process.join(timeout=1)
            self._process = None
            self._ensure_running()
            self._commands.send(message)

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def warm(self, game_id: str) -> None:
        """Compile or load the game's kernels in the child, ahead of the first search."""
        with self._lock:
            self._send(("warm", game_id))

    def release_agents(self) -> None:
        """End the children the agents from outside decided in, and all they started:
        their game is over or left. (A next move starts a new one.)"""
        with self._lock:
            if self._process is not None:
                self._send(("release",))

    def close(self) -> None:
        with self._lock:
            if self._process is None:
                return
            self._stop.set()
            try:
                self._commands.send(("quit",))
            except (BrokenPipeError, OSError):
                pass
            self._process.join(timeout=1)
            if self._process.is_alive():
                self._process.kill()
                self._process.join()  # a killed process cannot linger
            self._process = None

    # searching

    def submit(self, request: Request) -> int:
        """Start a search (cancelling any running one); returns its id."""
        with self._lock:
            if self.active is not None:
                self._cancel_locked()
            search_id = next(self._ids)
            self.active = search_id
            self._send(("search", search_id, request))
            return search_id

    def cancel(self) -> None:
        """Stop the running search; nothing more is reported for it."""
        with self._lock:
            self._cancel_locked()

    def _cancel_locked(self) -> None:
        if self.active is not None:
            self._cancelled_id.value = self.active  # before the flag the child clears
            self.active = None
            self._stop.set()

    def _read(self, conn, process) -> None:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                break
            kind, search_id = message[0], message[1]
            if kind == "warning":
                self.listener(EngineWarning(message[2]))
                continue
            if search_id <= self._cancelled_id.value:  # ids only grow: it was cancelled
                continue
            if kind == "events":
                self.listener(EngineEvents(search_id, message[2]))
                continue
            if kind == "started":
                self.listener(EngineStarted(search_id))
                continue
            with self._lock:
                if self.active == search_id:
                    self.active = None
            if kind == "done":
                self.listener(EngineDone(search_id, message[2], message[3], message[4]))
            elif kind == "forfeit":
                self.listener(EngineForfeit(search_id, message[2]))
            else:
                self.listener(EngineFailed(search_id, message[2]))
        process.join(timeout=1)
        with self._lock:
            lost = self.active if self._process is process else None
            if lost is not None:
                self.active = None
        if lost is not None:
            code = process.exitcode
            self.listener(EngineFailed(
                lost, f"the search process stopped unexpectedly (exit code {code})"))

    def run(self, request: Request,
            on_events: Callable[[list], None] | None = None) -> EngineDone:
        """Search and wait (for the CLI and tests; needs the default listener). The
        child's warnings go to stderr."""
        search_id = self.submit(request)
        while True:
            message = self._queue.get()
            if isinstance(message, EngineWarning):
                print(f"warning: {message.message}", file=sys.stderr)
                continue
            if message.search_id != search_id or isinstance(message, EngineStarted):
                continue
            if isinstance(message, EngineEvents):
                if on_events is not None:
                    on_events(message.events)
            elif isinstance(message, EngineDone):
                return message
            elif isinstance(message, EngineForfeit):
                raise AgentFaultReported(message.message)
            else:
                raise EngineError(message.message)

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
