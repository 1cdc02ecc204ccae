"""The game history (core/records/history.py): records in and out, filters, several writers at
once (WAL), schema migrations, and files it must refuse and leave alone."""
from __future__ import annotations

import multiprocessing
import sqlite3
import threading
from pathlib import Path

import pytest

from plyground.core import PlygroundError, get_game, parse_game
from plyground.core.game import Outcome, Termination
from plyground.core.records.history import (MIGRATIONS, VERSION, GameSummary, History,
                                            history_path, played_record)
from plyground.core.records.record import format_record

C4 = get_game("connect4")
CEPH = parse_game("cephalopod:rows=3,cols=3")


def connect4_game(moves: str, players=("random", "greedy"), outcome=None, date=None,
                  **extra):
    """A Connect 4 record of the columns `moves` (1-based digits, run together)."""
    start = C4.start()
    line = C4.parse_line(start, moves)
    final = C4.play_moves(start, list(moves))
    record = played_record(C4, start, line, outcome or final.outcome(), players, **extra)
    if date is not None:
        record.date = date
    return record


X_WINS = "1212121"  # X's four in column 1
O_WINS = "12123232"  # O's four in column 2


@pytest.fixture
def history(tmp_path) -> History:
    with History(tmp_path / "history.sqlite3") as history:
        yield history


def test_the_history_lives_in_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path))
    assert history_path() == tmp_path / "history.sqlite3"
    with History() as history:
        assert history.path == tmp_path / "history.sqlite3"
    assert (tmp_path / "history.sqlite3").exists()


def test_a_game_comes_back_as_it_went_in(history):
    record = connect4_game(X_WINS, seed=7, headers={"Event": "a test"})
    record.tree.root.children[0].comment = "the usual start"
    game = history.add(record, "demo")
    back = history.get(game)
    assert format_record(back) == format_record(record)
    assert back.moves == record.moves and back.result == "1-0"
    assert back.seed == 7 and back.headers == {"Event": "a test"}
    assert history.list() == [GameSummary(game, "connect4", "random", "greedy", "1-0",
                                          "X wins: X connects four", record.date, 7,
                                          "demo")]


def test_update_stores_the_variations_and_keeps_the_source(history):
    record = connect4_game(X_WINS)
    game = history.add(record, "app")
    record.tree.root.children[0].add(3).comment = "better"  # a variation: 4 after 1
    history.update(game, record)
    back = history.get(game)
    assert back.tree.has_variations and "{better}" in format_record(back)
    assert history.summary(game).source == "app"
    with pytest.raises(PlygroundError, match="no game 99 in the history"):
        history.update(99, record)


def test_an_unknown_id_is_named(history):
    with pytest.raises(PlygroundError, match=r"no game 12 in the history \(.*history"):
        history.get(12)


def test_filters_by_game_agent_and_result(history):
    ids = {
        "x": history.add(connect4_game(X_WINS, ("random", "human")), "app"),
        "o": history.add(connect4_game(O_WINS, ("greedy", "mcts:iterations=50")), "match"),
        "draw": history.add(connect4_game("44", ("Human", "greedy"), Outcome(
            None, Termination.DECLARED, "agreed")), "app"),
        "open": history.add(played_record(CEPH, CEPH.start(), [], None, ("human", "random"),
                                          reason="abandoned"), "app"),
    }

    def found(**filters) -> set[str]:
        names = {game: name for name, game in ids.items()}
        return {names[summary.id] for summary in history.list(**filters)}

    assert found() == set(ids)
    assert found(game="connect4") == {"x", "o", "draw"}
    assert found(game="cephalopod:rows=3,cols=3") == {"open"}
    assert found(game="cephalopod:cols=3,rows=3") == {"open"}  # any order of options
    assert found(game="cephalopod") == {"open"}
    assert found(game="quarto") == set()
    assert found(agent="human") == {"x", "draw", "open"}  # any case
    assert found(agent="MCTS") == {"o"}
    assert found(agent="%") == set()  # a LIKE wildcard is a plain character
    assert found(result="1-0") == found(result="first") == {"x"}
    assert found(result="0-1") == found(result="Second") == {"o"}
    assert found(result="1/2-1/2") == found(result="draw") == {"draw"}
    assert found(result="*") == found(result="unfinished") == {"open"}
    assert found(game="connect4", agent="greedy", result="draw") == {"draw"}
    with pytest.raises(PlygroundError, match="'won' is not a result: give one of 1-0, "
                                             "0-1, 1/2-1/2, \\*, first, second"):
        history.list(result="won")


def test_newest_first_and_a_limit(history):
    dates = ["2026-01-02T10:00:00", "2026-03-01T09:00:00", "2026-01-02T10:00:00",
             "2025-12-31T23:59:59"]
    ids = [history.add(connect4_game(X_WINS, date=date), "demo") for date in dates]
    assert [summary.id for summary in history.list()] == [ids[1], ids[2], ids[0], ids[3]]
    assert [summary.id for summary in history.list(limit=2)] == [ids[1], ids[2]]


def test_moves_of_a_line_run_together_or_spaced():
    assert C4.parse_line(C4.start(), "4453") == [3, 3, 4, 2]
    state, moves = CEPH.start(), []
    while state.outcome() is None:  # captures: b2x(c2,b1) starts with the move b2
        move = state.moves()[-1]
        moves.append(move)
        state = state.play(move)
    assert CEPH.parse_line(CEPH.start(), CEPH.format_line(moves)) == moves
    with pytest.raises(PlygroundError, match="not a line of legal"):
        C4.parse_line(C4.start(), "4449")


