"""`plyground solve connect4`: the exact solver on standard input, line for line as the
well-known public solver reads and writes (so benchmark scripts written for it run
unchanged): one position a line in column-digit notation (an empty line is the start),
out `<position> <score>`; with --analyze, `<position>` and the seven column scores
(-1000 for a full column); with --weak, scores are -1, 0 or 1. A bad line prints an
error naming it on stderr and the next line is read. Positions in the opening book
(core/c4book.py) are answered from it. `--build-book N [--out FILE]` builds that
book instead (one thread; minutes to hours: see core/c4book.py).
"""
from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Annotated, Optional

import typer

from plyground.core import PlygroundError, parse_game
from plyground.core.games.connect4 import Connect4


def solve_command(
    game_spec: Annotated[str, typer.Argument(
        metavar="GAME", help="the game: connect4 (the only one with an exact solver)",
        show_default=False)],
    analyze: Annotated[bool, typer.Option(
        "--analyze", "-a", help="print each column's score instead of the position's")
    ] = False,
    weak: Annotated[bool, typer.Option(
        "--weak", "-w", help="only win (1), draw (0) or loss (-1)")] = False,
    build_book: Annotated[Optional[int], typer.Option(
        "--build-book", metavar="N", help="build the opening book of every position "
        "with at most N stones instead (one thread; N = 2 takes about 40 minutes)",
        show_default=False)] = None,
    out: Annotated[Optional[Path], typer.Option(
        "--out", metavar="FILE", help="with --build-book: the book file to write "
        "(default: the shipped book)", show_default=False)] = None,
) -> None:
    """Solve positions read from standard input, one a line, exactly.

    A position is the columns played, e.g. 4453; an empty line is the start.
    Prints `<position> <score>` a line: for the side to move, a win with its
    k-th stone scores 22 - k, a loss k - 22, a draw 0.
    """
    game = parse_game(game_spec)
    if not isinstance(game, Connect4):
        raise PlygroundError(f"there is no exact solver for {game.title}: only for "
                             "Connect 4")
    if out is not None and build_book is None:
        raise PlygroundError("--out goes with --build-book N")
    if build_book is not None:
        from plyground.core import c4book

        c4book.build(build_book, out or c4book.BOOK_PATH,
                     log=lambda text: print(text, flush=True))
        return
    from plyground.core.fast.c4solver import Solver

    with warnings.catch_warnings(record=True) as caught:  # an unusable book: one line
        warnings.simplefilter("always")
        solver = Solver()
    for warning in caught:
        print(f"warning: {warning.message}", file=sys.stderr, flush=True)
    for number, line in enumerate(sys.stdin, start=1):
        text = line.strip()
        try:
            state = game.parse_position(text)
        except PlygroundError as error:
            print(f"line {number}: {error}", file=sys.stderr, flush=True)
            continue
        if analyze:
            scores = " ".join(str(score) for score in solver.analyze(state, weak))
            print(f"{text} {scores}", flush=True)
        else:
            print(f"{text} {solver.solve(state, weak)}", flush=True)
