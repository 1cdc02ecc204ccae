"""Where plyground keeps its files: $PLYGROUND_HOME, else the user's data directory
(~/.local/share/plyground, or $XDG_DATA_HOME/plyground); how it writes a file, whole
or not at all, so that Ctrl-C or a crash never leaves part of one; and how it reads a
file someone else may have written (a record, a lesson, a profile, a theme): only a
regular file, and only up to a size cap, so that a name like /dev/zero or a FIFO is
refused at once instead of filling the memory or waiting for ever."""
from __future__ import annotations

import errno
import os
import re
import secrets
import stat
import tomllib
from pathlib import Path

from .errors import PlygroundError, shown

MAX_FILE_BYTES = 16 * 1024 * 1024  # the largest record, lesson, profile or theme read
MAX_TOML_DEPTH = 100  # arrays and tables inside each other in a lesson or theme file
NUL_IN_NAME = "a file's name cannot hold a NUL character (\\x00)"


def data_home(create: bool = True) -> Path:
    """The folder for logs, the game history, saved games and trained profiles
    (created, unless `create` is false). A folder that cannot be made or written in
    is a PlygroundError naming it, so that every command says so in one line before
    it plays anything, rather than failing in whichever write comes first."""
    home = os.environ.get("PLYGROUND_HOME")
    if home:
        folder = Path(home).expanduser()
        setting = f"the data folder {shown(str(folder))} (PLYGROUND_HOME)"
    else:
        base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
        folder = Path(base).expanduser() / "plyground"
        setting = f"the data folder {shown(str(folder))}"
    if create:
        probe = folder / f".write-test-{secrets.token_hex(4)}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            raise PlygroundError(f"{setting} is a file, not a folder") from None
        except NotADirectoryError:
            raise PlygroundError(f"{setting} cannot be made: a part of its path is a "
                                 "file, not a folder") from None
        except OSError as error:
            raise PlygroundError(f"{setting} cannot be written in: "
                                 f"{error.strerror or error}") from None
        probe.unlink()
    return folder


class NotReplaced(PlygroundError):
    """`write_atomically` left an existing file as it was: `symlink` if it is a
    symbolic link (never replaced), else because replacing it was not asked for."""

    def __init__(self, path: Path, symlink: bool) -> None:
        self.path, self.symlink = path, symlink
        super().__init__(f"{shown(str(path))} is a symbolic link; choose another name"
                         if symlink else f"{shown(str(path))} already exists")


def write_atomically(path: Path, text: str | bytes, overwrite: bool = True) -> None:
    """Write `text` (or bytes, as they are) to a new file beside `path`, then move it
    over `path` in one step:
    `path` is either the old file or the new one, never part of either, and the new
    file is left behind by no failure. A new file gets the usual permissions (the
    umask's), a replaced one keeps its own.

    A symbolic link at `path` is never replaced (NotReplaced): moving a file over it
    would cut the link and leave the file it points to as it was, which is neither
    what the user asked for nor visible to them. Without `overwrite`, an existing
    file is not replaced either; the new file then takes its name by a hard link,
    which fails if the name was taken in the meantime."""
    path = Path(path).expanduser()
    if "\x00" in str(path):
        raise PlygroundError(f"cannot write {shown(str(path))}: {NUL_IN_NAME}")
    if path.is_symlink():
        raise NotReplaced(path, symlink=True)
    if not overwrite and os.path.lexists(path):
        raise NotReplaced(path, symlink=False)
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
        with (os.fdopen(handle, "wb") if isinstance(text, bytes) else
              os.fdopen(handle, "w", encoding="utf-8", newline="\n")) as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        if overwrite:
            os.replace(temporary, path)
        else:
            move_without_replacing(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def move_without_replacing(temporary: Path, path: Path) -> None:
    """Give `temporary` the name `path` unless something has that name (NotReplaced).
    A folder that cannot hold hard links (FAT, some network shares) gets a check,
    then a rename."""
    try:
        os.link(temporary, path, follow_symlinks=False)
    except FileExistsError:
        raise NotReplaced(path, symlink=os.path.islink(path)) from None
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV,
                               errno.EMLINK):
            raise
        if os.path.lexists(path):
            raise NotReplaced(path, symlink=os.path.islink(path)) from None
        os.replace(temporary, path)
        return
    temporary.unlink()


