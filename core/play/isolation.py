"""Agents from outside plyground deciding in child processes of their own.

A plugin may do anything: loop forever, call `os._exit`, crash the interpreter. Matches
and tournaments run such an agent (`agent.external`) through `IsolatedAgent`, a proxy
whose every decision is made in a spawned child: the proxy sends the position (the
game's spec and the position's text) and the budget, and waits for the decision. A
child that does not answer by its deadline is killed, one that dies is reaped, and
either way the agent's side forfeits (AgentFault); the process that plays the game
(a match worker, the CLI) goes on. Each player has a child of its own, which lives on
from game to game (starting one costs a fraction of a second of imports, more with
the game's kernels) until its `Isolation` is closed; a new one starts after a fault.

While the agent decides, what it reports (a bot's `report(...)`, a search's events)
streams back to the proxy's observer in batches, so that the app's inspector shows it
live; the decision itself comes with the answer.

Each child is boxed (core/agents/box.py, core/agents/tree_box.py): its address space is
limited to the agent's `mem` (a MemoryError there forfeits, naming the limit), and so is
its whole process tree where a cgroup can be made (the kernel killing a process of it
forfeits the same way); it leads a session and process group of its own, and its tree
is ended with it, so that nothing the agent started outlives it, even a helper that
left its group. An engine's child has no memory limit: it only relays, and the
engine's own tree has one.

Children are daemons: they end, with their trees, when the process that started them
exits (`end_children`).
"""
from __future__ import annotations

import atexit
import errno
import multiprocessing
import os
import resource
import signal
import sys
import threading
import time
import weakref
from dataclasses import dataclass
from multiprocessing.connection import Connection

from ..agents.base import Agent
from ..errors import AgentFault
from ..catalogue import parse_agent
from ..agents.bot import BotAgent
from ..agents.box import (DEFAULT_MEMORY, caused_by_memory, end_group, end_with_parent,
                          exited, limit_memory, memory_fault, memory_words,
                          wait_for_exit)
from ..agents.engine_process import STOP_SECONDS
from ..agents.tree_box import TreeBox
from ..agents.external import EngineAgent, end_all_groups
from ..fast import warm_up
from ..game import State, parse_game
from ..search.control import Budget, SearchControl, SearchStopped, StopFlag
from ..search.events import SearchDone
from .spawn import spawn_context

# How long an agent without a time budget may take over a decision, and any agent over
# starting (imports, the game's kernels, its own preparation), before it forfeits.
UNTIMED_DEADLINE = 120.0
START_DEADLINE = 120.0
POLL_INTERVAL = 0.05  # seconds between looks at the stop flag while a child decides
RELAY_INTERVAL = 0.05  # seconds between batches of a deciding agent's events
# how long a child may take to end its engines when told to: at a SIGTERM, and after
# the connection closes (`quit`, a second's wait, then their groups killed)
TERM_SECONDS = 1.0
CLOSE_SECONDS = STOP_SECONDS + 1.0


def deadline(budget: Budget) -> float:
    """Seconds a decision may take before its process is stopped as hung: past the
    grace every agent from outside gets (Agent.checked_search, an engine's `stop`),
    so that the agent's own fault, with its reason, comes first; else
    UNTIMED_DEADLINE."""
    if budget.time is None:
        return UNTIMED_DEADLINE
    return Agent.hang_limit(budget.time)


# --- the child ------------------------------------------------------------------------


@dataclass(frozen=True)
class Prepare:
    """Load the agent and get it ready to play the game, before any clock starts."""

    agent: str  # the agent's spec
    game: str  # the game's spec


@dataclass(frozen=True)
class Decide:
    agent: str
    game: str
    position: str  # in the game's notation
    budget: Budget
    live: bool = False  # stream the agent's events back while it decides


