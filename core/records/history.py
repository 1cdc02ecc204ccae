"""The history of played games: a SQLite database in the data folder.

Every finished or abandoned game of the app, `demo`, `match` and `tournament` lands
here (unless told not to), as its game record's text (core/records/record.py) plus columns to
filter on. The database runs in WAL mode with a busy timeout, so that two apps and a
match can write at once.

The schema is versioned (`PRAGMA user_version`); MIGRATIONS[n] takes a database of
version n to n + 1, each in a transaction of its own. Opening a database applies what
is missing; a database newer than this code, or a file that is no SQLite database, is
refused with a PlygroundError and left as it is.

A history SQLite reports damaged (a write or a read that meets a malformed page, or the
`PRAGMA quick_check` the `games` commands run) is marked so by a file beside it
(`history.sqlite3.damaged`, saying what SQLite said): from then on nothing is written
into it, every writer says so in one line, and `plyground games repair` (repair.py)
rebuilds it from what can still be read. Reads go on where SQLite can make them.
"""
from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

from ..game import Game, Move, Outcome, State, parse_game
from ..errors import PlygroundError, visible
from ..paths import UnreadableFile, read_file_bytes
from .tree import GameTree
from .record import (UNFINISHED, GameRecord, format_record, now, parse_record, result_text,
                     said_outcome)

SOURCES = ("app", "demo", "match", "tournament", "sprt", "import")
RESULT_WORDS = {"first": "1-0", "second": "0-1", "draw": "1/2-1/2", "unfinished": UNFINISHED}
BUSY_TIMEOUT = 10.0  # seconds a writer waits for another to finish
REPAIR = "`plyground games repair` keeps a copy and recovers what it can"
MARK_BYTES = 1000  # what a damage mark's reason is read of (it is one line)


def history_path() -> Path:
    from ..paths import data_home  # read now: $PLYGROUND_HOME may change (tests)

    return data_home() / "history.sqlite3"


def damage_mark(path: Path) -> Path:
    """The file whose presence says the history at `path` is damaged."""
    return path.with_name(path.name + ".damaged")


