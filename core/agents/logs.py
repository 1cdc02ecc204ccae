"""The engine logs folder kept to a total size: each engine's log is capped
(engine_process.LOG_CAP), and the folder as a whole too, so that a long match of
engines that write without end fills no disk. The oldest logs go first, when a new
one is opened."""
from __future__ import annotations

import os
from pathlib import Path

DEFAULT_FOLDER_CAP_MB = 200
MAX_LOGS = 1000  # files kept at most, so that the look at the folder stays cheap


def folder_cap() -> int:
    """The bytes the logs folder may hold: PLYGROUND_LOG_CAP megabytes (default 200;
    a value that does not read as a number of megabytes is the default)."""
    text = os.environ.get("PLYGROUND_LOG_CAP", "").strip()
    try:
        megabytes = float(text) if text else DEFAULT_FOLDER_CAP_MB
    except ValueError:
        megabytes = DEFAULT_FOLDER_CAP_MB
    if not 0 <= megabytes < 1 << 40:  # nan, inf, negative: the default
        megabytes = DEFAULT_FOLDER_CAP_MB
    return int(megabytes * 10**6)


def prune(folder: Path, room: int, cap: int | None = None) -> None:
    """Remove the oldest `.log` files of `folder` until the rest, and `room` bytes
    more for a log about to be opened, fit in `cap` (folder_cap() if None) and they
    number fewer than MAX_LOGS."""
    cap = folder_cap() if cap is None else cap
    logs = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith(".log") and entry.is_file(follow_symlinks=False):
                    try:
                        info = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    logs.append((info.st_mtime, entry.path, info.st_size))
    except OSError:
        return
    total = sum(size for _, _, size in logs)
    if total + room <= cap and len(logs) < MAX_LOGS:
        return
    logs.sort()
    for index, (_, path, size) in enumerate(logs):
        if total + room <= cap and len(logs) - index < MAX_LOGS:
            break
        try:
            os.unlink(path)  # an engine still writing it keeps its open file
        except OSError:
            continue
        total -= size


def open_log(path: Path, room: int):
    """`path` opened to append lines, after the folder was pruned to make `room`
    bytes for it."""
    prune(path.parent, room)
    return open(path, "a", encoding="utf-8", buffering=1)
