"""One running outside engine: its process, boxed, and the line protocol spoken with it
(docs/engine-protocol.md); core/agents/external.py keeps them running and plays them."""
from __future__ import annotations

import math
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import AgentFault, BadSetting, visible
from ..paths import data_home
from ..search.control import Budget, SearchControl
from ..search.events import Info, SearchDone
from .base import Agent
from .box import (DEFAULT_MEMORY, end_group, exited, limit_memory, memory_words,
                  wait_for_exit)
from .logs import folder_cap, open_log
from .tree_box import TreeBox


PROTOCOL_VERSION = 1
HANDSHAKE_SECONDS = 10.0  # `plyground 1` to `plygroundok`
READY_SECONDS = 10.0  # `isready` to `readyok`
STOP_SECONDS = 1.0  # `stop` to `bestmove`, and `quit` to the end of the process
NAME_SECONDS = 3.0  # the handshake that only learns an engine's name for its label
POLL_SECONDS = 0.02  # how often a wait looks at the cancel flag
LINE_CAP = 1_000_000  # characters in a line from the engine: a longer one is a fault
LOG_CAP = 10_000_000  # bytes of an engine's log: the rest is left out
QUEUED_LINES = 100  # lines read ahead of plyground (then the engine waits to write)
# what an engine's stderr says when an allocation failed (Python, C++, Rust, Go, Java)
OUT_OF_MEMORY = re.compile(r"MemoryError|bad_alloc|out of memory|cannot allocate memory|"
                           r"memory allocation of \d+ bytes failed|OutOfMemoryError",
                           re.IGNORECASE)
OPTION_TYPES = {"int": int, "float": float, "string": str}
# programs that run the engine rather than being it: the name is the next word
RUNNERS = re.compile(r"(python|pypy)[\d.]*|node|deno|java|ruby|perl|php|lua[\d.]*|"
                     r"sh|bash|dash|zsh|env|exec|nice")


def log_dir() -> Path:
    """Where engine logs go: `logs` in plyground's data folder (created)."""
    folder = data_home() / "logs"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def command_name(cmd: str) -> str:
    """A short name for an engine command: its program's file name without extension,
    past any interpreter (`python3 bots/carol.py --fast` is `carol`)."""
    words = split_command(cmd)
    for word in words:
        base = os.path.basename(word)
        if not word.startswith("-") and "=" not in word and not RUNNERS.fullmatch(base):
            return Path(base).stem or base
    return Path(os.path.basename(words[0])).stem if words else "engine"


def boxed(memory: int, box: TreeBox):
    """For Popen: what the engine's process does before its program starts. It enters
    `box`, limits its address space to `memory` bytes, and has it killed when this
    process dies, even by SIGKILL (a match's agent child killed at its deadline), so
    that an engine that hangs is not left behind. Linux's parent-death signal belongs
    to the thread that starts the child, so only the main thread, which lives as long
    as the process, asks for it."""
    prctl = None
    if threading.current_thread() is threading.main_thread():
        try:
            import ctypes  # libc's prctl, on Linux only: other paths never load it

            prctl = ctypes.CDLL(None, use_errno=True).prctl
        except (OSError, AttributeError):
            pass
    parent = os.getpid()

    def enter() -> None:
        box.preexec()
        limit_memory(memory)
        if prctl is not None:
            prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
            if os.getppid() != parent:  # the parent died before that
                os._exit(1)

    return enter


def split_command(cmd: str) -> list[str]:
    try:
        return shlex.split(cmd)
    except ValueError as error:  # an unclosed quote
        raise BadSetting(f"engine: cmd={cmd!r} cannot be read as a command: "
                         f"{error}") from None


class Stopped(Exception):
    """A wait ended because the search was cancelled."""


