"""`plyground review FILE|ID`: every move of a game labelled (best, good, inaccuracy,
mistake, blunder), each side's accuracy and a chart of the value over the plies
(core/study/review.py says how). FILE is a game record (core/records/record.py); ID a game of the
history (`plyground games list`). Progress goes to stderr while positions are being
analysed; `--json` prints the review as one JSON object.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, \
    TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from plyground.core.agents.base import check_plays
from plyground.core.catalogue import parse_agent
from plyground.core.errors import visible
from plyground.core.ranges import LARGEST_ID
from plyground.core.records.history import History
from plyground.core.records.record import GameRecord, load_record
from plyground.core.study.review import (CREDITED, GOOD_LOSS, INACCURACY_LOSS, LABELS,
                                         MISTAKE_LOSS, SOLVER, Review, review)

from ..exit_codes import INTERRUPTED
from ..review_labels import label_text
from ..tables import cli_table, text_column
from ..value_chart import chart

CHART_HALF = 3  # rows above (and below) the zero line
CHART_WIDTH = 60  # a short game's plies spread over about this many columns


def load_game(source: str) -> GameRecord:
    """The record in the file `source`, or the history's game of that number."""
    path = Path(source).expanduser()
    number = source.strip()
    try:
        exists = path.exists()
    except OSError:  # a name too long to be a file's, say
        exists = False
    if exists or not (number.isascii() and number.isdigit()):  # int() takes these
        return load_record(path)
    digits = number.lstrip("0") or "0"
    with History() as history:
        if len(digits) > 19 or int(digits) > LARGEST_ID:  # past any id SQLite holds
            raise history.missing(digits)
        return history.get(int(digits))


def labels_help(review: Review) -> str:
    """How the labels were given, in a line or two."""
    if review.analyser == SOLVER:
        return ("labels (exact): best keeps the solver's score; inaccuracy keeps the "
                "result, winning later or losing sooner; blunder changes the result")
    return (f"labels: best, or the expected score lost: good under "
            f"{GOOD_LOSS:.0%}, inaccuracy under {INACCURACY_LOSS:.0%}, mistake under "
            f"{MISTAKE_LOSS:.0%}, blunder from {MISTAKE_LOSS:.0%} (a heuristic "
            f"{review.scale:+g} is 75%); ~ marks an estimate, the rest are proven")


def moves_table(review: Review) -> Table:
    game = review.game
    table = cli_table()
    for header in ("", "side", "move"):
        table.add_column(header, no_wrap=True)
    text_column(table, "label", min_width=len("inaccuracy ~"))  # its note wraps
    table.add_column("value", no_wrap=True)
    text_column(table, "best move")
    for move in review.moves:
        number = f"{move.ply // 2 + 1}." + ("" if move.side == 0 else "..")
        best = "" if move.label == "best" else \
            f"{game.format_move(move.best_move)} ({move.best_text})"
        table.add_row(number, game.side_labels[move.side], game.format_move(move.move),
                      label_text(move).append(f"\n{move.note}" if move.note else ""),
                      move.played_text, best)
    return table


def accuracy_line(review: Review) -> str:
    parts = []
    for side, name in enumerate(review.game.side_labels):
        accuracy, moves = review.accuracy(side), review.side_moves(side)
        if accuracy is None:
            parts.append(f"{name} -")
            continue
        credited = sum(move.label in CREDITED for move in moves)
        counts = review.counts(side)
        rest = ", ".join(f"{counts[label]} {label}" for label in LABELS[2:]
                         if counts[label])
        parts.append(f"{name} {accuracy:.1f}% ({credited} of {len(moves)} best or good"
                     + (f"; {rest}" if rest else "") + ")")
    return "accuracy: " + "; ".join(parts)


def chart_lines(review: Review, available: int) -> list[str]:
    """The value chart with its scale on the left, `available` columns in all."""
    values = review.values
    room = max(10, available - 3)
    width = min(room, len(values) * max(1, CHART_WIDTH // max(1, len(values))))
    margin = {0: "+1 ", CHART_HALF: " 0 ", 2 * CHART_HALF: "-1 "}
    rows = chart(values, width, CHART_HALF)
    return [margin.get(index, "   ") + row for index, row in enumerate(rows)]


def print_review(record: GameRecord, review: Review) -> None:
    console = Console(highlight=False)
    game = review.game
    # the players, the result and its reason are the record's: escapes shown
    players = ", ".join(f"{label} = {visible(player)}" for label, player
                        in zip(game.side_labels, record.players))
    console.print(Text(f"{game.title} ({game.spec}): {len(review.moves)} moves, "
                       f"{players}, result {visible(record.result)}"
                       + (f" ({visible(record.reason)})" if record.reason else "")))
    exact = "every label exact" if review.exact else \
        f"{sum(move.exact for move in review.moves)} of {len(review.moves)} labels exact"
    console.print(Text(f"judged by {visible(review.analyser)}: {exact}; "
                       f"{review.elapsed:.1f} s"))
    console.print(Text(labels_help(review), style="dim"))
    if review.moves:
        console.print(moves_table(review))
    else:
        console.print(Text("no moves to review"))
    console.print(Text(accuracy_line(review)))
    first, second = game.side_labels
    console.print(Text(f"value for {first} (+1: {first} wins, -1: {second} wins), "
                       f"ply {review.start.ply} to "
                       f"{review.start.ply + len(review.values) - 1}:"))
    for line in chart_lines(review, console.width):
        console.print(Text(line), no_wrap=True, crop=False)


def review_command(
    source: Annotated[str, typer.Argument(
        metavar="FILE|ID", help="a game record file, or the number of a game in the "
        "history (plyground games list)", show_default=False)],
    agent_spec: Annotated[Optional[str], typer.Option(
        "--agent", metavar="AGENT", show_default=False,
        help="the agent that judges each position (default: Connect 4's exact solver; "
             "else alphabeta at the game's node or depth budget, see the README)")
    ] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="print one JSON object: each move's label and values, the "
        "accuracies and the value per ply")] = False,
) -> None:
    """Review a game: label every move, give each side an accuracy, chart the value.

    Connect 4's labels are exact (the solver); other games' come from a search
    at a fixed budget, marked as estimates (~) unless the search proved both
    values. Values are for the side that moved; the chart's for the first side.
    """
    record = load_game(source)
    agent = parse_agent(agent_spec) if agent_spec else None
    if agent is not None:  # refused before anything is said to have begun
        check_plays(agent, record.game)
    stderr = Console(stderr=True)
    if not stderr.is_terminal:  # (a terminal gets the bar below): say it has begun
        judge = f" with {visible(agent_spec)}" if agent_spec else ""
        print(f"reviewing {record.final.ply - record.start.ply} moves{judge}…",
              file=sys.stderr, flush=True)
    progress = Progress(TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("positions"), TimeElapsedColumn(), console=stderr,
                        transient=True, disable=not stderr.is_terminal)
    try:
        with progress:
            task = progress.add_task("review", total=None)
            result = review(record, agent, lambda done, total: progress.update(
                task, completed=done, total=total))
    except KeyboardInterrupt:
        print("interrupted: the review was not finished", file=sys.stderr)
        raise typer.Exit(INTERRUPTED) from None
    if as_json:
        typer.echo(json.dumps({**result.to_dict(), "players": list(record.players),
                               "result": record.result, "reason": record.reason},
                              indent=2))
    else:
        print_review(record, result)
