"""`plyground games repair`: a damaged game history rebuilt from what SQLite can still
read of it, the damaged file kept beside it.

The work is the sqlite3 program's: its `.recover` reads every page it can, whatever the
b-trees above them say. Where `.recover` fails (Debian's sqlite3 before SQLite 3.44
lacks the page reader it needs, and says only "SQL logic error"), `.dump` is used
instead, which reads the tables through their b-trees and skips what it cannot read;
its script, which ends by rolling back everything once it met an error, is run with
that last line made a COMMIT, so what it read is kept. Without the program, the command says how to do the same by hand.

Run it while nothing else uses the history: the file is replaced.
"""
from __future__ import annotations

import os
import shlex
import shutil
import sqlite3
import subprocess
import tempfile
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from ..errors import PlygroundError, visible
from .history import SOURCES, VERSION, columns, damage_mark
from .record import parse_record

SIDE_FILES = ("-wal", "-shm")  # SQLite's own files beside a database in WAL mode
ROLLED_BACK = b"ROLLBACK; -- due to errors"  # the last line of a .dump that met one


@dataclass(frozen=True)
class Repaired:
    games: int  # in the rebuilt history
    copy: Path  # the damaged file, kept
    method: str  # the sqlite3 command that read it: .recover or .dump
    left_out: int = 0  # rows read back that held no game record


class RepairFailed(PlygroundError):
    """The history could not be rebuilt; it is left as it was."""


def is_damaged(path: Path) -> bool:
    """Whether the history at `path` is marked damaged, or SQLite finds it so now."""
    if damage_mark(path).exists():
        return True
    try:
        with closing(sqlite3.connect(path)) as db:
            return db.execute("PRAGMA quick_check(1)").fetchone()[0] != "ok"
    except sqlite3.DatabaseError:
        return True