class EngineProcess:
    """An engine program, started and through its handshake (`start`). Two threads
    copy its output: stdout lines into a queue (None at the end), stderr lines into
    the log, which also gets every line sent and received.

    Its process is reaped only after its group is killed (`kill`): until then its id,
    which names the group, can belong to no other process."""

    def __init__(self, cmd: str, memory: int = DEFAULT_MEMORY) -> None:
        self.cmd = cmd
        self.memory = memory
        self.display = command_name(cmd)  # until the handshake gives the name
        self.name: str | None = None
        self.author = ""
        self.options: dict[str, tuple[type, str]] = {}  # name: (type, default)
        self.lock = threading.Lock()  # one exchange at a time
        self.lines: queue.Queue = queue.Queue(QUEUED_LINES)
        self.eof = False
        self.too_long = False  # it wrote a line over LINE_CAP
        self.out_of_memory = False  # its stderr said an allocation failed
        self.logged = 0  # bytes written to the log
        self.log_cut = False
        argv = split_command(cmd)
        if not argv:
            raise BadSetting("engine: cmd is empty: give the command that starts the "
                             "engine, as in engine:cmd=\"./mybot --flag\"")
        # its whole tree: bounded as a whole where a cgroup can be made
        self.box = TreeBox.make(self.display, memory)
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, bufsize=1, errors="replace",
                start_new_session=True,  # its own group: kill() ends its children too
                preexec_fn=boxed(memory, self.box))
        except OSError as error:
            self.box.end()
            reason = error.strerror or str(error)
            raise AgentFault(visible(f"The engine `{cmd}` could not be started "
                                     f"({argv[0]}: {reason}); check the path and that "
                                     "the file is executable.")) from None
        _groups.add(self.process.pid)
        self.box.add(self.process.pid)
        self.log_lock = threading.Lock()
        try:
            self.log_path = log_dir() / f"{self.display}-{self.process.pid}.log"
            self.log_cap = min(LOG_CAP, folder_cap())
            self.log_file = open_log(self.log_path, self.log_cap)
        except OSError:
            self.end_group()
            self.reap()
            raise
        self.log("#", f"plyground started `{cmd}` (pid {self.process.pid}, memory limit "
                      f"{memory_words(memory)}) at {datetime.now():%Y-%m-%d %H:%M:%S}; "
                      "'>' is sent to the engine, '<' its output, '!' its stderr")
        if not self.box.bounded:
            self.log("#", self.box.note)
        self.readers = [threading.Thread(target=target, args=(stream,), daemon=True,
                                         name=f"engine-{self.process.pid}")
                        for stream, target in ((self.process.stdout, self._read_stdout),
                                               (self.process.stderr, self._read_stderr))]
        for reader in self.readers:
            reader.start()

    # the log and the pipes

    def log(self, mark: str, line: str) -> None:
        """A line of the log. Past its cap (LOG_CAP, or the folder's if less), one
        line says the log was cut, and only plyground's own notes (`#`) follow: an
        engine that writes without end fills no disk."""
        with self.log_lock:
            if self.log_file.closed or (self.log_cut and mark != "#"):
                return
            text = f"{mark} {line}\n"
            size = len(text.encode(errors="replace"))
            if mark != "#" and self.logged + size > self.log_cap:
                self.log_cut = True
                text = (f"# the log is cut here, at its cap of "
                        f"{self.log_cap / 10**6:g} MB: "
                        "later lines to and from the engine are left out\n")
                size = len(text)
            self.logged += size
            self.log_file.write(text)

    def queue_line(self, line: str | None) -> None:
        """Hand a line to whoever reads the engine, waiting while the queue is full
        (the engine then waits to write), unless the engine has been ended."""
        while not self.log_file.closed:
            try:
                self.lines.put(line, timeout=POLL_SECONDS)
                return
            except queue.Full:
                pass

    def _read_stdout(self, stream) -> None:
        """Lines into the queue; one over LINE_CAP ends the engine (it is read only
        that far: a line without end must not fill this process's memory)."""
        try:
            while line := stream.readline(LINE_CAP + 1):
                if len(line) > LINE_CAP and not line.endswith("\n"):
                    self.too_long = True
                    self.log("#", f"the engine wrote a line longer than {LINE_CAP:,} "
                                  f"characters, which begins {line[:60]!r}")
                    self.end_group()
                    break
                line = line.rstrip("\r\n")
                self.log("<", line)
                self.queue_line(line)
        except (OSError, ValueError):
            pass
        self.eof = True
        self.queue_line(None)

    def _read_stderr(self, stream) -> None:
        try:
            while line := stream.readline(LINE_CAP):
                line = line.rstrip("\r\n")
                if OUT_OF_MEMORY.search(line):
                    self.out_of_memory = True
                self.log("!", line)
        except (OSError, ValueError):
            pass

    def send(self, line: str, phase: str) -> None:
        self.log(">", line)
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (OSError, ValueError):  # the engine has gone: say how
            raise self.ended(phase) from None

    def poll(self, phase: str) -> str | None:
        """The engine's next line if one comes within POLL_SECONDS, else None; the end
        of its output is a fault."""
        try:
            line = self.lines.get(timeout=POLL_SECONDS)
        except queue.Empty:
            return None
        if line is None:
            self.lines.put(None)  # every later read sees the end too
            raise self.ended(phase)
        return line

    def next_line(self, deadline: float, control: SearchControl | None, phase: str
                  ) -> str | None:
        """The engine's next line, or None at `deadline`; a cancel raises Stopped."""
        while time.perf_counter() < deadline:
            if control is not None and control.stop.is_set():
                raise Stopped
            line = self.poll(phase)
            if line is not None:
                return line
        return None

    def drain(self) -> None:
        """Forget what the engine said after its last answer (it is in the log): what
        is queued now, not what an engine writing without end adds meanwhile."""
        for _ in range(self.lines.qsize()):
            try:
                if self.lines.get_nowait() is None:
                    self.lines.put(None)
                    return
            except queue.Empty:
                return

    # faults

    @property
    def who(self) -> str:
        return f"{self.name} (`{self.cmd}`)" if self.name else f"`{self.cmd}`"

    def fault(self, reason: str) -> AgentFault:
        """The fault `reason` (the rest of a sentence after the engine's name), logged
        and with where to read the log."""
        self.log("#", "fault: " + reason)
        # its name and what it wrote are shown with their escapes, wherever it is said
        return AgentFault(visible(f"The engine {self.who} {reason}; its stderr and the "
                                  f"protocol transcript are in {self.log_path}"))

    def ended(self, phase: str) -> AgentFault:
        """The fault for an engine whose output ended (it exited, most likely, or
        wrote a line over LINE_CAP); its group is ended."""
        if self.too_long:
            fault = self.fault(f"wrote a line longer than the protocol's cap of "
                               f"{LINE_CAP // 10**6} MB {phase}")
            self.kill()
            return fault
        if not self.wait_for_exit(STOP_SECONDS):
            fault = self.fault(f"closed its output {phase}")
            self.kill()
            return fault
        self.end_group()  # helpers it left, which may hold its stderr open
        for reader in self.readers:  # its last words in the log before the fault
            reader.join(timeout=STOP_SECONDS)
        code = self.reap()
        if self.out_of_memory or self.box.over_memory():
            return self.memory_fault(phase)
        if code < 0:
            try:
                how = f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"was killed by signal {-code}"
        else:
            how = f"exited with code {code}"
        return self.fault(f"{how} {phase}")

    def memory_fault(self, phase: str) -> AgentFault:
        """The fault for an engine that went over its memory limit: its own process,
        or (with a cgroup) its tree as a whole."""
        return self.fault(f"ran out of its memory limit {phase} "
                          f"({memory_words(self.memory)}; set mem= to change it)")

    # life

    def alive(self) -> bool:
        return not self.eof and not exited(self.process.pid)

    def wait_for_exit(self, seconds: float) -> bool:
        """Whether the engine's process ends within `seconds` (it is not reaped)."""
        return wait_for_exit(self.process.pid, seconds, POLL_SECONDS)

    def end_group(self) -> None:
        """SIGKILL the engine's process group and its box: the engine and whatever it
        started, even a helper that left the group."""
        end_group(self.process.pid)
        self.box.end()

    def start(self, options: tuple[tuple[str, str], ...], control: SearchControl | None,
              seconds: float | None = None) -> None:
        """The handshake (HANDSHAKE_SECONDS unless `seconds`), then `options` sent as
        setoption lines."""
        seconds = seconds or HANDSHAKE_SECONDS
        self.send(f"plyground {PROTOCOL_VERSION}", "during the handshake")
        deadline = time.perf_counter() + seconds
        while True:
            line = self.next_line(deadline, control, "during the handshake")
            if line is None:
                raise self.fault(f"did not answer `plyground {PROTOCOL_VERSION}` with "
                                 f"`plygroundok` within {seconds:g} s")
            word, _, rest = line.strip().partition(" ")
            rest = rest.strip()
            if word == "plygroundok":
                break
            if word == "id":
                field, _, value = rest.partition(" ")
                if field == "name" and value.strip():
                    self.name = value.strip()
                elif field == "author":
                    self.author = value.strip()
            elif word == "option":
                self.read_option(line)
            # any other line: ignored (it is in the log)
        if self.name is None:
            raise self.fault("ended its handshake without an `id name <name>` line")
        for name, value in options:
            if name not in self.options:
                known = ", ".join(self.options) or "none"
                raise self.fault(f"has no option {name!r} (its options: {known})")
            kind = self.options[name][0]
            try:
                kind(value)
            except ValueError:
                wanted = {int: "a whole number", float: "a number"}[kind]
                raise self.fault(f"wants {wanted} for its option {name}, not "
                                 f"{value!r}") from None
            self.send(f"setoption name {name} value {value}", "as it was given options")

    def read_option(self, line: str) -> None:
        """`option name <name> type <int|float|string> default <value>`."""
        match = re.fullmatch(r"option\s+name\s+(\S+)\s+type\s+(\S+)\s+default"
                             r"(?:\s+(.*))?", line.strip())
        if match is None or match[2] not in OPTION_TYPES:
            raise self.fault(f"announced an option in a line that does not read as "
                             f"`option name <name> type <int|float|string> default "
                             f"<value>`: {line.strip()!r}")
        self.options[match[1]] = (OPTION_TYPES[match[2]], match[3] or "")

    def kill(self) -> None:
        """End the engine's whole process tree (its group and its box), then reap it."""
        self.end_group()
        self.reap(STOP_SECONDS)
        self.close_log()

    def reap(self, seconds: float | None = None) -> int | None:
        """The engine's exit code once its process has ended (None if it does not
        within `seconds`)."""
        try:
            code = self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return None
        _groups.discard(self.process.pid)
        return code

    def close_log(self) -> None:
        code = self.process.poll()
        self.log("#", "the engine ended" + ("" if code is None else
                                            f" (exit code {code})"))
        with self.log_lock:
            self.log_file.close()

    # a search

    def search(self, state, budget: Budget, observer: Any, control: SearchControl,
               seconds: float) -> SearchDone:
        """isready, position, go; then the engine's info lines as Info events until its
        bestmove. `stop` goes when the search is cancelled or its time has passed."""
        with self.lock:
            self.drain()
            self.send("isready", "before its search")
            deadline = time.perf_counter() + READY_SECONDS
            while True:
                line = self.next_line(deadline, control, "before its search")
                if line is None:
                    raise self.fault("did not answer `isready` within "
                                     f"{READY_SECONDS:g} s")
                if line.strip() == "readyok":
                    break
            game = state.game
            self.send(f"position {game.spec} {game.format_position(state)}".rstrip(),
                      "before its search")
            go = f"go time {seconds:g}"
            if budget.depth is not None:
                go += f" depth {budget.depth}"
            if budget.nodes is not None:
                go += f" nodes {budget.nodes}"
            started = time.perf_counter()
            self.send(go, "during its search")
            done = self.await_bestmove(state, observer, control, go, started, seconds)
            if self.box.over_memory():  # a process of its tree was killed for it
                fault = self.memory_fault("during its search")
                self.kill()
                raise fault
            return done

    def await_bestmove(self, state, observer, control, go: str, started: float,
                       seconds: float) -> SearchDone:
        """The engine's info lines as Info events, until its bestmove. It is told to
        `stop` when its time has passed or the search is cancelled; it is ended, at
        fault, one second after a cancel or one second past the grace every agent from
        outside gets (`Agent.grace_limit`: `seconds * 1.5 + 1`) after `go`."""
        give_up = started + Agent.grace_limit(seconds) + STOP_SECONDS
        stop_sent = False
        infos: list[Info] = []
        while True:
            now = time.perf_counter()
            cancelled = control.stop.is_set()
            if not stop_sent and (cancelled or now >= started + seconds):
                self.send("stop", "during its search")
                stop_sent = True
            if cancelled:
                give_up = min(give_up, now + STOP_SECONDS)
            if now >= give_up:
                fault = self.fault(f"did not answer `{go}` within {now - started:.1f} "
                                   "s, though told to `stop`, and was ended")
                self.kill()
                raise fault
            line = self.poll("during its search")
            if line is None:
                continue
            word, _, rest = line.strip().partition(" ")
            if word == "info":
                info = parse_info(line, state)
                if info is not None:
                    infos.append(info)
                    if observer is not None:
                        observer(info)
            elif word == "bestmove":
                text = rest.strip()
                try:
                    move = state.game.parse_move(text, state)
                except Exception as error:
                    raise self.fault(f"answered `bestmove {text}`, which is not a legal "
                                     f"move here ({error})") from None
                return decision(move, infos, control, stopped=stop_sent)


