"""A game history with a damaged page: once SQLite says so (a write that meets it, or the
quick_check the `games` commands run), no command puts another game into it, each says
in one line that `plyground games repair` recovers it (the app plays on and says so),
and `games repair` keeps a copy and rebuilds the history from what the sqlite3 program
can still read."""
from __future__ import annotations

import hashlib
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from plyground.core import get_game
from plyground.core.records.history import (History, HistoryDamaged, damage_mark,
                                            history_path, played_record)
from tests.cli.test_games_cli import home, invoke, one_error_line  # noqa: F401 (home)
from tests.tui.helpers import SIZE, make_app, record_notifications, wait_until

GAMES = 200
DEMO = ("demo", "tictactoe", "--x", "random", "--o", "random", "--quiet", "--seed", "3")
MATCH = ("match", "tictactoe", "--first", "random", "--second", "greedy", "--games", "2",
         "--jobs", "1")
BYTES = b"\xde\xad" * 1000  # what lands on the damaged page


def fill_history() -> Path:
    """A history of GAMES tic-tac-toe games, all of it in the database file."""
    game = get_game("tictactoe")
    start = game.start()
    moves = game.parse_line(start, "a1 b1 a2 b2")
    record = played_record(game, start, moves, None, ("random", "greedy"), seed=1,
                           reason="a game to lose")
    with History() as history:
        history.add_all([record] * GAMES, "demo")
    return history_path()  # closed: the WAL is in the file and gone


def page_of(path: Path, table: str, middle: bool = False) -> int:
    """A page of `table` (a leaf from the middle of its leaves with `middle`)."""
    with closing(sqlite3.connect(path)) as db:
        pages = [page for (page,) in db.execute(
            "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' "
            "ORDER BY pageno", (table,))]
    return pages[len(pages) // 2] if middle else pages[0]


def damage(path: Path, page: int) -> None:
    """Overwrite the start of database page `page` (2 or more) with garbage."""
    size = 4096  # SQLite's default page size
    with open(path, "r+b") as file:
        file.seek((page - 1) * size)
        file.write(BYTES)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def damaged_reads() -> Path:
    """A history whose damage a read meets (a page in the middle of the games), which
    a new game's write does not: today's demo would take it."""
    path = fill_history()
    damage(path, page_of(path, "games", middle=True))
    return path


@pytest.fixture
def damaged_writes() -> Path:
    """A history whose damage each new game's write meets (the AUTOINCREMENT table)."""
    path = fill_history()
    damage(path, page_of(path, "sqlite_sequence"))
    return path


def test_games_list_says_the_history_is_damaged_and_a_demo_then_keeps_no_game(
        damaged_reads):
    line = one_error_line("games", "list")
    assert "damaged" in line and "`plyground games repair`" in line
    assert damage_mark(damaged_reads).is_file()
    before = digest(damaged_reads)
    for command in (DEMO, MATCH, ("tournament", "tictactoe", "--agents", "random",
                                  "greedy", "--jobs", "1"),
                    ("sprt", "tictactoe", "random", "greedy", "--jobs", "1")):
        line = one_error_line(*command)
        assert "damaged" in line and "`plyground games repair`" in line
        assert "--no-history" in line
    assert digest(damaged_reads) == before  # not one more game went in
    for command in (("games", "show", "1"), ("games", "export", "1")):
        assert "`plyground games repair`" in one_error_line(*command)


def test_a_write_that_meets_the_damage_says_the_game_was_not_kept(damaged_writes):
    result = invoke(*DEMO)
    assert result.exit_code == 2, result.output
    (line,) = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert "damaged" in line and "`plyground games repair`" in line
    assert line.endswith("this game was not kept")
    assert damage_mark(damaged_writes).is_file()
    line = one_error_line(*DEMO)  # the next one is refused before it plays
    assert "`plyground games repair`" in line and "--no-history" in line


def test_no_write_of_any_kind_goes_into_a_history_marked_damaged(damaged_reads):
    one_error_line("games", "list")
    with History() as history:
        record = history.get(GAMES)  # reading goes on where SQLite can
        for write in (lambda: history.add(record, "app"),
                      lambda: history.update(GAMES, record),
                      lambda: history.delete(GAMES), history.check_writable):
            with pytest.raises(HistoryDamaged, match="games repair"):
                write()


def test_repair_keeps_a_copy_and_rebuilds_the_history_from_what_can_be_read(
        damaged_reads, home):
    assert shutil.which("sqlite3"), "the sqlite3 program is missing: `make test` " \
        "installs it (apt-get install sqlite3)"
    one_error_line("games", "list")
    damaged = digest(damaged_reads)
    result = invoke("games", "repair")
    assert result.exit_code == 0, result.output
    (line,) = result.stdout.splitlines()
    recovered = int(line.split()[0])
    # .dump loses the damaged page's games; .recover (SQLite 3.44 on) may find more
    assert GAMES // 2 < recovered <= GAMES, line
    (copy,) = home.glob("history.damaged-*.sqlite3")
    assert str(copy) in line and digest(copy) == damaged
    assert not damage_mark(damaged_reads).exists()
    with History() as history:
        history.check()
        assert history.count() == recovered
        assert all(game.first == "random" for game in history.list())
    assert invoke(*DEMO).exit_code == 0  # takes games again, numbered after the last
    with History() as history:
        assert history.list(limit=1)[0].id > GAMES


def test_repair_without_the_sqlite3_program_keeps_a_copy_and_says_the_steps(
        damaged_writes, home, tmp_path, monkeypatch):
    invoke(*DEMO)
    before = digest(damaged_writes)
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs"))
    line = one_error_line("games", "repair")
    assert "sqlite3 program is not installed" in line
    result = invoke("games", "repair")
    assert ".recover" in result.stdout and "apt-get install sqlite3" in result.stdout
    copies = sorted(home.glob("history.damaged-*.sqlite3"))
    assert len(copies) == 2 and all(digest(copy) == before for copy in copies)
    assert str(copies[0]) in line or str(copies[1]) in line
    assert digest(damaged_writes) == before and damage_mark(damaged_writes).is_file()


def test_repair_leaves_a_sound_history_as_it_is():
    path = fill_history()
    before = digest(path)
    result = invoke("games", "repair")
    assert result.exit_code == 0 and "not damaged" in result.stdout
    assert digest(path) == before and not list(path.parent.glob("*.damaged-*"))


def test_a_new_history_in_place_of_a_damaged_one_takes_games(damaged_reads):
    one_error_line("games", "list")
    assert damage_mark(damaged_reads).is_file()
    damaged_reads.unlink()  # moved away by hand
    assert invoke(*DEMO).exit_code == 0
    assert not damage_mark(damaged_reads).exists()
    with History() as history:
        assert history.count() == 1


async def test_the_app_plays_on_and_says_its_games_are_not_kept(damaged_reads):
    one_error_line("games", "list")
    before = digest(damaged_reads)
    app = make_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        said = record_notifications(app)
        for column in "4343434":  # Red's four in column 4
            await pilot.press(column)
            await pilot.pause()
        await wait_until(pilot, lambda: app.game_screen.match.outcome is not None)
    (warning,) = [message for message in said if "history" in message]
    assert warning.startswith("The games are not kept in the history: the game history")
    assert "`plyground games repair`" in warning and warning.endswith("not kept")
    assert digest(damaged_reads) == before