class Relay:
    """A deciding agent's observer in the child: its events go to the parent in
    batches, one every RELAY_INTERVAL at most, so that a bot reporting in a tight loop
    costs a message a batch, not one an event. The decision (SearchDone) is left out:
    it goes with the answer. A thread sends them; under a `mem` too small for its
    stack, the agent's own reports do, when a batch is due."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.pending: list = []
        self.sent_at = time.monotonic()
        self.lock = threading.Lock()  # one sender at a time on the connection
        self.done = threading.Event()
        self.sender = threading.Thread(target=self.send_periodically, daemon=True)
        try:
            self.sender.start()
        except RuntimeError:  # no room for its stack
            self.sender = None

    def __call__(self, event) -> None:
        if isinstance(event, SearchDone):
            return
        with self.lock:
            self.pending.append(event)
        if self.sender is None and time.monotonic() - self.sent_at >= RELAY_INTERVAL:
            self.flush()

    def flush(self) -> None:
        with self.lock:
            batch, self.pending = self.pending, []
            self.sent_at = time.monotonic()
            if batch:
                try:
                    self.connection.send(("events", batch))
                except Exception:  # a batch that cannot travel (an event pickle
                    pass  # refuses, the memory limit): only what the inspector shows

    def send_periodically(self) -> None:
        while not self.done.wait(RELAY_INTERVAL):
            self.flush()

    def close(self) -> None:
        """Send what is left, before the answer."""
        if self.sender is not None:
            self.done.set()
            self.sender.join()
        self.flush()


def end_engines(number, frame) -> None:
    """At SIGTERM (from `Child.kill`, or multiprocessing ending its daemons as their
    parent exits): the engines this child started go too, with their helpers, and so
    does its own group (itself, and whatever a bot started in it)."""
    end_all_groups()
    os.killpg(0, signal.SIGKILL)


def memory_limit(agent: Agent) -> int | None:
    """The limit of the child that `agent` decides in: its `mem`, else the default
    (an Agent subclass from outside has no setting for it); None for an engine."""
    if isinstance(agent, EngineAgent):
        return None
    return agent.settings.get("mem", DEFAULT_MEMORY)


def redirect_output(path: str, cap: int) -> None:
    """Send this process's stdout and stderr (fds 1 and 2, so a bot's prints and
    anything it starts) to the end of the file `path`, and stop any file it writes
    from growing past `cap` bytes: a process that goes on writing then gets SIGXFSZ,
    which ends it (its side forfeits: describe_exit says why). /dev/null if the file
    cannot be opened (a cluster worker without the run's folder)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError:
        fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    resource.setrlimit(resource.RLIMIT_FSIZE, (cap, cap))


def caused_by_big_file(error: BaseException | None) -> bool:
    """Whether `error`, or one it came from, is a write past RLIMIT_FSIZE (EFBIG)."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, OSError) and error.errno == errno.EFBIG:
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def serve(connection: Connection, memory: int | None = None,
          parent: int | None = None, box: TreeBox | None = None,
          output: tuple[str, int] | None = None) -> None:
    """The child's loop: answer each request with ("ok", result), ("fault", why) or
    ("memory", None) when it ran out of its `memory` limit, after ("events", batch)
    messages while a live decision runs. With `parent`, the child ends when that
    process does, even killed (its own session takes it out of reach of the terminal's
    hangup). With `box`, the child is in it before any agent's code runs. With
    `output` (a file and a cap), what it writes goes there (redirect_output).

    Preparing loads the game's kernels (as a match worker does), unless the agent is a
    Bot or an engine: a Bot searches in its own code, and loading them would cost every
    bot's process half a second."""
    if box is not None:
        box.preexec()
    os.setsid()  # a group of its own, killed with it; no terminal to stop it
    signal.signal(signal.SIGTERM, end_engines)
    if parent is not None:
        end_with_parent(parent, signal.SIGTERM)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    sys.stdout = sys.stderr  # a bot's prints must not mix with a report on stdout
    if memory is not None:
        limit_memory(memory)
    if output is not None:
        redirect_output(*output)
    spec, agent = None, None  # the player's agent in its current game

    def loaded(wanted: str) -> Agent:
        nonlocal spec, agent
        if wanted != spec:
            agent, spec = parse_agent(wanted), wanted
        return agent

    while True:
        try:
            request = connection.recv()
        except EOFError:  # the parent closed the connection, or died
            return
        try:
            if isinstance(request, Prepare):
                player = loaded(request.agent)
                if not isinstance(player, (BotAgent, EngineAgent)):
                    warm_up(parse_game(request.game).id)
                player.prepare()
                reply = ("ok", None)
            else:
                state = parse_game(request.game).parse_position(request.position)
                relay = Relay(connection) if request.live else None
                try:
                    done = loaded(request.agent).decide(state, request.budget, relay)
                finally:
                    if relay is not None:
                        relay.close()
                reply = ("ok", done)
        except Exception as error:  # loading or preparing it: still the agent's fault
            if memory is not None and caused_by_memory(error):
                reply = ("memory", None)
            elif output is not None and caused_by_big_file(error):
                reply = ("fault", f"{loaded(request.agent).label} wrote more than its "
                         f"output limit ({memory_words(output[1])}) to its log or a file")
            elif isinstance(error, AgentFault):
                reply = ("fault", str(error))
            else:
                reply = ("fault", f"{type(error).__name__}: {error}")
        connection.send(reply)


# --- the parent -----------------------------------------------------------------------


def describe_exit(code: int | None) -> str:
    if code is None:
        return "it stopped answering"
    if code == -signal.SIGXFSZ:
        return "killed by SIGXFSZ: it wrote more output than its limit"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


class Child:
    """One child process and the connection to it; started when first asked, with the
    memory limit last asked for (`limit`)."""

    def __init__(self) -> None:
        self.process: multiprocessing.process.BaseProcess | None = None
        self.connection: Connection | None = None
        self.memory: int | None = None
        self.box: TreeBox | None = None  # its tree's, while it runs
        self.output: tuple[str, int] | None = None  # where its output goes, the cap

    @property
    def running(self) -> bool:
        return self.process is not None

    def limit(self, memory: int | None, output: tuple[str, int] | None = None) -> None:
        """Decide under this limit (and with this output, serve's) from now on: a
        child under another one ends."""
        if memory != self.memory or output != self.output:
            self.kill()
            self.memory, self.output = memory, output

    def start(self) -> None:
        context = spawn_context()
        connection, theirs = context.Pipe()
        # (a parent's death signal comes when the thread that started the child ends)
        parent = os.getpid() if threading.current_thread() is threading.main_thread() \
            else None
        box = TreeBox.make("agent", self.memory)
        process = context.Process(target=serve, args=(theirs, self.memory, parent, box,
                                                         self.output),
                                  daemon=True, name="plyground-agent")
        try:
            process.start()
        except BaseException:
            box.end()
            raise
        finally:
            theirs.close()
        box.add(process.pid)
        self.process, self.connection, self.box = process, connection, box
        _running.add(self)

    def ask(self, request: Prepare | Decide, seconds: float, label: str,
            stop: StopFlag | None = None, observer=None):
        """The child's answer to `request`, the events it streams meanwhile handed to
        `observer`. AgentFault if the child answers with one, takes more than `seconds`
        (it is killed) or dies; SearchStopped if `stop` is set meanwhile (it is killed
        too)."""
        if not self.running:
            self.start()
        try:
            self.connection.send(request)
            ends = time.monotonic() + seconds
            while True:
                if self.connection.poll(POLL_INTERVAL):
                    kind, answer = self.connection.recv()
                    if kind != "events":
                        break
                    if observer is not None:
                        for event in answer:
                            observer(event)
                if stop is not None and stop.is_set():
                    self.kill()
                    raise SearchStopped
                if time.monotonic() >= ends:
                    self.kill()
                    raise AgentFault(f"{label} did not answer within {seconds:g} s")
        except (EOFError, OSError):  # the pipe broke: the child is gone
            if self.wait_for_exit(1):
                end_group(self.process.pid)  # what it started, before it is reaped
            code = self.process.exitcode
            over = self.box.over_memory()  # the kernel killed it, or a helper, for it
            self.kill()
            if over:
                raise AgentFault(memory_fault(label, self.memory)) from None
            raise AgentFault(f"{label} died ({describe_exit(code)})") from None
        if kind == "memory" or self.box.over_memory():
            self.kill()  # what it holds is not to be trusted: a new one for the next
            raise AgentFault(memory_fault(label, self.memory))
        if kind == "fault":
            raise AgentFault(answer)
        return answer

    def wait_for_exit(self, seconds: float) -> bool:
        """Whether the child ends within `seconds` (it is not reaped: until then its
        id, which names its group, is no one else's)."""
        return wait_for_exit(self.process.pid, seconds)

    def kill(self) -> None:
        """End the child and its tree: a SIGTERM first, at which it ends its
        engines' groups, then SIGKILL to its own group, which holds whatever else it
        started, and to its box, which holds what left the group."""
        if self.process is not None:
            pid = self.process.pid
            if not exited(pid):
                os.kill(pid, signal.SIGTERM)
                self.wait_for_exit(TERM_SECONDS)
            end_group(pid)
            self.box.end()
            self.process.join()
            self.connection.close()
        self.process = self.connection = self.box = None
        _running.discard(self)

    def close(self) -> None:
        """Let the child end on its own (it sees the connection close and quits its
        engines), else end it."""
        if self.process is not None:
            self.connection.close()
            self.wait_for_exit(CLOSE_SECONDS)
        self.kill()


_running: "weakref.WeakSet[Child]" = weakref.WeakSet()  # children started here, not ended


def end_children() -> None:
    """As this process exits: end every child it still runs, and its tree. A match
    worker keeps its children from game to game and never closes them; without this,
    multiprocessing would end them with a SIGTERM, which reaches their groups but not
    a helper that left them."""
    for child in list(_running):
        child.kill()


atexit.register(end_children)
os.register_at_fork(after_in_child=_running.clear)  # a fork's children are not its own
try:  # a multiprocessing child (a match worker, the app's search process) skips atexit
    from multiprocessing.util import Finalize

    Finalize(None, end_children, exitpriority=10)
except ImportError:  # pragma: no cover
    pass


class IsolatedAgent(Agent):
    """`agent` (one from outside) making its decisions in `child`, for `game`.

    The child's agent checks its own decisions (Agent.checked_search); here, the
    deadline and the child's death become AgentFaults in its name. `late`: seconds
    more before a decision counts as hung, for a caller that watches the clock itself
    and should come first (the app)."""

    def __init__(self, agent: Agent, child: Child, game: str, late: float = 0.0) -> None:
        super().__init__()
        self.agent, self.child, self.game, self.late = agent, child, game, late
        self.ready_in = None  # the child process it was prepared in
        self.fault: AgentFault | None = None  # a failure to prepare, not yet reported

    @property
    def spec(self) -> str:
        return self.agent.spec

    @property
    def label(self) -> str:
        return self.agent.label

    def budget(self) -> Budget:
        return self.agent.budget()

    def prepare(self) -> None:
        """Start the child (unless it runs) and get the agent ready there. A failure
        is kept for the agent's first decision, which it forfeits."""
        try:
            self.get_ready(None)
        except AgentFault as fault:
            self.fault = fault

    def get_ready(self, stop: StopFlag | None) -> None:
        self.child.limit(memory_limit(self.agent), getattr(self.agent, "output", None))
        if self.child.running and self.ready_in is self.child.process:
            return
        self.child.ask(Prepare(self.agent.spec, self.game), START_DEADLINE, self.label,
                       stop)
        self.ready_in = self.child.process

    def search(self, state: State, budget: Budget, observer, control: SearchControl,
               exact_root: bool) -> SearchDone:
        if self.fault is not None:
            raise self.fault
        self.get_ready(control.stop)
        request = Decide(self.agent.spec, self.game, state.game.format_position(state),
                         budget, live=observer is not None)
        return self.child.ask(request, deadline(budget) + self.late, self.label,
                              control.stop, observer)


class Isolation:
    """The children the external agents of one process decide in: one for each name
    (a player of a match, a side of a demo), kept between games until closed. At most
    `most` are kept: a new name ends the one used longest ago (a worker that grades a
    class meets forty students' agents, and each child holds a process's memory)."""

    MOST_CHILDREN = 8

    def __init__(self, most: int = MOST_CHILDREN) -> None:
        self.children: dict[str, Child] = {}  # the most recently used last
        self.most = most

    def isolate(self, agent: Agent, name: str, game: str, late: float = 0.0) -> Agent:
        """`agent` itself if it is plyground's own, else its proxy in child `name`,
        to play the game `game` (a spec); `late` as IsolatedAgent takes it."""
        if not agent.external:
            return agent
        child = self.children.pop(name, None) or Child()
        while len(self.children) >= self.most:
            self.release(next(iter(self.children)))
        self.children[name] = child
        return IsolatedAgent(agent, child, game, late)

    def release(self, name: str) -> None:
        """End child `name`, if there is one: its agent is done."""
        child = self.children.pop(name, None)
        if child is not None:
            child.close()

    def close(self) -> None:
        for child in self.children.values():
            child.close()
        self.children.clear()

    def __enter__(self) -> "Isolation":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