def parse_info(line: str, state) -> Info | None:
    """An `info` line as an Info event (None if it does not read as one): `depth <d>`,
    `score <s>`, `nodes <n>`, `pv <moves...>`, `string <text...>`, in any order; a pv
    runs to `string` or the end; its moves are read along the line as far as they are
    legal, the rest kept as words in the text."""
    words = [(m.group(), m.start()) for m in re.finditer(r"\S+", line)]
    if not words or words[0][0] != "info":
        return None
    fields: dict[str, Any] = {}
    pv_texts: list[str] = []
    text = ""
    index = 1
    try:
        while index < len(words):
            key = words[index][0]
            if key == "string":
                if index + 1 < len(words):
                    text = line[words[index + 1][1]:].rstrip()
                break
            if key == "pv":
                index += 1
                while index < len(words) and words[index][0] != "string":
                    pv_texts.append(words[index][0])
                    index += 1
                continue
            if key not in ("depth", "nodes", "score"):
                return None
            value = words[index + 1][0]
            fields[key] = float(value) if key == "score" else int(value)
            if key == "score" and not math.isfinite(fields[key]):
                return None
            index += 2
    except (IndexError, ValueError):
        return None
    moves, position = [], state
    for move_text in pv_texts:
        try:
            move = state.game.parse_move(move_text, position)
            position = position.play(move)
        except Exception:
            break
        moves.append(move)
    rest = pv_texts[len(moves):]
    if rest:
        text = " ".join(filter(None, [text, f"(pv then {' '.join(rest)}: not legal "
                                            "moves here)"]))
    # the text is only ever shown: its escapes are shown, never obeyed
    return Info(fields.get("depth"), fields.get("score"), tuple(moves),
                fields.get("nodes"), visible(text))


def decision(move, infos: list[Info], control: SearchControl, stopped: bool
             ) -> SearchDone:
    """The decision from the engine's bestmove and what its info lines said: the pv of
    the last one whose pv starts with the move, its last node count and depth."""
    pv = next((info.pv for info in reversed(infos) if info.pv[:1] == (move,)), (move,))
    nodes = next((info.nodes for info in reversed(infos) if info.nodes is not None), 0)
    depth = next((info.depth for info in reversed(infos) if info.depth is not None), None)
    note = next((info.text for info in reversed(infos) if info.text), "")
    return SearchDone(move, None, pv, nodes, control.elapsed(), depth=depth, note=note,
                      stopped=stopped)


_groups: set[int] = set()  # the process groups of this process's engines, not yet ended
