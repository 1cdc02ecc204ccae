"""What match and tournament share: playing a run's games (new or resumed), each kept
in the game history as it ends, their progress on stderr, the line an interruption
ends with, and the parts of their text reports alike."""
from __future__ import annotations

import sys
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Callable, Iterator, Optional, Sequence, TypeVar

import typer
from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeElapsedColumn)

from plyground.core import Game, PlygroundError
from plyground.core.errors import visible
from plyground.core.play.cluster import open_pool
from plyground.core.play.openings import NO_OPENINGS, opening_suite, openings_option
from plyground.core.play.tournament import GameJob, GameResult, run_games
from plyground.core.records.history import History
from plyground.core.records.runs import finish_run, run_results, start_run

from ..exit_codes import INTERRUPTED
from .options import GAME_HELP, ID_RANGE
from .recording import record_match_game, recorded
from .stopping import CUT_SHORT, saying

T = TypeVar("T")

RunGame = Annotated[Optional[str], typer.Argument(
    metavar="GAME", show_default=False,
    help=GAME_HELP + " (with --resume, the run's: leave it out)")]
Resume = Annotated[Optional[int], typer.Option(
    "--resume", metavar="RUN", show_default=False, **ID_RANGE,
    help="go on with the run RUN (its number, printed at the end and by Ctrl-C): play "
         "only the games it has not kept, then report on all of them; the other "
         "options come from the run (give one only as the run has it)")]
Openings = Annotated[Optional[str], typer.Option(
    "--openings", metavar="NAME|FILE", show_default=False,
    help="play the games in pairs from an opening suite's positions, each twice with "
         "the colours swapped (--games must be even): a shipped suite's name "
         "(balanced) or a suite file (see `plyground openings`)")]


def opening_lines(game: Game, openings: str | None, games: int
                  ) -> Callable[[int], str] | None:
    """Round r's opening of the suite `openings` (None without one)."""
    suite = opening_suite(game, openings)
    if suite is None:
        return None
    if games % 2:
        raise PlygroundError(f"--openings plays the games in pairs, each opening with the "
                             f"colours swapped: give an even --games, not {games}")
    return suite.opening


@dataclass(frozen=True)
class RunPlan:
    """A run of games to play: its `kind` (match, tournament), the `params` and
    `command` stored with it, its `jobs`, and per job the agents' specs (`names`,
    player 0's first) and the Event its record gets (`event`)."""

    kind: str
    game: Game
    params: dict
    command: str
    jobs: list[GameJob]
    names: Callable[[GameJob], Sequence[str]]
    event: Callable[[GameJob], str]


@dataclass(frozen=True)
class Played:
    """A run's games played: all it holds, stored earlier or now, by match and number
    (each key once); of how many; its id in the history (None without one); and
    whether Ctrl-C cut it short."""

    results: list[tuple[GameJob, GameResult]]
    total: int
    run: int | None
    interrupted: bool


def begin_run(history: History | None, kind: str, game_spec: str, params: dict,
              command: str, resume: int | None) -> tuple[int | None, dict[str, GameResult]]:
    """The run a command's games go to in `history` (None without one): a new one, or
    the run `resume`, marked running again; and the games it has kept, by key."""
    if history is None:
        return None, {}
    if resume is None:
        return start_run(history, kind, game_spec, params, command), {}
    finish_run(history, resume, "running")
    return resume, run_results(history, resume)


