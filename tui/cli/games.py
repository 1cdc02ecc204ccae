"""`plyground games`: the game history (core/records/history.py) on the command line: list the
games played, show or export one as its game record, import records from files.

Errors are PlygroundErrors, which the main command prints as one `error: ...` line.
"""
from __future__ import annotations

import json
import re
import shutil
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.text import Text

from plyground.core import PlygroundError, parse_game
from plyground.core.errors import visible
from plyground.core.records.history import History, history_path
from plyground.core.paths import NotReplaced, UnreadableFile, read_text_file, write_atomically
from plyground.core.records.record import (HEADER, GameRecord, RecordError, load_record,
                                           parse_record)

from ..exit_codes import USAGE_ERROR
from ..tables import Spec, cli_table, number_column, text_column
from .options import ID_RANGE, Force, refusal

games_app = typer.Typer()


@games_app.callback(invoke_without_command=True)
def games(ctx: typer.Context) -> None:
    """The history of games played: list, show, export, import records; repair.

    The app stores each game played in it (once it is finished, saved or left with
    moves played) and each game of its Match screen; demo, match, tournament and
    sprt store each game they play (unless --no-history). All go to
    history.sqlite3 in the data folder: $PLYGROUND_HOME, else
    ~/.local/share/plyground. A history SQLite finds damaged takes no more games
    until `plyground games repair` rebuilds it.
    """
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())


def checked_history() -> History:
    """The history, checked by SQLite's quick_check first: a damaged one is one line
    that names `games repair` (and takes no more games)."""
    history = History()
    try:
        history.check()
    except BaseException:
        history.close()
        raise
    return history


GameId = Annotated[int, typer.Argument(metavar="ID", help="the game's id, as "
                                       "`plyground games list` shows it",
                                       show_default=False, **ID_RANGE)]
AsJson = Annotated[bool, typer.Option("--json", help="print JSON instead")]


@games_app.command("list")
def list_games(
    game: Annotated[Optional[str], typer.Option(
        help="only this game: its id (connect4) or its full spec", show_default=False)
    ] = None,
    agent: Annotated[Optional[str], typer.Option(
        help="only games in which a side's player contains this (any case; "
             "human finds games people played)", show_default=False)] = None,
    result: Annotated[Optional[str], typer.Option(
        help="only this result: 1-0, 0-1, 1/2-1/2, * or first, second, draw, "
             "unfinished", show_default=False)] = None,
    limit: Annotated[Optional[int], typer.Option(
        **ID_RANGE, help="at most this many games", show_default=False)] = None,
    as_json: AsJson = False,
) -> None:
    """List the games in the history, newest first."""
    if game is not None:
        parse_game(game)  # an unknown game is an error here too, not an empty list
    with checked_history() as history:
        games = history.list(game=game, agent=agent, result=result, limit=limit)
    if as_json:
        typer.echo(json.dumps([asdict(summary) for summary in games], indent=2))
        return
    if not games:
        typer.echo(f"no games{' match' if game or agent or result else ''} "
                   f"in the history ({history.path})")
        return
    table = cli_table()
    number_column(table, "id")
    for header in ("date", "game", "first", "second"):  # a date breaks before its time
        text_column(table, header)
    table.add_column("result", no_wrap=True)
    number_column(table, "moves")
    table.add_column("source", no_wrap=True)
    for summary in games:  # text from records: escapes shown, no markup read (Text)
        table.add_row(str(summary.id), Text(visible(summary.date.replace("T", " ")[:16])),
                      Spec(summary.game), Spec(summary.first), Spec(summary.second),
                      Text(visible(summary.result)),
                      str(summary.moves), Text(visible(summary.source)))
    # a pipe gets Rich's 80 columns too: the specs fold there as on a terminal
    Console(highlight=False).print(table)


@games_app.command("show")
def show_game(id: GameId, as_json: AsJson = False) -> None:
    """Print a game's record (with --json: its headers and moves)."""
    with checked_history() as history:
        text = history.text(id)
        source = history.summary(id).source
    if not as_json:
        typer.echo(visible(text, lines=True), nl=False)  # (JSON escapes them itself)
        return
    record = parse_record(text, source=f"game {id} of the history")
    typer.echo(json.dumps({"id": id, "source": source, "headers": headers_of(text),
                           "moves": [record.game.format_move(move)
                                     for move in record.moves],
                           "variations": record.tree.has_variations,
                           "record": text}, indent=2))


def headers_of(text: str) -> dict[str, str]:
    """The headers at the top of a record's text, in their order."""
    headers = {}
    for line in text.splitlines():
        found = HEADER.match(line.strip())
        if not found:
            break
        headers[found[1]] = re.sub(r"\\(.)", r"\1", found[2])
    return headers


