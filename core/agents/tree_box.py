"""The box around an agent's whole process tree: a control group where plyground can
make one (core/agents/cgroup.py), else a subreaper.

With a group, the tree's memory is bounded as a whole and every process in it is
ended at the end, wherever it moved in the process tree. Without one (no permission,
no controllers, not Linux, or PLYGROUND_NO_CGROUP set), plyground's process that
starts the agent becomes a child subreaper (PR_SET_CHILD_SUBREAPER): a helper that
calls setsid() and forks twice is handed to it, not to init, so that at the end every
descendant of the agent, and every orphan handed to plyground since the box was made,
is found in /proc and killed. The memory is then bounded per process only (RLIMIT_AS,
core/agents/box.py), which `bounded` and `note` say.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
import time

from .cgroup import Group, Unavailable

# processes and threads a tree may hold at once: room for a search on every core
DEFAULT_TASKS = max(1024, 8 * (os.cpu_count() or 1))
MARK = "PLYGROUND_BOX"  # in an agent's environment: the box it belongs to
PR_SET_CHILD_SUBREAPER = 36
REAP_ROUNDS = 20  # passes over /proc at the end, while the tree forks as it is killed
REAP_SECONDS = 5.0  # the most a killed orphan may take to be reaped
_roots: set[int] = set()  # the agents' own processes, of every box open here
_open_fallbacks = 0
_lock = threading.Lock()  # for the two above, and for each box's `ended`


def cgroups_refused() -> bool:
    """PLYGROUND_NO_CGROUP=1: make no group (to test the fallback, or on a system
    whose groups misbehave)."""
    return os.environ.get("PLYGROUND_NO_CGROUP", "") not in ("", "0")


class TreeBox:
    """One agent's tree: `make` it, start the agent's process with `preexec` (or call
    it in a forked child), `add` that process, and `end` it when the agent is done."""

    def __init__(self, name: str, memory: int | None, group: Group | None,
                 note: str) -> None:
        self.name, self.memory, self.group, self.note = name, memory, group, note
        self.id = f"{os.getpid()}-{id(self):x}"
        self.roots: list[int] = []
        self.made = boot_ticks()
        self.ended = False

    @classmethod
    def make(cls, name: str, memory: int | None, pids: int | None = DEFAULT_TASKS
             ) -> "TreeBox":
        """A box for agent `name`, its tree limited to `memory` bytes (None: no limit)
        and `pids` tasks. Never fails: where no group can be made, the box falls back
        and `note` says why in one line."""
        if cgroups_refused():
            return cls.fallback(name, memory, "cgroups are turned off "
                                              "(PLYGROUND_NO_CGROUP)")
        try:
            return cls(name, memory, Group.make(name, memory, pids), "")
        except Unavailable as why:
            return cls.fallback(name, memory, str(why))

    @classmethod
    def fallback(cls, name: str, memory: int | None, why: str) -> "TreeBox":
        global _open_fallbacks
        with _lock:
            subreaper(True)
            _open_fallbacks += 1
        return cls(name, memory, None, "the memory limit holds for each of the agent's "
                   f"processes, not for its process tree as a whole: {why}")

    @property
    def bounded(self) -> bool:
        """Whether a control group holds the tree as a whole."""
        return self.group is not None

    def preexec(self) -> None:
        """In the agent's process, before its program starts: into the group (or, in
        the fallback, marked as the box's in its environment)."""
        if self.group is not None:
            self.group.join(0)
        else:  # below the marks of the boxes this process is in itself
            os.environ[MARK] = "/".join(filter(None, [os.environ.get(MARK), self.id]))

    def add(self, pid: int) -> None:
        """Process `pid` (our child) is the agent's: in the group (unless its
        `preexec` put it there), and ended with it."""
        if self.group is not None and not self.group.holds(pid):
            try:
                self.group.join(pid)
            except OSError:  # it has ended already
                pass
        self.roots.append(pid)
        with _lock:
            _roots.add(pid)

    def over_memory(self) -> bool:
        """Whether the tree went over its memory limit (a process of it was killed by
        the kernel for it); always False without a limit, and in the fallback, which
        bounds no tree."""
        return self.memory is not None and self.group is not None and \
            self.group.over_memory()

    def end(self) -> None:
        """End every process of the tree (the agent's own processes are not reaped:
        their starters do that). Once; later calls do nothing."""
        global _open_fallbacks
        with _lock:
            if self.ended:
                return
            self.ended = True
        try:
            if self.group is not None:
                self.group.end()
            else:
                end_descendants(self)
        finally:
            with _lock:
                _roots.difference_update(self.roots)
                if self.group is None:
                    _open_fallbacks -= 1
                    if _open_fallbacks == 0:
                        subreaper(False)

    def __getstate__(self) -> dict:
        # a copy in another process ends nothing: the box is this process's to end
        return {**self.__dict__, "roots": [], "ended": True}


