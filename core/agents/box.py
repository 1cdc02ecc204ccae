"""The box an agent from outside plyground runs in: a limit on each of its processes'
memory (its address space, RLIMIT_AS) and the end of its whole process group when it
is done. core/agents/tree_box.py holds the rest: the tree as a whole, in a cgroup
where one can be made.

An engine or a Python bot is someone else's code: one that allocates without end must
lose its game, not take the machine; one that starts helpers must not leave them
running after its game. The limit is a setting of each such agent, `mem=2G`; going
over it is a forfeit that names it.
"""
from __future__ import annotations

import os
import re
import resource
import signal
import time

# Room for what a normal agent needs, with a margin: a bot's process with plyground
# imported takes about 30 MB of address space (examples/bots/mybot.py plays with
# mem=64M), with numpy 150 MB, with one game's numba kernels 410 MB and every game's
# 870 MB; the reference engine, which borrows plyground's rules, 170 MB.
DEFAULT_MEMORY = 2 << 30
SMALLEST_MEMORY = 16 << 20
UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_memory(text: str) -> int:
    """`512M`, `2G`, `1.5G` (K, M, G or T: powers of 1024; `MB`, `MiB` too) or a
    number of bytes, as bytes; ValueError for anything else."""
    match = re.fullmatch(r"\s*([0-9]+)(\.[0-9]+)?\s*(?:([KMGT])i?)?B?\s*", text,
                         re.IGNORECASE)
    if match is None:
        raise ValueError(text)
    unit = UNITS[match[3].upper()] if match[3] else 1
    if match[2] is None:
        return int(match[1]) * unit
    try:
        return int(float(match[1] + match[2]) * unit)
    except OverflowError:  # more digits than a float holds: no machine's memory
        raise ValueError(text) from None


def memory_text(size: int) -> str:
    """Bytes as a spec writes them, read back the same by `parse_memory`: `2G`, `1536M`,
    or the bytes if no unit divides them."""
    for unit in "TGMK":
        if size and size % UNITS[unit] == 0:
            return f"{size // UNITS[unit]}{unit}"
    return str(size)


def memory_words(size: int) -> str:
    """Bytes as a message says them: `2 GiB`, `512 MiB`, `1.5 GiB`."""
    for unit in "TGMK":
        if size >= UNITS[unit]:
            return f"{size / UNITS[unit]:.4g} {unit}iB"
    return f"{size} bytes"


def memory_within(text: str, most: int) -> int:
    """`text` as bytes (`parse_memory`), from SMALLEST_MEMORY to `most` (this machine's
    memory, say); else ValueError whose words follow the value in a message."""
    try:
        size = parse_memory(text)
    except ValueError:
        raise ValueError("is not a memory size: give a number and a unit, as in 512M "
                         "or 2G") from None
    if size < SMALLEST_MEMORY:
        raise ValueError(f"is less than {memory_words(SMALLEST_MEMORY)}")
    if size > most:
        raise ValueError(f"is more than this machine's memory ({memory_words(most)})")
    return size


def memory_fault(who: str, size: int) -> str:
    """The forfeit's reason for an agent that went over its limit."""
    return (f"{who} ran out of its memory limit ({memory_words(size)}; set mem= to "
            "change it)")


def limit_memory(size: int) -> None:
    """Limit this process's address space to `size` bytes, for good (the hard limit
    too, so that the code inside cannot lift it), or to the limit it already has if
    that is lower. (A size beyond any machine's is no limit.)"""
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = size if size < 1 << 62 else resource.RLIM_INFINITY
    if hard != resource.RLIM_INFINITY and (limit == resource.RLIM_INFINITY or limit > hard):
        limit = hard
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def caused_by_memory(error: BaseException | None) -> bool:
    """Whether `error`, or an error it was raised from or while handling, is a
    MemoryError."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, MemoryError):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


# --- process groups --------------------------------------------------------------------


def end_with_parent(parent: int, number: int) -> None:
    """Have this process sent signal `number` when its parent, `parent`, ends, even by
    SIGKILL (Linux; nothing elsewhere); now, if it has ended already. The signal
    comes when the parent's thread that started this process ends: ask only for a
    process started by a main thread."""
    try:
        import ctypes  # libc's prctl, on Linux only: other paths never load it

        ctypes.CDLL(None, use_errno=True).prctl(1, number)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:
        os.kill(os.getpid(), number)


def exited(pid: int) -> bool:
    """Whether our child `pid` has ended, without reaping it: until it is reaped its id
    stays taken, so that a signal to its group cannot reach anyone else's."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:  # reaped already
        return True


def wait_for_exit(pid: int, seconds: float, interval: float = 0.01) -> bool:
    """Whether our child `pid` ends within `seconds`, looking every `interval`; it is
    not reaped (see `exited`)."""
    deadline = time.monotonic() + seconds
    while not exited(pid):
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)
    return True


def end_group(pid: int) -> None:
    """SIGKILL every process of the group that our child `pid` leads, unless the child
    is reaped (its id may be another's by now)."""
    try:
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        os.killpg(pid, signal.SIGKILL)
    except (ChildProcessError, ProcessLookupError, PermissionError):
        pass
