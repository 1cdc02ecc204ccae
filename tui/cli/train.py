"""`plyground train`: tune an agent. Two trainers: `connect4-ga`, the genetic algorithm
of `core/ga/trainer.py` for the Connect 4 strategy agent (below), and `az GAME`,
AlphaZero by self-play (train_az.py).

While it runs: a progress bar on stderr and a line per generation; at the end a chart
of fitness over the generations and the best profile saved (and installed, so the app's
menu offers it). Ctrl-C stops it cleanly and keeps the best profile so far.
"""
from __future__ import annotations

import shlex
import sys
from contextlib import closing
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)
from rich.text import Text

from plyground.core.agents.base import quoted
from plyground.core.ga.profile import Profile, install_profile, installed_name, save_profile
from plyground.core.paths import NotReplaced, data_home
from plyground.core.errors import PlygroundError, UnknownName
from plyground.core.ga.strategies import GENE_NAMES
from plyground.core.ga.trainer import (LARGEST_POPULATION, Generation, TrainingSettings,
                                       train, units_per_generation)

from plyground.core.agents.learned.settings import (RANGES, AzSettings, PlaySettings,
                                                    TrainingError)
from plyground.core.ranges import LONGEST_TRAINING, MOST_GAMES

from ..exit_codes import INTERRUPTED
from .options import SEED_RANGE, Cluster, ClusterSecurity, Force, Jobs, refusal

TRAINERS = ("connect4-ga", "az")
GA_PANEL, AZ_PANEL = "connect4-ga", "az"
AZ = AzSettings()
CHART_WIDTH = 40


def az_range(name: str) -> dict[str, int]:
    """An az option's range, as typer takes it."""
    low, high = RANGES[name]
    return {"min": low, "max": high}


def genes_text(genes) -> str:
    return " ".join(f"{name}={value:.2f}" for name, value in zip(GENE_NAMES, genes))


GENES_HEADER = ("genes: the probability of each pair's first strategy, "
                f"in the order {', '.join(GENE_NAMES)}")


def generation_line(generation: Generation) -> str:
    genes = " ".join(f"{value:.2f}" for value in generation.best)
    return (f"generation {generation.number:>3}  best {generation.best_fitness:.3f}  "
            f"mean {generation.mean_fitness:.3f}  best genes {genes}")


def fitness_chart(generations: list[Generation]) -> Text:
    """Best (█) and mean (░) fitness per generation, as bars on a 0-1 scale."""
    chart = Text()
    chart.append("fitness per generation (█ best, ░ mean; full width = 1.0; every game "
                 "hands out one point, so the mean is 0.5)\n", style="bold")
    for generation in generations:
        best = round(generation.best_fitness * CHART_WIDTH)
        mean = round(generation.mean_fitness * CHART_WIDTH)
        chart.append(f"{generation.number:>4} ")
        chart.append("█" * min(best, mean), style="green")
        chart.append("█" * max(best - mean, 0), style="bold green")
        chart.append("░" * max(mean - best, 0), style="dim")
        chart.append(" " * (CHART_WIDTH - max(best, mean)))
        chart.append(f" {generation.best_fitness:.3f}  {generation.mean_fitness:.3f}\n")
    return chart


