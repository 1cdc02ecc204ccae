"""`plyground solve connect4`: the exact solver on standard input, line for line as the
well-known public solver reads and writes (so benchmark scripts written for it run
unchanged): one position a line in column-digit notation (an empty line is the start),
out `<position> <score>`; with --analyze, `<position>` and the seven column scores
(-1000 for a full column); with --weak, scores are -1, 0 or 1. A bad line prints an
error naming it on stderr and the next line is read. Positions in the opening book
(core/connect4/book.py) are answered from it. `--build-book N [--out FILE] [--jobs J]` builds
that book instead (J threads, one a core by default; resumable: see core/connect4/book.py).
"""
from __future__ import annotations

import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import Annotated, Optional

import typer

from plyground.core import PlygroundError, game_entries, parse_game
from plyground.core.game import GameEntry, load_ref
from plyground.core.ranges import DEEPEST, MOST_JOBS
from plyground.core.errors import visible


def solvable() -> list[GameEntry]:
    """The games that declare an exact solver (`GameEntry.solver`)."""
    return [entry for entry in game_entries() if entry.solver is not None]


def solve_command(
    game_spec: Annotated[str, typer.Argument(
        metavar="GAME", show_default=False,
        help="the game: " + ", ".join(entry.id for entry in solvable())
             + " (the only one with an exact solver)")],
    analyze: Annotated[bool, typer.Option(
        "--analyze", "-a", help="print each column's score instead of the position's")
    ] = False,
    weak: Annotated[bool, typer.Option(
        "--weak", "-w", help="only win (1), draw (0) or loss (-1)")] = False,
    build_book: Annotated[Optional[int], typer.Option(
        "--build-book", metavar="N", min=0, max=DEEPEST,
        help="build the opening book of every position with at most N stones instead "
        "(hours for N = 4; run again after an interruption, it goes on where it "
        "stopped)", show_default=False)] = None,
    out: Annotated[Optional[Path], typer.Option(
        "--out", metavar="FILE", help="with --build-book: the book file to write "
        "(default: the shipped book)", show_default=False)] = None,
    jobs: Annotated[Optional[int], typer.Option(
        "--jobs", "-j", metavar="J", min=1, max=MOST_JOBS,
        help="with --build-book: threads solving at once (default: one a core)",
        show_default=False)] = None,
) -> None:
    """Solve positions read from standard input, one a line, exactly.

    A position is the columns played, e.g. 4453; an empty line is the start.
    Prints `<position> <score>` a line: for the side to move, a win with its
    k-th stone scores 22 - k, a loss k - 22, a draw 0.
    """
    game = parse_game(game_spec)
    if game.entry.solver is None:
        raise PlygroundError(f"there is no exact solver for {game.title}: only for "
                             + ", ".join(entry.title for entry in solvable()))
    if build_book is None:
        if out is not None or jobs is not None:
            raise PlygroundError(f"{'--out' if out is not None else '--jobs'} goes with "
                                 "--build-book N")
    else:
        if analyze or weak:
            raise PlygroundError(f"{'--analyze' if analyze else '--weak'} does not go "
                                 "with --build-book: a book holds exact scores")
        build(load_ref(game.entry.book), build_book, out, jobs)
        return
    with warnings.catch_warnings(record=True) as caught:  # an unusable book: one line
        warnings.simplefilter("always")
        solver = load_ref(game.entry.solver)()  # the solver's kernels load here
    for warning in caught:
        print(f"warning: {warning.message}", file=sys.stderr, flush=True)
    for number, line in enumerate(sys.stdin, start=1):
        text = line.strip()
        try:
            state = game.parse_position(text)
        except PlygroundError as error:
            print(f"line {number}: {visible(str(error))}", file=sys.stderr, flush=True)
            continue
        if analyze:
            scores = " ".join(str(score) for score in solver.analyze(state, weak))
            print(f"{text} {scores}", flush=True)
        else:
            print(f"{text} {solver.solve(state, weak)}", flush=True)


def build(book: ModuleType, depth: int, out: Path | None, jobs: int | None) -> None:
    """`--build-book` with the game's `book` module: an interruption (^C) says where
    the work is kept, on one line."""
    out = out or book.BOOK_PATH
    try:
        book.build(depth, out, log=lambda text: print(text, flush=True), jobs=jobs)
    except KeyboardInterrupt:
        print(book.interrupted(out), file=sys.stderr, flush=True)
        raise typer.Exit(130) from None