@games_app.command("export")
def export_game(
    id: GameId,
    out: Annotated[Optional[Path], typer.Option(
        "--out", metavar="FILE", help="write the record to FILE (atomically) instead of "
        "printing it", show_default=False)] = None,
    force: Force = False,
) -> None:
    """Print a game's record, or write it to a file.

    An existing FILE is replaced only with --force; a symbolic link never.
    Printed, a control character in the record is shown as its escape (\\x1b);
    written to FILE, the record is kept as it is.
    """
    with checked_history() as history:
        text = history.text(id)
    if out is None:  # a terminal, or a pipe to one: the record's escapes shown
        typer.echo(visible(text, lines=True), nl=False)
        return
    try:
        write_atomically(out, text, overwrite=force)
    except NotReplaced as refused:
        raise PlygroundError(refusal(refused)) from None
    except OSError as error:
        raise PlygroundError(f"cannot write {out}: {error.strerror or error}") from None
    print(f"game {id} written to {out}", file=sys.stderr)


@games_app.command("import")
def import_games(
    files: Annotated[list[Path], typer.Argument(
        metavar="FILE", help="game record files (one or more records each)",
        show_default=False)],
    as_json: AsJson = False,
) -> None:
    """Add the game records in files to the history; prints their new ids.

    A file with a bad record (an illegal move, a malformed header) is
    skipped whole, with an error naming its line; the other files are
    imported, and the exit code is 2.
    """
    imported, failed = [], []
    with checked_history() as history:
        for file in files:
            try:
                ids = history.add_all(read_records(file), "import")
            except RecordError as error:
                failed.append({"file": str(file), "error": str(error)})
                print("error: " + visible(" ".join(str(error).split())), file=sys.stderr)
                continue
            imported.append({"file": str(file), "ids": ids})
    if as_json:
        typer.echo(json.dumps({"imported": imported, "failed": failed}, indent=2))
    else:
        for entry in imported:
            ids = entry["ids"]
            typer.echo(f"{visible(entry['file'])}: game{'' if len(ids) == 1 else 's'} "
                       + ", ".join(map(str, ids)))
    if failed:
        raise typer.Exit(USAGE_ERROR)


def read_records(file: Path) -> list[GameRecord]:
    """Every record in `file` (records follow each other, each starting with its
    headers); a RecordError naming the file's line if one is bad."""
    try:
        text = read_text_file(file, "game record")
    except UnreadableFile:
        return [load_record(file)]  # which says what is wrong with the file
    lines = text.splitlines()
    starts = record_starts(lines)
    # Each record is read with blank lines in place of the ones before it, so that
    # errors name the file's own line numbers.
    return [parse_record("\n" * start + "\n".join(lines[start:end]), source=str(file))
            for start, end in zip(starts, [*starts[1:], len(lines)])]


def record_starts(lines: list[str]) -> list[int]:
    """The index of each record's first line: the file's start, then each header
    that follows moves."""
    starts, in_moves = [0], False
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or stripped.startswith(";"):
            continue
        header = stripped.startswith("[")
        if header and in_moves:
            starts.append(index)
        in_moves = not header
    return starts


@games_app.command("repair")
def repair_history() -> None:
    """Rebuild a damaged history from what can still be read of it.

    The damaged file is kept first, beside it (history.damaged-DATE.sqlite3,
    with its -wal and -shm files); the sqlite3 program's .recover then reads
    what it can into a new history, which takes the old one's place. Without
    the sqlite3 program, it says how to do it by hand. Run it while nothing
    else (the app, a match) uses the history.
    """
    # only this command repairs: the others do not pay for its import
    from plyground.core.records.repair import is_damaged, keep_copy, rebuild, steps_by_hand

    path = history_path()
    if not path.is_file():
        raise PlygroundError(f"there is no game history at {path}: nothing to repair")
    if not is_damaged(path):
        typer.echo(f"the game history {path} is not damaged (SQLite's quick_check finds "
                   "nothing wrong): it is left as it is")
        return
    program = shutil.which("sqlite3")
    try:
        copy = keep_copy(path)
    except OSError as error:
        raise PlygroundError(f"cannot keep a copy of {path}, so it is left as it is: "
                             f"{error.strerror or error}") from None
    if program is None:
        typer.echo("\n".join(steps_by_hand(path, copy)))
        raise PlygroundError(f"the sqlite3 program is not installed, so {path} was not "
                             f"rebuilt; the damaged file is kept as {copy}")
    repaired = rebuild(path, program, copy)
    left_out = (f", {repaired.left_out} unreadable row{'s' * (repaired.left_out > 1)} "
                "left out") if repaired.left_out else ""
    typer.echo(f"{repaired.games} games recovered into {path} (sqlite3 "
               f"{repaired.method}{left_out}); the damaged file is kept as {repaired.copy}")