def subreaper(on: bool) -> None:
    """This process as a child subreaper (Linux; nothing elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0)
    except (OSError, AttributeError):
        pass


def boot_ticks() -> int:
    """Now, in clock ticks since boot (as /proc/<pid>/stat gives a start time), less
    one for the rounding."""
    try:
        with open("/proc/uptime") as uptime:
            seconds = float(uptime.read().split()[0])
        return int(seconds * os.sysconf("SC_CLK_TCK")) - 1
    except (OSError, ValueError, IndexError):
        return 0


def processes() -> dict[int, tuple[int, int, int, str]]:
    """Every live process: {pid: (parent, session, start time, state)}."""
    found = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        found[int(entry)] = (int(fields[1]), int(fields[3]), int(fields[19]), fields[0])
    return found


def mark_of(pid: int) -> str | None:
    """The box a process's environment says it belongs to ("" if none, None if its
    environment cannot be read)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            for item in environ.read().split(b"\0"):
                if item.startswith(MARK.encode() + b"="):
                    return item.split(b"=", 1)[1].decode(errors="replace")
    except OSError:
        return None
    return ""


def orphan_of(box: TreeBox, pid: int, info: tuple[int, int, int, str],
              session: int) -> bool:
    """Whether our child `pid`, which we did not start, was handed to us from `box`'s
    tree: marked as the box's (or as a box's inside it), or unmarked (its
    environment emptied), out of our session and born since the box was made."""
    if pid in _roots:
        return False
    mark = mark_of(pid)
    if mark and box.id in mark.split("/"):
        return True
    return not mark and info[1] != session and info[2] >= box.made


def unreaped(pid: int) -> bool:
    """Whether our child `pid` is not reaped yet: its id is still its own."""
    try:
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        return True
    except ChildProcessError:
        return False


def end_descendants(box: TreeBox) -> None:
    """The fallback's end: SIGKILL the agent's processes, their groups, every process
    below them and every orphan of the tree handed to us; again while any is left
    (one may fork meanwhile); then reap the orphans, which are our children now."""
    me = os.getpid()
    session = os.getsid(0)
    orphans: set[int] = set()
    for _ in range(REAP_ROUNDS):
        table = processes()
        children: dict[int, list[int]] = {}
        for pid, info in table.items():
            children.setdefault(info[0], []).append(pid)
        top = [pid for pid in box.roots if pid in table and unreaped(pid)]
        found = [pid for pid in children.get(me, [])
                 if pid not in box.roots and orphan_of(box, pid, table[pid], session)]
        orphans.update(found)
        todo, targets = top + found, set()
        while todo:
            pid = todo.pop()
            if pid not in targets:
                targets.add(pid)
                todo.extend(children.get(pid, []))
        live = [pid for pid in targets if table[pid][3] != "Z"]
        for pid in top:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
        if not live:
            break
        for pid in live:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.001)
    deadline = time.monotonic() + REAP_SECONDS
    while orphans and time.monotonic() < deadline:
        for pid in list(orphans):
            try:
                if os.waitpid(pid, os.WNOHANG)[0]:
                    orphans.discard(pid)
            except ChildProcessError:
                orphans.discard(pid)
        time.sleep(0.001)
