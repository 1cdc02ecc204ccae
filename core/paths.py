"""Where plyground keeps its files: $PLYGROUND_HOME, else the user's data directory
(~/.local/share/plyground, or $XDG_DATA_HOME/plyground); and how it writes a file,
whole or not at all, so that Ctrl-C or a crash never leaves part of one."""
from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path


def data_home(create: bool = True) -> Path:
    """The folder for logs, the game history, saved games and trained profiles
    (created, unless `create` is false)."""
    home = os.environ.get("PLYGROUND_HOME")
    if home:
        folder = Path(home).expanduser()
    else:
        base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
        folder = Path(base).expanduser() / "plyground"
    if create:
        folder.mkdir(parents=True, exist_ok=True)
    return folder


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to a new file beside `path`, then move it over `path` in one step:
    `path` is either the old file or the new one, never part of either, and the new
    file is left behind by no failure. A new file gets the usual permissions (the
    umask's), a replaced one keeps its own."""
    path = Path(path).expanduser()
    folder = path.parent
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        temporary = folder / f".{path.name}.{secrets.token_hex(4)}.tmp"
        try:
            handle = os.open(temporary, flags, 0o666)
            break
        except FileExistsError:
            continue
    try:
        try:
            os.chmod(handle, stat.S_IMODE(os.stat(path).st_mode))
        except (FileNotFoundError, NotADirectoryError, AttributeError,
                NotImplementedError):
            pass
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


# --- reading -------------------------------------------------------------------------
