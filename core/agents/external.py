"""Engines in any language: a program that speaks plyground's engine protocol, a
UCI-like exchange of text lines over its stdin and stdout (docs/engine-protocol.md).

    plyground > plyground 1                 engine > id name Carol
                                            engine > option name level type int default 3
                                            engine > plygroundok
    plyground > setoption name level value 5
    plyground > isready                     engine > readyok
    plyground > position connect4 4453
    plyground > go time 1                   engine > info depth 1 score 12 pv 4 4
                                            engine > bestmove 4
    plyground > quit

`engine:cmd="./carol --fast",time=0.5` plays it. The process starts once per (command,
options, memory limit) in a Python process and serves every move after; its stderr and
the transcript of both directions go to one log file per process (`log_dir()`, up to
LOG_CAP). Whatever the engine does wrong (no start, no handshake, a crash, a late or
illegal answer, a line over LINE_CAP, going over its memory limit) is an AgentFault
whose message names the engine, the reason and that file.

An engine is someone else's program, so it runs boxed (core/agents/box.py,
tree_box.py): each of its processes' address space is limited (`mem=`), its whole
process tree is held in a cgroup of its own where one can be made (the memory limit
then holds for the tree as a whole), and every process of that tree, helpers that left
its process group included, is ended when plyground is done with it.
"""
from __future__ import annotations

import atexit
import os
import shlex
import threading
import time
from typing import Any

from ..errors import AgentFault, BadSetting, visible
from ..ranges import DEEPEST, LONGEST_MOVE, MOST_NODES, SHORTEST_MOVE
from ..search.control import Budget, SearchControl, SearchStopped
from .base import Agent, MEM, Setting, Shows, name_values, split_settings
from .box import DEFAULT_MEMORY, end_group
from .engine_process import (EngineProcess, NAME_SECONDS, STOP_SECONDS, Stopped, _groups,
                             command_name, split_command)


def parse_options(text: str | None) -> tuple[tuple[str, str], ...]:
    """`hash=64 level=3` as (("hash", "64"), ("level", "3"))."""
    return tuple(name_values(
        (text or "").split(), allow_empty=False,
        needs_value=lambda item: (f"engine: option {item!r} needs a value, as in "
                                  'options="hash=64 level=3"'),
        twice=lambda name: f"engine: option {name!r} is given twice").items())


_running: dict[tuple[str, tuple, int], EngineProcess] = {}
_names: dict[str, str] = {}  # command: the name its handshake gave
_running_lock = threading.Lock()


def running_engine(cmd: str, options: tuple[tuple[str, str], ...],
                   memory: int = DEFAULT_MEMORY, control: SearchControl | None = None
                   ) -> EngineProcess:
    """The engine for (cmd, options, memory), started and through its handshake: the
    one this process already runs, or a new one if there is none or it has died."""
    key = (cmd, options, memory)
    with _running_lock:
        engine = _running.get(key)
        if engine is not None and engine.alive():
            return engine
        if engine is not None:
            del _running[key]
            engine.kill()
        engine = EngineProcess(cmd, memory)
        try:
            engine.start(options, control)
        except Stopped:
            engine.kill()
            raise SearchStopped from None
        except BaseException:
            engine.kill()
            raise
        _names[cmd] = engine.name
        _running[key] = engine
        return engine


def engine_name(cmd: str) -> str:
    """The name the engine gives itself: known once it has started in this process,
    else learned by a handshake (quit at once) and remembered; its command's name if
    that fails."""
    if cmd not in _names:
        try:
            engine = EngineProcess(cmd)
            try:
                engine.start((), None, NAME_SECONDS)
                _names[cmd] = engine.name
            finally:
                close_engines([engine])
        except Exception:
            _names[cmd] = command_name(cmd)
    return _names[cmd]


def close_engines(engines=None) -> None:
    """Say `quit` to the engines (every running one if None), give them a second to
    exit, then end each one's process group (what they started goes with them)."""
    if engines is None:
        with _running_lock:
            engines = list(_running.values())
            _running.clear()
    for engine in engines:
        if engine.alive():
            try:
                engine.send("quit", "at quit")
            except AgentFault:
                pass
    deadline = time.perf_counter() + STOP_SECONDS
    for engine in engines:
        engine.wait_for_exit(max(0.0, deadline - time.perf_counter()))
        engine.kill()


