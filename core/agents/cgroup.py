"""A Linux control group for one agent's processes, made inside plyground's own group:
limited as a whole (memory, swap, number of tasks) and ended as a whole.

A per-process limit (RLIMIT_AS) bounds each process, not the tree: an agent that forks
four helpers gets four times its memory, and a helper that calls setsid() leaves the
process group that is killed at the end. A cgroup holds every process started inside
it, whatever it does, and the kernel charges their memory to it together.

Both kinds of hierarchy are handled: cgroup v1 (one mount per controller: memory, pids
and freezer are used; the group is made at this process's own path in each) and v2
(one mount, where it gives the memory and pids controllers to groups made below ours).
Anything missing (not Linux, no permission, no controller) is `Unavailable`, with the
reason: core/agents/tree_box.py then falls back to what a process can do on its own.
"""
from __future__ import annotations

import itertools
import os
import signal
import time
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
V1_CONTROLLERS = ("memory", "pids", "freezer")  # memory first: it is the one that bounds
PREFIX = "plyground-"
END_SECONDS = 5.0  # the most a killed group's tasks may take to be gone
_numbers = itertools.count(1)


class Unavailable(Exception):
    """No group can be made here; the message says why, as the rest of a sentence."""


def mounts() -> tuple[dict[str, tuple[str, Path]], tuple[str, Path] | None]:
    """The cgroup mounts this process sees: v1's as {controller: (the hierarchy's path
    at the mount, the mount point)}, and v2's (the same pair) or None."""
    v1: dict[str, tuple[str, Path]] = {}
    v2 = None
    try:
        with open("/proc/self/mountinfo") as info:
            lines = info.read().splitlines()
    except OSError:
        return v1, v2
    for line in lines:
        fields, _, rest = line.partition(" - ")
        words, kinds = fields.split(), rest.split()
        if len(words) < 5 or len(kinds) < 3:
            continue
        root, point = unescape(words[3]), Path(unescape(words[4]))
        if kinds[0] == "cgroup2" and v2 is None:
            v2 = (root, point)
        elif kinds[0] == "cgroup":
            for option in kinds[2].split(","):
                v1.setdefault(option, (root, point))
    return v1, v2


def unescape(text: str) -> str:
    """mountinfo writes a space, tab, newline or backslash in a path as \\ooo."""
    return text.encode().decode("unicode_escape") if "\\" in text else text


def own_paths() -> dict[str, str]:
    """This process's group in each hierarchy: {controller: path} for v1, and
    {"": path} for v2."""
    paths = {}
    try:
        with open("/proc/self/cgroup") as groups:
            for line in groups.read().splitlines():
                _, controllers, path = line.split(":", 2)
                for controller in controllers.split(",") if controllers else [""]:
                    paths[controller] = path
    except (OSError, ValueError):
        pass
    return paths


def folder(mount: tuple[str, Path], path: str) -> Path:
    """The folder of group `path` under a mount of its hierarchy."""
    root, point = mount
    inside = os.path.relpath(path, root) if path.startswith(root) else path
    return point / inside.lstrip("/") if inside != "." else point


def pid_space() -> int:
    """Which pid namespace this process sees (0 if unknown): a group's name says whose
    pid it holds, so that a sweep never takes a pid of another namespace for ours."""
    try:
        return os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return 0


def write(path: Path, text: str) -> None:
    with open(path, "w") as file:
        file.write(text)


def read(path: Path) -> str:
    try:
        with open(path) as file:
            return file.read()
    except OSError:
        return ""


def counter(text: str, key: str) -> int | None:
    """`key`'s number in a flat-keyed file (`oom_kill 1`), None if it is not there."""
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name == key and value.strip().isdigit():
            return int(value)
    return None


def tasks_of(group: Path) -> list[int]:
    """The processes in `group` and in the groups below it."""
    found = []
    for place, _, _ in os.walk(group):
        found.extend(int(word) for word in read(Path(place) / "cgroup.procs").split())
    return found