def train_command(
    trainer: Annotated[str, typer.Argument(
        help="what to train: connect4-ga (the Connect 4 strategy agent's genes) or az "
             "(an AlphaZero network for GAME, by self-play)", show_default=False)],
    game: Annotated[Optional[str], typer.Argument(
        help="az: the game to learn, as id or id:option=value,...",
        show_default=False)] = None,
    population: Annotated[int, typer.Option(
        min=3, max=LARGEST_POPULATION, help="profiles per generation",
        rich_help_panel=GA_PANEL)] = 12,
    generations: Annotated[Optional[int], typer.Option(
        min=1, max=MOST_GAMES,
        help="generations to run (connect4-ga: default 20; az: as many as "
             "--minutes allows)", show_default=False)] = None,
    survivors: Annotated[int, typer.Option(
        min=2, max=LARGEST_POPULATION,
        help="profiles kept each generation; pairs of them are crossed",
        rich_help_panel=GA_PANEL)] = 6,
    mutation: Annotated[float, typer.Option(
        min=0, max=1, help="how far a mutation moves one gene",
        rich_help_panel=GA_PANEL)] = 0.1,
    seed: Annotated[int, typer.Option(
        **SEED_RANGE, help="the training seed: same seed, same result")] = 1,
    out: Annotated[Optional[Path], typer.Option(
        help="where to save the best profile (connect4-ga; default best.json) or the "
             "accepted net (az; required)", show_default=False)] = None,
    name: Annotated[Optional[str], typer.Option(
        help="the profile's name (default: the file's name)", show_default=False,
        rich_help_panel=GA_PANEL)] = None,
    minutes: Annotated[Optional[float], typer.Option(
        min=0, max=LONGEST_TRAINING, show_default=False, rich_help_panel=AZ_PANEL,
        help="train for this long, self-play included: a generation starts only if "
             "it should end in time")] = None,
    games_per_generation: Annotated[int, typer.Option(
        **az_range("games"),
        help="self-play games a generation", rich_help_panel=AZ_PANEL)] = AZ.games,
    sims: Annotated[int, typer.Option(
        **az_range("sims"), help="PUCT simulations a move, in self-play and the gate",
        rich_help_panel=AZ_PANEL)] = AZ.play.sims,
    buffer: Annotated[int, typer.Option(
        **az_range("buffer"), help="the replay buffer: the last samples kept",
        rich_help_panel=AZ_PANEL)] = AZ.buffer,
    steps: Annotated[int, typer.Option(
        **az_range("steps"),
        help="gradient steps a generation", rich_help_panel=AZ_PANEL)] = AZ.steps,
    batch: Annotated[int, typer.Option(
        **az_range("batch"),
        help="samples a gradient step", rich_help_panel=AZ_PANEL)] = AZ.batch,
    eval_pairs: Annotated[int, typer.Option(
        **az_range("eval_pairs"),
        help="pairs of gate games, new net against the accepted one (0: accept "
             "every generation)", rich_help_panel=AZ_PANEL)] = AZ.eval_pairs,
    channels: Annotated[int, typer.Option(
        **az_range("channels"),
        help="the net's channels", rich_help_panel=AZ_PANEL)] = AZ.channels,
    blocks: Annotated[int, typer.Option(
        **az_range("blocks"),
        help="the net's residual blocks", rich_help_panel=AZ_PANEL)] = AZ.blocks,
    device: Annotated[str, typer.Option(
        rich_help_panel=AZ_PANEL, metavar="cpu|gpu",
        help="where the gradient steps run: cpu, or gpu (JAX's GPU backend, where "
             "one is installed; the games always run on the CPU)")] = "cpu",
    jobs: Jobs = None,
    keep_generations: Annotated[Optional[Path], typer.Option(
        show_default=False, rich_help_panel=AZ_PANEL, metavar="DIR",
        help="also save each accepted net to DIR/generation-N.npz with its training "
             "time (a training curve: python -m tests.bench.bench_az --curve DIR)")] = None,
    force: Force = False,
    cluster: Cluster = None,
    cluster_security: ClusterSecurity = None,  # (carried in `cluster`)
) -> None:
    """Train an agent: a genetic algorithm tunes the Connect 4 strategy agent, or
    AlphaZero learns a game by self-play.

    connect4-ga: each generation plays a round robin (each pair both colours), keeps the
    fittest, crosses them (the seed's intelligent crossover) and mutates the
    children. The best profile is saved to --out and installed, so the app
    offers it; play it from any folder with: plyground play connect4 --second
    ga:profile=NAME (the file's name, without .json)

    az: each generation plays self-play games with the accepted net (PUCT
    search, exploration noise), trains a candidate net on the last samples, and
    keeps it unless it scores below 50% against the accepted one. The accepted
    net is saved to --out as it is accepted (Ctrl-C keeps it); play it with:
    plyground play GAME --second az:net=FILE. Example: plyground train az
    connect4 --minutes 10 --out c4.npz. The gradient steps need the learn
    extra (JAX): pip install 'plyground\\[learn]'; they run beside the games.

    An existing --out file is replaced only with --force; a symbolic link never.
    """
    if trainer not in TRAINERS:
        raise UnknownName(f"unknown trainer {trainer!r} (trainers: {', '.join(TRAINERS)})")
    if trainer == AZ_PANEL:
        if game is None:
            raise TrainingError("az needs the game to learn: plyground train az GAME "
                                "--minutes N --out FILE")
        if out is None:
            raise TrainingError("az needs --out FILE: where to save the net")
        settings = AzSettings(games_per_generation, buffer, steps, batch, eval_pairs,
                              channels=channels, blocks=blocks, seed=seed,
                              play=PlaySettings(sims=sims))
        from .train_az import train_az  # numpy and the trainer: for az alone

        train_az(game, out, minutes, generations, settings, jobs, cluster, force,
                 keep_generations, device)
        return
    if game is not None:
        raise UnknownName(f"{trainer} takes no GAME (it trains for Connect 4), not {game!r}")
    generations = 20 if generations is None else generations
    out = Path("best.json") if out is None else out
    settings = TrainingSettings(population, generations, survivors, mutation, seed)
    settings.check()
    # where the profile goes, checked now rather than after the training
    data_home()
    if out.is_symlink() or (out.exists() and not force):
        raise PlygroundError(refusal(NotReplaced(out, symlink=out.is_symlink())))
    console = Console(highlight=False)
    # The bar goes where the generation lines go when that is a terminal (rich then
    # prints the lines above it), else to stderr, and only ever to a terminal.
    bar_console = console if console.is_terminal else Console(stderr=True)
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), TimeRemainingColumn(), console=bar_console,
                        transient=True, disable=not bar_console.is_terminal)
    finished: list[Generation] = []
    interrupted = False
    console.print(GENES_HEADER)
    try:
        with progress:
            task = progress.add_task("training",
                                     total=generations * units_per_generation(settings))
            run = train(settings, jobs, lambda done: progress.advance(task, done),
                        cluster)
            with closing(run):
                for generation in run:
                    finished.append(generation)
                    console.print(generation_line(generation))
    except KeyboardInterrupt:
        interrupted = True
    if not finished:
        print("stopped before the first generation ended: nothing saved", file=sys.stderr)
        raise typer.Exit(INTERRUPTED)
    console.print(fitness_chart(finished))
    best = Profile(name or out.stem, finished[-1].best)
    save_profile(best, out)
    installed = install_profile(best, out)
    console.print(f"best profile ({genes_text(best.genes)}) saved to {out} and "
                  f"installed as {installed}, so the app's menu offers it")
    spec = shlex.quote(f"ga:profile={quoted(installed_name(installed))}")
    console.print(f"play it (from any folder): plyground play connect4 --second {spec}",
                  soft_wrap=True)  # a command to copy: never broken by Rich
    if interrupted:
        print(f"interrupted after {len(finished)} of {generations} generations: "
              "the best so far is saved", file=sys.stderr)
        raise typer.Exit(INTERRUPTED)
