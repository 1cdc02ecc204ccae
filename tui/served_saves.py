"""Where a visitor of `plyground serve` saves, and how much.

Each served app (one per browser page) saves into a folder of its own inside the
server's save folder, so that two visitors who pick the same name never touch each
other's file, and only up to a quota of files and bytes, so that one visitor cannot
fill the server's disk. The server removes the session folders left empty when it
stops. (No Textual here: `serve` reads the defaults without loading the app.)
"""
from __future__ import annotations

import os
import stat
import tempfile
import time
from pathlib import Path

from plyground.core import PlygroundError

SESSION_PREFIX = "session-"
QUOTA_FILES = 50  # the most files one visitor may save (serve --save-quota-files)
QUOTA_MB = 10  # the most megabytes one visitor may save (serve --save-quota-mb)
MB = 1_000_000


class OverQuota(PlygroundError):
    """A save that would take a visitor's folder past its quota: nothing written."""


def new_session_folder(server_folder: Path) -> Path:
    """A new, empty folder in `server_folder` for one visitor: `session-` and the time,
    then a random part, made in one step that never reuses an existing name. It gets
    the server folder's permissions (mkdtemp's own let only its owner in), so that
    whoever may read the saves there may read these too."""
    try:
        folder = Path(tempfile.mkdtemp(prefix=f"{SESSION_PREFIX}{time.strftime('%H%M%S')}-",
                                       dir=server_folder))
        os.chmod(folder, stat.S_IMODE(Path(server_folder).stat().st_mode))
        return folder
    except OSError as error:
        raise PlygroundError(f"this session's folder cannot be made in the server's "
                             f"save folder: {error.strerror or error}") from None


def visitor_folder(app) -> Path:
    """The folder `app`'s visitor saves into: its own, made at the first save dialog
    and kept for the app's life (the app is one visitor's)."""
    folder = getattr(app, "visitor_folder", None)
    if folder is None:
        folder = new_session_folder(app.served.save_dir)
        app.visitor_folder = folder
    return folder


def in_use(folder: Path) -> tuple[int, int]:
    """The files in `folder` and their bytes (a visitor writes no subfolders: a save
    into one that does not exist fails)."""
    files = size = 0
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_file(follow_symlinks=False):
                files += 1
                size += entry.stat(follow_symlinks=False).st_size
    return files, size


def quota_text(files: int, max_bytes: int) -> str:
    mb = max_bytes / MB
    return f"{files} file{'s' * (files != 1)} and {mb:g} MB"


def check_quota(folder: Path, path: Path, size: int, files: int, max_bytes: int) -> None:
    """OverQuota when writing `size` bytes at `path` (a new file in `folder`, or one it
    replaces) would leave more than `files` files or `max_bytes` bytes there."""
    count, used = in_use(folder)
    if path.is_file() and not path.is_symlink():  # replaced: its place is reused
        count, used = count - 1, used - path.stat().st_size
    if count + 1 > files or used + size > max_bytes:
        raise OverQuota(f"Not saved: this session may save at most "
                        f"{quota_text(files, max_bytes)} (the server's quota), and this "
                        "file would pass it. The game is still open.")


def remove_empty_sessions(server_folder: Path) -> None:
    """Remove the visitors' folders in `server_folder` that hold nothing (a visitor
    who opened the save dialog and saved nothing)."""
    try:
        entries = list(server_folder.glob(SESSION_PREFIX + "*"))
    except OSError:
        return
    for folder in entries:
        try:
            if folder.is_dir() and not folder.is_symlink():
                folder.rmdir()  # fails, as meant, when something was saved in it
        except OSError:
            pass
