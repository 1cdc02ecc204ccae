"""Processes as /proc shows them, for the tests that check nothing is left running."""
from __future__ import annotations

import os
import signal
import subprocess
import time


def stat_fields(pid: int) -> list[str] | None:
    """/proc/<pid>/stat's fields after the command name (state, parent, group,
    session, ...), or None once the process is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def running(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie is not)."""
    fields = stat_fields(pid)
    return fields is not None and fields[0] != "Z"


def still_running(pids, seconds: float = 30) -> list[int]:
    """Those of `pids` still running once `seconds` have passed, or as soon as none
    is (a process told to stop may take a moment on a busy machine)."""
    deadline = time.monotonic() + seconds
    while (left := [pid for pid in pids if running(pid)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def live_processes() -> list[int]:
    return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]


def descendants(pid: int) -> set[int]:
    """The processes below `pid`."""
    children: dict[int, list[int]] = {}
    for process in live_processes():
        fields = stat_fields(process)
        if fields is not None:
            children.setdefault(int(fields[1]), []).append(process)
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def in_session(session: int) -> list[int]:
    """The live processes of session `session`: a command started as the leader of a
    session of its own, and every process it started, even one its parent left."""
    members = []
    for process in live_processes():
        fields = stat_fields(process)
        if fields is not None and fields[0] != "Z" and int(fields[3]) == session:
            members.append(process)
    return members


def as_from_a_terminal() -> None:
    """For a child, before it runs its program: SIGINT and SIGHUP at their defaults, as
    a shell in a terminal leaves them. A suite started in the background by a script
    (`cmd &`, nohup) ignores them, and its children would inherit that: a command a
    test interrupts would then ignore Ctrl-C."""
    for number in (signal.SIGINT, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)


def end_session(process: subprocess.Popen) -> None:
    """The session `process` leads ended, with all it started (a server and its
    apps): Ctrl-C, then SIGKILL for sure."""
    for sent in (signal.SIGINT, signal.SIGKILL):  # Ctrl-C, then for sure
        try:
            os.killpg(process.pid, sent)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=10)
            return
        except subprocess.TimeoutExpired:
            continue