def end_all_groups() -> None:
    """SIGKILL every engine's process group, at once and taking no lock: for a signal
    handler, in a process about to exit."""
    for group in list(_groups):
        end_group(group)


def _forget_engines() -> None:
    """In a forked child: the parent's engines are not its own to use or to close."""
    _running.clear()
    _groups.clear()


atexit.register(close_engines)
os.register_at_fork(after_in_child=_forget_engines)
try:  # a multiprocessing child (the app's search process, a match worker) skips atexit
    from multiprocessing.util import Finalize

    Finalize(None, close_engines, exitpriority=10)
except ImportError:  # pragma: no cover
    pass


def cmd_setting(settings: str) -> str | None:
    """The `cmd` in an engine's settings text (None if there is none), read without
    making the agent; BadSetting if the text cannot be split into settings."""
    for item in split_settings(settings):
        name, _, value = item.partition("=")
        if name.strip() == "cmd":
            return value.strip()
    return None


class EngineAgent(Agent):
    """A program in any language, played through the engine protocol."""

    kind, title = "engine", "Engine"
    description = ("a program in any language that speaks plyground's engine protocol "
                   "(docs/engine-protocol.md)")
    settings_spec = (
        Setting("cmd", str, None, "the command that starts the engine, e.g. "
                "\"./mybot --fast\" (required)"),
        Setting("time", float, 1.0, "seconds per move", minimum=SHORTEST_MOVE,
                maximum=LONGEST_MOVE),
        Setting("depth", int, None, "the deepest search, passed on in `go`", minimum=1,
                maximum=DEEPEST),
        Setting("nodes", int, None, "a node limit, passed on in `go`", minimum=1,
                maximum=MOST_NODES),
        Setting("options", str, None, "the engine's own options, e.g. "
                "\"hash=64 level=3\""),
        MEM,
    )
    main_setting = "time"
    shows = Shows.INFO
    external = True

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        cmd = self.settings["cmd"]
        if cmd is None or not str(cmd).strip():
            raise BadSetting("engine: the setting cmd is required: the command that "
                             "starts the engine, as in engine:cmd=\"./mybot --flag\"")
        split_command(cmd)  # a BadSetting now rather than at its first move
        self.options = parse_options(self.settings["options"])

    @classmethod
    def outside_code(cls, settings: str) -> str:
        """The command line its `cmd` starts, as a shell would read it."""
        try:
            cmd = cmd_setting(settings)
        except BadSetting:
            return f"the command in {settings!r}"
        if cmd is None:
            return "a command (no cmd given)"
        try:
            return f"the command {shlex.join(split_command(cmd))}"
        except BadSetting:
            return f"the command {cmd!r}"

    @classmethod
    def command_words(cls, settings: str) -> list[str] | None:
        """The program and each argument its `cmd` starts, as they are passed to it
        (the consent dialog shows one a line); None if there is no such command."""
        try:
            cmd = cmd_setting(settings)
            return None if cmd is None else split_command(cmd) or None
        except BadSetting:
            return None

    @classmethod
    def menu_choices(cls) -> list[tuple[str, str]]:
        """None of its own: the menu's "Other agent…" box takes `engine:cmd=…`."""
        return []

    @property
    def label(self) -> str:
        """The engine's own name, e.g. `Carol (engine, 1s)`: the engine said it, so it
        is shown with its escapes (`\\x1b`), never as terminal codes."""
        return (f"{visible(engine_name(self.settings['cmd']))} "
                f"(engine, {self.settings['time']:g}s)")

    def budget(self) -> Budget:
        return Budget(time=self.settings["time"], depth=self.settings["depth"],
                      nodes=self.settings["nodes"])

    def prepare(self) -> None:
        """Start the engine (once per process) before the first move's clock starts."""
        running_engine(self.settings["cmd"], self.options, self.settings["mem"])

    def search(self, state, budget, observer, control, exact_root):
        engine = running_engine(self.settings["cmd"], self.options, self.settings["mem"],
                                control)
        seconds = budget.time if budget.time is not None else self.settings["time"]
        try:
            return engine.search(state, budget, observer, control, seconds)
        except Stopped:
            raise SearchStopped from None