# --- several writers at once ---------------------------------------------------------

def add_games(path: str, writer: int, games: int) -> None:
    """Runs in a process of its own: `games` games into the history at `path`."""
    with History(Path(path)) as history:
        for number in range(games):
            history.add(connect4_game(X_WINS, (f"writer{writer}", f"game{number}")),
                        "match")


def test_two_processes_and_threads_write_at_once(tmp_path):
    path = tmp_path / "history.sqlite3"
    context = multiprocessing.get_context("spawn")
    processes = [context.Process(target=add_games, args=(str(path), writer, 20))
                 for writer in (0, 1)]
    errors = []

    def thread_writer(writer: int) -> None:
        try:
            add_games(str(path), writer, 20)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=thread_writer, args=(writer,)) for writer in (2, 3)]
    for worker in [*processes, *threads]:
        worker.start()
    for worker in [*processes, *threads]:
        worker.join(timeout=120)
    assert [process.exitcode for process in processes] == [0, 0]
    assert errors == []
    with History(path) as history:
        games = history.list()
        assert len(games) == 80
        assert {(summary.first, summary.second) for summary in games} == {
            (f"writer{writer}", f"game{number}") for writer in range(4)
            for number in range(20)}
        assert history.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_new_history_waits_for_a_writer_that_holds_the_lock(tmp_path):
    """Two writers creating the same new history at once: the switch to WAL mode,
    on a database not yet in it, failed at once with 'database is locked' while the
    other held its lock (CI, test_two_processes_and_threads_write_at_once)."""
    path = tmp_path / "history.sqlite3"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # the other writer, with the new file locked
    opened = []

    def open_history() -> None:
        try:
            with History(path) as history:
                opened.append(history.count())
        except PlygroundError as error:
            opened.append(error)

    opener = threading.Thread(target=open_history)
    opener.start()
    opener.join(timeout=0.5)  # waits for the lock; the old code had failed by now
    other.execute("COMMIT")
    other.close()
    opener.join(timeout=30)
    assert opened == [0]


def test_one_history_shared_by_threads(history):
    def writer(number: int) -> None:
        for _ in range(10):
            history.add(connect4_game(X_WINS, (f"thread{number}", "x")), "app")

    threads = [threading.Thread(target=writer, args=(number,)) for number in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert history.count() == 40


# --- the schema ----------------------------------------------------------------------

def test_a_version_1_database_is_upgraded_with_its_games(tmp_path):
    path = tmp_path / "history.sqlite3"
    with History(path, migrations=MIGRATIONS[:1]) as old:  # what version 1 created
        assert old.version() == 1
        columns = [row[1] for row in old.db.execute("PRAGMA table_info(games)")]
        assert "source" not in columns
        records = [connect4_game(X_WINS, date="2026-01-01T00:00:00"),
                   connect4_game(O_WINS, ("human", "alphabeta:depth=3"),
                                 date="2026-01-02T00:00:00")]
        for record in records:  # as version 1 stored a game
            old.db.execute(
                "INSERT INTO games (game, game_id, first, second, result, reason, date, "
                "moves, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (record.game.spec, record.game.id, *record.players, record.result,
                 record.reason, record.date, len(record.moves), format_record(record)))
    with History(path) as history:
        assert history.version() == VERSION == len(MIGRATIONS)
        indexes = {row[1] for row in history.db.execute("PRAGMA index_list(games)")}
        assert {"games_by_date", "games_by_game"} <= indexes
        games = history.list()
        assert [(g.first, g.second, g.result, g.source) for g in games] == [
            ("human", "alphabeta:depth=3", "0-1", "unknown"),
            ("random", "greedy", "1-0", "unknown")]
        assert format_record(history.get(games[1].id)) == format_record(records[0])
        new = history.add(connect4_game(X_WINS), "demo")
        assert history.summary(new).source == "demo"


def test_a_failed_migration_changes_nothing(tmp_path):
    path = tmp_path / "history.sqlite3"
    History(path, migrations=MIGRATIONS[:1]).close()

    def broken(db: sqlite3.Connection) -> None:
        db.execute("ALTER TABLE games ADD COLUMN half TEXT")
        db.execute("THIS IS NOT SQL")

    with pytest.raises(PlygroundError, match="cannot be used"):
        History(path, migrations=[MIGRATIONS[0], broken])
    with History(path, migrations=MIGRATIONS[:1]) as old:
        assert old.version() == 1
        assert "half" not in [row[1] for row in old.db.execute("PRAGMA table_info(games)")]


def test_a_newer_database_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "history.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, future TEXT)")
    db.execute(f"PRAGMA user_version = {VERSION + 1}")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(PlygroundError, match=f"schema version {VERSION + 1}, newer than "
                                             f"this plyground knows \\({VERSION}\\)"):
        History(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("content", [b"not a database at all\n", bytes(range(256)) * 20])
def test_a_file_that_is_no_database_is_refused_and_left_alone(tmp_path, content):
    path = tmp_path / "history.sqlite3"
    path.write_bytes(content)
    with pytest.raises(PlygroundError) as refused:
        History(path)
    assert str(path) in str(refused.value) and "not a SQLite database" in str(refused.value)
    assert path.read_bytes() == content
    assert sorted(tmp_path.iterdir()) == [path]  # no -wal or -shm file beside it