class Group:
    """An agent's group: one folder in each hierarchy used (`folders`, the memory
    hierarchy's first), v1 or v2 (`version`)."""

    def __init__(self, folders: list[Path], version: int) -> None:
        self.folders, self.version = folders, version
        self.ended = False
        self.went_over = False  # what over_memory said as the group ended

    @classmethod
    def make(cls, name: str, memory: int | None, tasks: int | None) -> "Group":
        """A new group inside this process's own, limited to `memory` bytes (and as
        much with swap) and `tasks` processes and threads (None: no limit), or
        Unavailable."""
        if not os.path.isdir(ROOT) and not os.path.exists("/proc/self/cgroup"):
            raise Unavailable("this system has no control groups (Linux's cgroups)")
        v1, v2 = mounts()
        paths = own_paths()
        label = PREFIX + f"{pid_space()}-{os.getpid()}-{next(_numbers)}-" + "".join(
            c if c.isalnum() or c in "-_." else "_" for c in name)[:40]
        if all(c in v1 and c in paths for c in V1_CONTROLLERS):
            bases = [folder(v1[c], paths[c]) for c in V1_CONTROLLERS]
            group = cls([base / label for base in bases], 1)
        elif v2 is not None and "" in paths:
            base = folder(v2, paths[""])
            offered = read(base / "cgroup.controllers").split()
            if not {"memory", "pids"} <= set(offered):
                raise Unavailable("the cgroup v2 group plyground runs in does not offer "
                                  "the memory and pids controllers")
            enable_below(base)
            group = cls([base / label], 2)
        else:
            raise Unavailable("no cgroup hierarchy here holds the memory, pids and "
                              "freezer controllers")
        for base in group.folders:
            sweep(base.parent)
        try:
            for place in group.folders:
                place.mkdir()
            group.limit(memory, tasks)
        except OSError as error:
            group.remove()
            raise Unavailable(f"a control group could not be made in {place.parent} "
                              f"({error.strerror or error})") from None
        return group

    def limit(self, memory: int | None, tasks: int | None) -> None:
        memory_folder = self.folders[0]
        if memory is not None and memory >= 1 << 62:  # beyond any machine's: no limit
            memory = None
        if self.version == 1:
            if memory is not None:
                write(memory_folder / "memory.limit_in_bytes", str(memory))
                if (memory_folder / "memory.memsw.limit_in_bytes").exists():
                    write(memory_folder / "memory.memsw.limit_in_bytes", str(memory))
            write(self.folders[1] / "pids.max", str(tasks) if tasks else "max")
        else:
            if memory is not None:
                write(memory_folder / "memory.max", str(memory))
                if (memory_folder / "memory.swap.max").exists():
                    write(memory_folder / "memory.swap.max", "0")
            write(memory_folder / "pids.max", str(tasks) if tasks else "max")

    def join(self, pid: int) -> None:
        """Put process `pid` (0: this one, which must have a single thread, as a
        child between fork and exec has) in the group, in every hierarchy: what it
        starts from then on is in it too. v1 moves this thread, written as 0 to
        `tasks`, without the lock that moving another process takes, whose wait for
        the kernel's RCU grace period would otherwise add milliseconds to every
        agent's start."""
        for place in self.folders:
            if pid == 0 and self.version == 1:
                write(place / "tasks", "0")
            else:
                write(place / "cgroup.procs", str(pid or os.getpid()))

    def holds(self, pid: int) -> bool:
        """Whether process `pid` is in the group already."""
        return str(pid) in read(self.folders[0] / "cgroup.procs").split()

    def over_memory(self) -> bool:
        """Whether the kernel has killed a process of the group for going over its
        memory limit (or, on a kernel that does not count those, whether its usage
        reached the limit); after `end`, whether it had."""
        if self.ended:
            return self.went_over
        if self.version == 1:
            control = read(self.folders[0] / "memory.oom_control")
            kills = counter(control, "oom_kill")
            if kills is None:
                return read(self.folders[0] / "memory.failcnt").strip() not in ("", "0")
            return kills > 0
        return (counter(read(self.folders[0] / "memory.events"), "oom_kill") or 0) > 0

    def usage(self) -> int:
        """The bytes of memory its processes take now, as the kernel charges them."""
        name = "memory.usage_in_bytes" if self.version == 1 else "memory.current"
        text = read(self.folders[0] / name).strip()
        return int(text) if text.isdigit() else 0

    def end(self) -> None:
        """Kill every process in the group and below it, then remove the group (once;
        later calls do nothing). Frozen first, so that none can fork or exit while
        the list of them is read and each is sent SIGKILL (v1 has no cgroup.kill)."""
        if self.ended:
            return
        self.went_over = self.over_memory()
        self.ended = True
        kill_all(self.folders[-1], self.version)
        deadline = time.monotonic() + END_SECONDS
        while any(tasks_of(place) for place in self.folders):
            if time.monotonic() > deadline:
                break
            time.sleep(0.001)
        self.remove()

    def remove(self) -> None:
        for place in self.folders:
            remove_tree(place)