# --- reading -------------------------------------------------------------------------

class UnreadableFile(PlygroundError):
    """A file `read_text_file` would not or could not read; `reason` says why without
    the file's name, and `missing` is true if there is no such file."""

    def __init__(self, path: Path, reason: str, missing: bool = False) -> None:
        self.path, self.reason, self.missing = path, reason, missing
        super().__init__(f"cannot read {shown(str(path))}: {reason}")


def read_text_file(path: str | os.PathLike, what: str = "file", encoding: str = "utf-8",
                   limit: int = MAX_FILE_BYTES) -> str:
    """The text of the regular file at `path` (a `what`: "game record", "lesson"),
    decoded as `encoding` (UTF-8, or "utf-8-sig"), or UnreadableFile, read as
    `read_file_bytes` reads it."""
    data = read_file_bytes(path, what, limit)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        raise UnreadableFile(Path(path).expanduser(),
                             "it is not a text file (not UTF-8)") from None


def read_file_bytes(path: str | os.PathLike, what: str = "file",
                    limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file at `path` (a `what`: "network"), or
    UnreadableFile. The file's kind and size are looked at before it is opened, and
    again once it is open (opened without waiting, so a FIFO never blocks): a
    folder, FIFO, device or socket is refused, as is a file over `limit` bytes, so
    that a path someone else wrote into a lesson or typed in a command cannot make
    plyground wait for ever or read without end."""
    path = Path(path).expanduser()
    if "\x00" in str(path):
        raise UnreadableFile(path, NUL_IN_NAME)
    try:
        refuse_unless_small_file(path, os.stat(path), what, limit)
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError as error:
        raise UnreadableFile(path, error.strerror, missing=True) from None
    except OSError as error:
        raise UnreadableFile(path, error.strerror or str(error)) from None
    with os.fdopen(handle, "rb") as file:
        refuse_unless_small_file(path, os.fstat(handle), what, limit)
        data = file.read(limit + 1)
    if len(data) > limit:  # it grew since
        raise UnreadableFile(path, over_limit(len(data), what, limit))
    return data


FILE_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (a named pipe)"),
              (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
              (stat.S_ISSOCK, "a socket"))


def refuse_unless_small_file(path: Path, info: os.stat_result, what: str,
                             limit: int) -> None:
    for test, kind in FILE_KINDS:
        if test(info.st_mode):
            raise UnreadableFile(path, f"it is {kind}, not a {what} file")
    if not stat.S_ISREG(info.st_mode):
        raise UnreadableFile(path, f"it is not a regular file, nor a {what} file")
    if info.st_size > limit:
        raise UnreadableFile(path, over_limit(info.st_size, what, limit))


def over_limit(size: int, what: str, limit: int) -> str:
    return (f"it is {size / 2**20:.3g} MB, over the {limit / 2**20:.3g} MB a {what} "
            "file may have")


# A TOML file's brackets and braces, outside its strings and comments.
TOML_TOKENS = re.compile(r'"""(?:\\.|[^\\])*?"""|\'\'\'.*?\'\'\'|"(?:\\.|[^"\\\n])*"'
                         r"|'[^'\n]*'|#[^\n]*|[\[\]{}]", re.DOTALL)


def parse_toml(text: str) -> dict:
    """tomllib.loads, but arrays and tables nested more than MAX_TOML_DEPTH deep are
    a TOMLDecodeError saying so: tomllib reads them by recursion, and runs out of
    stack somewhere between a few hundred levels and a few thousand, depending on
    how deep its caller already was."""
    depth = 0
    for token in TOML_TOKENS.finditer(text):
        bracket = token.group()
        if bracket in ("[", "{"):
            depth += 1
            if depth > MAX_TOML_DEPTH:
                line = text.count("\n", 0, token.start()) + 1
                column = token.start() - text.rfind("\n", 0, token.start())
                raise tomllib.TOMLDecodeError(
                    f"arrays and tables nested more than {MAX_TOML_DEPTH} deep "
                    f"(at line {line}, column {column})")  # where tomllib says it
        elif bracket in ("]", "}"):
            depth = max(depth - 1, 0)
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError(f"arrays and tables nested too deep to read (over "
                                      f"{MAX_TOML_DEPTH} levels)") from None