def keep_copy(path: Path) -> Path:
    """Copy the history and its WAL files beside it, named with the time; the copy."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for number in range(1, 1000):
        suffix = "" if number == 1 else f"-{number}"
        copy = path.with_name(f"{path.stem}.damaged-{stamp}{suffix}{path.suffix}")
        if not any(Path(f"{copy}{side}").exists() for side in ("", *SIDE_FILES)):
            break
    for side in ("", *SIDE_FILES):
        if Path(f"{path}{side}").exists():
            shutil.copy2(f"{path}{side}", f"{copy}{side}")
    return copy


def steps_by_hand(path: Path, copy: Path) -> list[str]:
    """How to do what `rebuild` does, with the sqlite3 program installed elsewhere."""
    rebuilt = shlex.quote(f"{path}.rebuilt")
    damaged, history = shlex.quote(str(copy)), shlex.quote(str(path))
    version = schema_version(copy) or VERSION
    return [
        "install the sqlite3 program (Debian, Ubuntu: sudo apt-get install sqlite3) "
        "and run `plyground games repair` again, or by hand:",
        f"  sqlite3 {damaged} .recover | sqlite3 {rebuilt}",
        "  (a sqlite3 without .recover: .dump in its place, with the script's last "
        "line ROLLBACK made COMMIT)",
        f"  sqlite3 {rebuilt} 'PRAGMA user_version = {version}'",
        f"  rm -f {history}-wal {history}-shm {shlex.quote(str(damage_mark(path)))}",
        f"  mv {rebuilt} {history}",
    ]


def rebuild(path: Path, program: str, copy: Path) -> Repaired:
    """Rebuild the history at `path` with the sqlite3 `program`, from what it reads of
    it, and put it in the history's place (its WAL files and damage mark gone);
    RepairFailed, the history left as it was, if nothing usable comes of it."""
    rebuilt = Path(f"{path}.rebuilt")
    version = schema_version(copy)
    method = ".recover"
    rebuilt.unlink(missing_ok=True)
    failure = run_into(program, path, ".recover", rebuilt)
    if failure is not None:
        method = ".dump"
        rebuilt.unlink(missing_ok=True)
        failure = run_into(program, path, ".dump", rebuilt)
    try:
        if failure is not None:
            raise RepairFailed(f"sqlite3 could not read {path} (.recover and .dump: "
                               f"{visible(failure.decode('utf-8', 'replace'))}): it is "
                               "left as it is")
        games, left_out = finish(rebuilt, version, path)
    except BaseException:
        rebuilt.unlink(missing_ok=True)
        raise
    for side in SIDE_FILES:  # the damaged file's: they would be read into the new one
        Path(f"{path}{side}").unlink(missing_ok=True)
    os.replace(rebuilt, path)
    damage_mark(path).unlink(missing_ok=True)
    return Repaired(games, copy, method, left_out)


def run_into(program: str, source: Path, command: str, target: Path) -> bytes | None:
    """Pipe `sqlite3 SOURCE COMMAND` (a script that rebuilds it) into `sqlite3 TARGET`;
    None if the reader ended well, else the last line of what it said. A `.dump`'s
    closing ROLLBACK becomes COMMIT."""
    # no ~/.sqliterc (-init), and paths that no shell option can be mistaken for
    shell = [program, "-batch", "-init", os.devnull]
    with tempfile.TemporaryFile() as said:
        reader = subprocess.Popen([*shell, str(source.absolute()), command],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=said)
        writer = subprocess.Popen([*shell, str(target.absolute())], stdin=subprocess.PIPE,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            held = b""
            for line in reader.stdout:
                writer.stdin.write(held)
                held = line
            if held.rstrip() == ROLLED_BACK:
                held = b"COMMIT;\n"
            writer.stdin.write(held)
        except BrokenPipeError:  # the writer gave up: what it made is looked at next
            pass
        finally:
            for pipe in (reader.stdout, writer.stdin):
                try:
                    pipe.close()  # (a reader still writing then ends, as in a shell)
                except BrokenPipeError:
                    pass
            reader.wait()
            writer.wait()
        said.seek(0)
        lines = said.read().strip().splitlines()
    if reader.returncode == 0:
        return None
    return lines[-1] if lines else f"exit code {reader.returncode}".encode()


def finish(rebuilt: Path, version: int | None, path: Path) -> tuple[int, int]:
    """Give the rebuilt history its schema version, keep only the games whose records
    can be read (tidy), and check it; its games, and the rows left out."""
    try:
        with closing(sqlite3.connect(rebuilt, isolation_level=None)) as db:
            tables = {row[0] for row in db.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table'")}
            if "games" not in tables:
                raise RepairFailed(f"no games could be read from {path}: it is left as "
                                   "it is")
            if version is not None:
                db.execute(f"PRAGMA user_version = {version}")
            left_out = tidy(db)
            verdict = db.execute("PRAGMA quick_check(1)").fetchone()[0]
            if verdict != "ok":
                raise RepairFailed(f"the history rebuilt from {path} is damaged too "
                                   f"({visible(verdict)}): {path} is left as it is")
            return db.execute("SELECT COUNT(*) FROM games").fetchone()[0], left_out
    except sqlite3.Error as error:
        raise RepairFailed(f"the history rebuilt from {path} cannot be read ({error}): "
                           f"{path} is left as it is") from None


def tidy(db: sqlite3.Connection) -> int:
    """Keep the rows whose record can be read, their other columns made again from it
    (a damaged page garbles any of them); leave out the others. How many it left out."""
    left_out = 0
    db.execute("BEGIN")
    for (id,) in db.execute("SELECT id FROM games").fetchall():
        text, source = db.execute("SELECT record, source FROM games WHERE id = ?",
                                  (id,)).fetchone()
        try:
            record = parse_record(text) if isinstance(text, str) else None
        except PlygroundError:
            record = None
        if record is None:
            db.execute("DELETE FROM games WHERE id = ?", (id,))
            left_out += 1
            continue
        db.execute("UPDATE games SET game = ?, game_id = ?, first = ?, second = ?, "
                   "result = ?, reason = ?, date = ?, moves = ?, source = ? WHERE id = ?",
                   (*columns(record)[:-1], source if source in SOURCES else "unknown", id))
    db.execute("COMMIT")
    return left_out


def schema_version(path: Path) -> int | None:
    """The history's schema version, as its file's header says (SQLite keeps
    user_version at bytes 60-63, big-endian); None if that is not one this code knows."""
    try:
        with open(path, "rb") as file:
            header = file.read(100)
    except OSError:
        return None
    version = int.from_bytes(header[60:64], "big") if len(header) == 100 else 0
    return version if 1 <= version <= VERSION else None