def play_run(plan: RunPlan, history: History | None, resume: int | None,
             workers: int | None, cluster: str | None, quiet: bool) -> Played:
    """Play the plan's games on `workers` processes here, or on the Dask `cluster`,
    each kept in `history` with the run as it ends; resuming the run `resume`, only
    the games it has not kept."""
    run, kept = begin_run(history, plan.kind, plan.game.spec, plan.params, plan.command,
                          resume)
    todo = [job for job in plan.jobs if job.key not in kept]

    def store(item: tuple[GameJob, GameResult]) -> None:
        job, result = item
        record_match_game(history, plan.kind, plan.game, job.players, result,
                          plan.event(job), None if run is None else (run, job.key))

    new: list[tuple[GameJob, GameResult]] = []
    interrupted = False
    if todo:
        with saying(CUT_SHORT), open_pool(plan.game, workers, cluster) as pool:
            say_start(len(todo), len(plan.jobs), pool.size, cluster is not None, quiet)
            new, interrupted = collect(
                recorded(run_games(plan.game, todo, pool), store), len(plan.jobs), quiet,
                lambda item: game_line(plan.names(item[0]), item[1]), len(kept))
    if run is not None:
        finish_run(history, run, "interrupted" if interrupted else "finished")
        kept = run_results(history, run)  # what the run holds, each key once
    else:
        kept = {job.key: result for job, result in new}
    jobs = {job.key: job for job in plan.jobs}
    results = sorted(((jobs[key], result) for key, result in kept.items()),
                     key=lambda item: (item[0].match, item[0].number))
    return Played(results, len(plan.jobs), run, interrupted)


def say_start(todo: int, total: int, size: int, on_cluster: bool, quiet: bool) -> None:
    """A line on stderr as the games start: the first game's end may be minutes
    away, and until then a log or a pipe would show nothing at all."""
    if quiet and sys.stderr.isatty():
        return
    games = f"{todo} games" if todo == total else f"the {todo} games of {total} not kept"
    where = (f"{size} thread{'s' if size != 1 else ''} of the Dask cluster" if on_cluster
             else f"{size} worker{'s' if size != 1 else ''}")
    print(f"playing {games} on {where}…", file=sys.stderr, flush=True)


def collect(running: Iterator[T], total: int, quiet: bool,
            describe: Callable[[T], str], done: int = 0) -> tuple[list[T], bool]:
    """The results of `total` games, `done` of them played before, as `running`
    yields them, and whether Ctrl-C cut them short, which stops the games under way.
    Progress goes to stderr: a bar when it is a terminal (unless `quiet`), else a line
    per finished game (`describe` says the game), so a log or a pipe shows the match
    moving."""
    stderr = Console(stderr=True)
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=stderr, transient=True,
                        disable=quiet or not stderr.is_terminal)
    results: list[T] = []
    started = time.monotonic()
    try:
        with progress, closing(running):
            task = progress.add_task("games", total=total, completed=done)
            for result in running:
                results.append(result)
                progress.advance(task)
                if not stderr.is_terminal:
                    print(f"[{done + len(results)}/{total}, {time.monotonic() - started:.0f} s] "
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
    # (an agent's fault may quote what it wrote: its escapes shown)
    return visible(f"game {result.number}: {said}, {result.reason}, {plies}")


def end_run(played: Played, kind: str, done: str | None = None) -> None:
    """The run's last line on stderr, which names it in the history (the report
    on stdout is the same whether the run went straight or resumed); after Ctrl-C,
    the interruption's exit code and how to go on (`done` says how far it went:
    by default, how many of its games)."""
    if played.interrupted:
        resume = ("" if played.run is None
                  else f"; resume with: plyground {kind} --resume {played.run}")
        done = done or f"{len(played.results)} of {played.total} games"
        print(f"interrupted after {done}{resume}", file=sys.stderr)
        raise typer.Exit(INTERRUPTED)
    if played.run is not None:
        print(f"run {played.run}", file=sys.stderr)


def print_forfeits(report: dict) -> None:
    if report["forfeits"]:
        typer.echo("forfeits (games lost by failing to play):")
    for entry in report["forfeits"]:
        games = entry["games"]
        typer.echo(visible(f"  {entry['agent']}, {games} game{'' if games == 1 else 's'}"
                           f": {entry['fault']}"))


def percent(score: float | None) -> str:
    return "-" if score is None else f"{score:.1f}%"
