"""What match and tournament share: the progress of many games on stderr, the line an
interruption ends with, and the parts of their text reports alike."""
from __future__ import annotations

import sys
import time
from contextlib import closing
from typing import Callable, Iterator, TypeVar

import typer
from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeElapsedColumn)

from plyground.core.play.tournament import GameResult

from ..exit_codes import INTERRUPTED

T = TypeVar("T")


def collect(running: Iterator[T], total: int, quiet: bool,
            describe: Callable[[T], str]) -> tuple[list[T], bool]:
    """The results of `total` games as `running` yields them, and whether Ctrl-C cut
    them short, which stops the games under way. Progress goes to stderr: a bar when
    it is a terminal (unless `quiet`), else a line per finished game (`describe`
    says the game), so a log or a pipe shows the match moving."""
    stderr = Console(stderr=True)
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=stderr, transient=True,
                        disable=quiet or not stderr.is_terminal)
    results: list[T] = []
    started = time.monotonic()
    try:
        with progress, closing(running):
            task = progress.add_task("games", total=total)
            for result in running:
                results.append(result)
                progress.advance(task)
                if not stderr.is_terminal:
                    print(f"[{len(results)}/{total}, {time.monotonic() - started:.0f} s] "
                          f"{describe(result)}", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        return results, True
    return results, False


def game_line(specs: tuple[str, str] | list[str], result: GameResult) -> str:
    """One finished game of two agents, for the progress lines: `game 3: alphabeta
    (first) beat seed, Blue connects four, 61 plies`."""
    first = specs[result.first]
    other = specs[1 - result.first]
    if result.winner is None:
        said = f"{first} (first) drew with {other}"
    elif result.winner == result.first:
        said = f"{first} (first) beat {other}"
    else:
        said = f"{other} beat {first} (first)"
    plies = f"{result.plies} {'ply' if result.plies == 1 else 'plies'}"
    return f"game {result.number}: {said}, {result.reason}, {plies}"


def exit_if_interrupted(interrupted: bool, played: int, total: int) -> None:
    if interrupted:
        print(f"interrupted after {played} of {total} games", file=sys.stderr)
        raise typer.Exit(INTERRUPTED)


def print_forfeits(report: dict) -> None:
    if report["forfeits"]:
        typer.echo("forfeits (games lost by failing to play):")
    for entry in report["forfeits"]:
        games = entry["games"]
        typer.echo(f"  {entry['agent']}, {games} game{'' if games == 1 else 's'}: "
                   f"{entry['fault']}")


def percent(score: float | None) -> str:
    return "-" if score is None else f"{score:.1f}%"
