"""The box a served app runs in: a memory ceiling over the app and everything it
starts, and the end of all of it when its session ends.

A visitor chooses what the app does (a search of a million seconds, say), and the
server's machine is the teacher's: one visitor's app must lose its session, not take
the machine and the class's other sessions with it.

Where the system lets plyground make a cgroup (core.agents.tree_box.TreeBox), the app and
its descendants run in one, the ceiling held by the kernel and the whole group ended
at once. Elsewhere the resident memory of the app and the processes below it is added
up every time the server looks (about once a second), and the session is ended when
the sum is over the ceiling; at the end they are killed, and the app's process group
with them. A process that leaves the tree (a helper whose parent has gone) is then
neither counted nor ended, unless it stayed in the app's process group, and an
allocation faster than the server looks can go over before it is seen.
"""
from __future__ import annotations

import os
import signal
from typing import Protocol

from plyground.core.agents.box import memory_words
from plyground.core.agents.tree_box import TreeBox, processes

PAGE = os.sysconf("SC_PAGE_SIZE")


class AppBox(Protocol):
    """What the server asks of a served app's box (core.agents.tree_box.TreeBox has
    it all)."""

    bounded: bool  # whether the kernel holds the ceiling over the whole tree

    def preexec(self) -> None:
        """In the app's process, before it runs the app."""

    def add(self, pid: int) -> None:
        """The app's process, once started."""

    def over_memory(self) -> bool:
        """Whether the app's tree went over its ceiling (then it is ended, or being)."""

    def end(self) -> None:
        """Every process of the app ended (SIGKILL); the box let go."""


def members(leader: int) -> list[int]:
    """Process `leader` and the live processes below it (Linux's /proc)."""
    table = processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _, state) in table.items():
        if state != "Z":
            children.setdefault(parent, []).append(pid)
    found, todo = [], [leader] if leader in table else []
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def resident(pid: int) -> int:
    """The resident memory of process `pid`, in bytes (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


class GroupBox:
    """The fallback box: the resident memory of the app and the processes below it,
    summed when asked; the app leads a process group (the server starts it with
    `process_group=0`), killed with them at the end."""

    bounded = False

    def __init__(self, memory: int) -> None:
        self.memory = memory
        self.leader: int | None = None
        self.went_over = False

    def preexec(self) -> None:
        pass

    def add(self, pid: int) -> None:
        self.leader = pid

    def over_memory(self) -> bool:
        if not self.went_over and self.leader is not None:
            used = sum(resident(pid) for pid in members(self.leader))
            self.went_over = used > self.memory
        return self.went_over

    def end(self) -> None:
        if self.leader is None:
            return
        for _ in range(3):  # again, for what forked meanwhile
            for pid in members(self.leader):
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        try:
            os.killpg(self.leader, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


class Boxes:
    """How this server boxes its apps, found once as it starts: a cgroup for each
    app's tree where the system gives one (TreeBox), else its tree measured."""

    def __init__(self, memory: int) -> None:
        self.memory = memory
        probe = TreeBox.make("serve-probe", memory)
        self.whole = probe.bounded
        self.why_not = probe.note  # why the tree is not bounded as a whole
        probe.end()

    def make(self, name: str) -> AppBox:
        """The box for one app, before it starts."""
        if self.whole:
            box = TreeBox.make(name, self.memory)
            if box.bounded:
                return box
            box.end()  # none this time: the fallback's subreaper is not for a server
        return GroupBox(self.memory)

    def words(self) -> str:
        """How the ceiling holds, as the server says at its start."""
        if self.whole:
            return "A control group holds each app's ceiling, over all its processes."
        return (f"No control group here ({self.why_not.rsplit(': ', 1)[-1]}): each "
                "app's processes are measured about once a second.")


def ceiling_words(memory: int) -> str:
    """`over its memory ceiling (1 GiB)`, as the server's line and the page say it."""
    return f"over its memory ceiling ({memory_words(memory)})"