def kill_all(place: Path, version: int) -> None:
    """SIGKILL every process of the group at `place` (v1: its freezer folder) and of
    the groups below it."""
    if version == 2 and (place / "cgroup.kill").exists():
        try:
            write(place / "cgroup.kill", "1")
            return
        except OSError:
            pass
    state, frozen, thawed = (("freezer.state", "FROZEN", "THAWED") if version == 1
                             else ("cgroup.freeze", "1", "0"))
    try:
        write(place / state, frozen)
    except OSError:
        pass
    deadline = time.monotonic() + 1.0
    while version == 1 and read(place / state).strip() == "FREEZING" and \
            time.monotonic() < deadline:
        time.sleep(0.001)
    for pid in tasks_of(place):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        write(place / state, thawed)
    except OSError:
        pass


def remove_tree(place: Path) -> None:
    """rmdir a group and the groups below it, deepest first; one that still has
    processes stays (a later sweep ends it)."""
    for inner, _, _ in sorted(os.walk(place), key=lambda entry: -len(entry[0])):
        try:
            os.rmdir(inner)
        except OSError:
            pass


def enable_below(base: Path) -> None:
    """v2: give groups below `base` the memory and pids controllers, or Unavailable
    (v2 lets a group that holds processes itself give none, but at the root)."""
    given = read(base / "cgroup.subtree_control").split()
    if {"memory", "pids"} <= set(given):
        return
    try:
        write(base / "cgroup.subtree_control", "+memory +pids")
    except OSError as error:
        raise Unavailable(f"the cgroup v2 group plyground runs in ({base}) cannot give "
                          f"its memory and pids controllers to a group below it "
                          f"({error.strerror or error})") from None


def sweep(base: Path) -> None:
    """End the groups a plyground process of our pid namespace that has gone left in
    `base` (one killed by SIGKILL removes none): their processes are ended and the
    folders removed."""
    try:
        names = os.listdir(base)
    except OSError:
        return
    for name in names:
        if not name.startswith(PREFIX):
            continue
        space, _, rest = name[len(PREFIX):].partition("-")
        owner = rest.partition("-")[0]
        if space == str(pid_space()) and owner.isdigit() and \
                not os.path.exists(f"/proc/{owner}"):
            version = 2 if (base / name / "cgroup.kill").exists() or \
                (base / name / "cgroup.freeze").exists() else 1
            if version == 2 or (base / name / "freezer.state").exists():
                kill_all(base / name, version)
            else:  # its memory or pids folder: the freezer's own sweep ends it
                for pid in tasks_of(base / name):
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
            remove_tree(base / name)