def is_damage(error: sqlite3.Error) -> bool:
    """Whether SQLite says the database file itself is malformed (SQLITE_CORRUPT)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF == sqlite3.SQLITE_CORRUPT


def mark_line(reason: str) -> str:
    """A damage mark's reason as one line to show (SQLite's words, or a mark's file
    from outside): its escapes visible, at most MARK_BYTES characters."""
    return visible(" ".join(reason.split()))[:MARK_BYTES]


class HistoryDamaged(PlygroundError):
    """The history file is damaged: nothing more goes into it until `games repair`."""


@dataclass
class GameSummary:
    """One game of the history, as the Games screen and `games list` show it."""

    id: int
    game: str  # the game spec, e.g. cephalopod:rows=3,cols=3
    first: str  # each side's player: human or an agent spec
    second: str
    result: str  # 1-0, 0-1, 1/2-1/2 or *
    reason: str
    date: str
    moves: int  # on the main line
    source: str  # app, demo, match, tournament, import (unknown: before version 2)


# --- the schema ----------------------------------------------------------------------

def create_games(db: sqlite3.Connection) -> None:
    """Version 1: the games, their record text and columns to filter on."""
    db.execute("""
        CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game TEXT NOT NULL,     -- the game spec
            game_id TEXT NOT NULL,  -- the game's id: connect4, cephalopod...
            first TEXT NOT NULL,
            second TEXT NOT NULL,
            result TEXT NOT NULL,
            reason TEXT NOT NULL,
            date TEXT NOT NULL,
            moves INTEGER NOT NULL,
            record TEXT NOT NULL    -- the game record, as format_record writes it
        )""")


def add_source(db: sqlite3.Connection) -> None:
    """Version 2: where each game came from, and indexes for the usual lists."""
    db.execute("ALTER TABLE games ADD COLUMN source TEXT NOT NULL DEFAULT 'unknown'")
    db.execute("CREATE INDEX games_by_date ON games (date DESC, id DESC)")
    db.execute("CREATE INDEX games_by_game ON games (game_id, date DESC)")


def add_runs(db: sqlite3.Connection) -> None:
    """Version 3: runs of many games (a match, a tournament, an SPRT) and the games each
    has kept, so that an interrupted run resumes where it stopped and counts no game
    twice (core/records/runs.py)."""
    db.execute("""
        CREATE TABLE runs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,     -- match, tournament, sprt
            game TEXT NOT NULL,     -- the game spec
            params TEXT NOT NULL,   -- JSON: what rebuilds the run's games
            command TEXT NOT NULL,  -- the command that replays the run
            date TEXT NOT NULL,
            state TEXT NOT NULL     -- running, finished, interrupted
        )""")
    db.execute("""
        CREATE TABLE run_games (
            run INTEGER NOT NULL REFERENCES runs (id),
            key TEXT NOT NULL,      -- the game's name in its run: match:number
            result TEXT NOT NULL,   -- the game's result, as JSON
            game INTEGER NOT NULL,  -- its row in games
            PRIMARY KEY (run, key)
        )""")


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [create_games, add_source,
                                                           add_runs]
VERSION = len(MIGRATIONS)

COLUMNS = "id, game, first, second, result, reason, date, moves, source"


# --- the store -----------------------------------------------------------------------

class History:
    """The history database at `path` (history_path() by default), opened or created
    and brought to the current schema (`migrations`: MIGRATIONS, or the first of them
    to make an older database). One object may be used from several threads."""

    def __init__(self, path: Path | None = None, migrations: Sequence[Callable] | None = None
                 ) -> None:
        self.path = Path(path) if path is not None else history_path()
        self.migrations = list(MIGRATIONS if migrations is None else migrations)
        self.lock = threading.RLock()
        try:
            self.db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT,
                                      isolation_level=None, check_same_thread=False)
        except sqlite3.Error as error:
            raise self.error(error) from None
        try:
            self.open()
        except BaseException:
            self.db.close()
            raise

    def error(self, error: sqlite3.Error) -> PlygroundError:
        if is_damage(error):
            return self.mark_damaged(str(error))
        if isinstance(error, sqlite3.DatabaseError) and "not a database" in str(error):
            return PlygroundError(f"{self.path} is not a game history (not a SQLite "
                                  "database); it was left as it is: move it away to "
                                  "start a new history")
        return PlygroundError(f"the game history {self.path} cannot be used: {error}")

    def open(self) -> None:
        with self.failures():
            # Read before anything writes: a file that is no database, or one newer
            # than this code, is left untouched.
            version = self.version()
            self.refuse_newer(version)
            if version == 0:  # a new history: a mark left beside it is an old one's
                damage_mark(self.path).unlink(missing_ok=True)
            self.use_wal()
            self.db.execute("PRAGMA synchronous=NORMAL")  # safe with WAL
            self.migrate()

    def use_wal(self) -> None:
        """PRAGMA journal_mode=WAL, retried until the busy timeout. On a database not
        yet in WAL mode (a new one, which another app or writer may be creating at the
        same moment), the switch holds a read lock while it asks for the write lock, and
        SQLite then fails at once with 'database is locked' instead of waiting."""
        deadline = time.monotonic() + BUSY_TIMEOUT
        while True:
            try:
                self.db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as error:
                if (error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY
                        or time.monotonic() > deadline):
                    raise
            time.sleep(0.01)

    def check_writable(self) -> None:
        """A PlygroundError now if games cannot be added: a history file or folder that
        is read-only opens without complaint (SQLite falls back to reading) and fails
        only at the first write, which comes when a game has been played; a damaged
        one takes none. It writes the schema version as it is, and takes that back."""
        with self.lock:
            self.refuse_damaged()
            try:
                self.db.execute("BEGIN IMMEDIATE")
                self.db.execute(f"PRAGMA user_version = {self.version()}")
            except sqlite3.Error as error:
                if is_damage(error):
                    raise self.error(error) from None
                raise PlygroundError(f"the game history {self.path} cannot be written: "
                                     f"{error}") from None
            finally:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")

    def version(self) -> int:
        return self.db.execute("PRAGMA user_version").fetchone()[0]

    # --- damage ----------------------------------------------------------------------

    def check(self) -> None:
        """HistoryDamaged if the history is marked damaged, or SQLite's quick_check
        (which reads every page, so only the `games` commands run it) finds it so now,
        which marks it."""
        with self.reading():
            self.refuse_damaged()
            rows = self.db.execute("PRAGMA quick_check(1)").fetchall()
        verdict = rows[0][0] if rows else "no verdict"
        if verdict != "ok":
            where = "*** in database main ***"  # how its report starts: not news here
            raise self.mark_damaged(f"quick_check: {verdict.removeprefix(where)}")

    def mark_damaged(self, reason: str) -> HistoryDamaged:
        """Mark the history damaged (if the mark can be written: a folder that takes
        no file takes no game either); the error that says so."""
        reason = mark_line(reason)
        try:
            damage_mark(self.path).write_text(reason + "\n", encoding="utf-8")
        except OSError:
            pass
        return self.damaged(reason)

    def refuse_damaged(self) -> None:
        """HistoryDamaged if the history is marked damaged."""
        try:  # (read as any file from outside: a regular file, within a bound)
            reason = read_file_bytes(damage_mark(self.path), "damage mark",
                                     4 * MARK_BYTES).decode("utf-8", "replace")
        except UnreadableFile as unreadable:
            if unreadable.missing:
                return
            reason = "marked so"
        raise self.damaged(mark_line(reason) or "marked so")

    def damaged(self, reason: str) -> HistoryDamaged:
        return HistoryDamaged(f"the game history {self.path} is damaged ({reason}): "
                              f"nothing more is written to it until {REPAIR}")

    def refuse_newer(self, version: int) -> None:
        if version > len(self.migrations):
            raise PlygroundError(
                f"the game history {self.path} has schema version {version}, newer than "
                f"this plyground knows ({len(self.migrations)}): it was left as it is; "
                "use a newer plyground, or move the file away")

    def migrate(self) -> None:
        """Apply each missing migration in a transaction of its own (another process
        may be doing the same: the version is read again once the lock is held)."""
        while True:
            with self.lock, self.transaction():
                version = self.version()
                self.refuse_newer(version)
                if version == len(self.migrations):
                    return
                self.migrations[version](self.db)
                self.db.execute(f"PRAGMA user_version = {version + 1}")

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE (the write lock now, waiting up to the busy timeout) ...
        COMMIT, or ROLLBACK on an exception."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if self.db.in_transaction:  # (some errors end the transaction themselves)
                self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def close(self) -> None:
        with self.lock:
            self.db.close()

    def __enter__(self) -> "History":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- games -----------------------------------------------------------------------

    def add(self, record: GameRecord, source: str) -> int:
        """Store the game; returns its id."""
        return self.add_all([record], source)[0]

    def add_all(self, records: Sequence[GameRecord], source: str) -> list[int]:
        """Store the games in one transaction (all or none); returns their ids."""
        try:
            with self.writing():
                return [self.insert(record, source) for record in records]
        except HistoryDamaged as error:
            games = "this game was" if len(records) == 1 else "these games were"
            raise HistoryDamaged(f"{error}; {games} not kept") from None

    def insert(self, record: GameRecord, source: str) -> int:
        """Store the game inside the caller's write transaction (`writing`), which
        may store more with it; returns its id."""
        if source not in SOURCES:
            raise ValueError(f"unknown source {source!r}: one of {', '.join(SOURCES)}")
        return self.db.execute(
            "INSERT INTO games (game, game_id, first, second, result, reason, date, "
            "moves, record, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*columns(record), source)).lastrowid

    def update(self, id: int, record: GameRecord) -> None:
        """Store the game again (with its new variations and comments, say)."""
        with self.writing():
            cursor = self.db.execute(
                "UPDATE games SET game = ?, game_id = ?, first = ?, second = ?, "
                "result = ?, reason = ?, date = ?, moves = ?, record = ? WHERE id = ?",
                (*columns(record), id))
            if cursor.rowcount == 0:
                raise self.missing(id)

    def delete(self, id: int) -> None:
        with self.writing():
            if self.db.execute("DELETE FROM games WHERE id = ?", (id,)).rowcount == 0:
                raise self.missing(id)

    def text(self, id: int) -> str:
        """The game's record, as stored."""
        with self.reading():
            row = self.db.execute("SELECT record FROM games WHERE id = ?", (id,)).fetchone()
        if row is None:
            raise self.missing(id)
        return row[0]

    def get(self, id: int) -> GameRecord:
        return parse_record(self.text(id), source=f"game {id} of the history")

    def summary(self, id: int) -> GameSummary:
        with self.reading():
            row = self.db.execute(f"SELECT {COLUMNS} FROM games WHERE id = ?",
                                  (id,)).fetchone()
        if row is None:
            raise self.missing(id)
        return GameSummary(*row)

    def list(self, game: str | None = None, agent: str | None = None,
             result: str | None = None, limit: int | None = None) -> list[GameSummary]:
        """The games, newest first. `game`: a game id (connect4) or a full spec;
        `agent`: part of either side's player (any case; `human` finds people);
        `result`: 1-0, 0-1, 1/2-1/2, *, or first, second, draw, unfinished."""
        where, values = [], []
        if game:
            where.append("(game_id = ? OR game = ? OR game = ?)")
            values += [game.strip(), game.strip(), canonical_spec(game)]
        if agent:
            pattern = "%" + like_escaped(agent.strip()) + "%"
            where.append(r"(first LIKE ? ESCAPE '\' OR second LIKE ? ESCAPE '\')")
            values += [pattern, pattern]
        if result:
            where.append("result = ?")
            values.append(result_filter(result))
        if limit is not None and limit < 0:
            raise PlygroundError(f"a limit of {limit} games: give 0 or more")
        sql = (f"SELECT {COLUMNS} FROM games"
               + (" WHERE " + " AND ".join(where) if where else "")
               + " ORDER BY date DESC, id DESC"
               + (" LIMIT ?" if limit is not None else ""))
        with self.reading():
            rows = self.db.execute(sql, values + ([limit] if limit is not None else []))
            return [GameSummary(*row) for row in rows.fetchall()]

    def count(self) -> int:
        with self.reading():
            return self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    def missing(self, id: int) -> PlygroundError:
        return PlygroundError(f"no game {id} in the history ({self.path}): "
                              "`plyground games list` lists them")

    @contextmanager
    def writing(self) -> Iterator[None]:
        """A write transaction under the object's lock, refused on a damaged history;
        a sqlite3 error becomes a PlygroundError that names the file."""
        with self.lock, self.failures():
            self.refuse_damaged()
            with self.transaction():
                yield

    @contextmanager
    def reading(self) -> Iterator[None]:
        with self.lock, self.failures():
            yield

    @contextmanager
    def failures(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as error:
            raise self.error(error) from None


def columns(record: GameRecord) -> tuple:
    """The columns stored for `record` (in the order add and update write them)."""
    players = record.players
    return (record.game.spec, record.game.id, players[0], players[1], record.result,
            record.reason, record.date, len(record.moves), format_record(record))


def canonical_spec(text: str) -> str:
    """`text` as parse_game writes it (as it is, if it names no game)."""
    try:
        return parse_game(text.strip()).spec
    except PlygroundError:
        return text.strip()


def like_escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def result_filter(text: str) -> str:
    """The Result a `result` filter names."""
    given = text.strip()
    if given in RESULT_WORDS.values():
        return given
    if given.lower() in RESULT_WORDS:
        return RESULT_WORDS[given.lower()]
    choices = ", ".join([*RESULT_WORDS.values(), *RESULT_WORDS])
    raise PlygroundError(f"{text!r} is not a result: give one of {choices}")


# --- records of played games ---------------------------------------------------------

def played_record(game: Game, start: State, moves: Sequence[Move],
                  outcome: Outcome | None, players: tuple[str, str],
                  seed: int | None = None, reason: str = "",
                  headers: dict[str, str] | None = None) -> GameRecord:
    """The record of a game played from `start`, dated now. `outcome` is how it ended
    (None: unfinished, `reason` saying why it stopped)."""
    if outcome is not None:
        reason = said_outcome(game, outcome)
    return GameRecord(game, GameTree.from_moves(start, moves), tuple(players), seed, now(),
                      result_text(outcome), reason, dict(headers or {}))
