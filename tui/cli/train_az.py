"""`plyground train az GAME`: AlphaZero-style training by self-play (core/agents/learned/
train.py), its games on this machine's worker processes or a Dask cluster.

On a terminal a bar shows the generation under way (self-play games, training steps,
gate games) and the time left, above it a line per generation; into a pipe, the lines
alone. The accepted net is saved to --out as soon as it is accepted (the untrained
net once the first generation ends without beating it), so Ctrl-C, or a crash, keeps
the last accepted net.
"""
from __future__ import annotations

import shlex
import sys
import time
from contextlib import closing, contextmanager
from dataclasses import asdict
from functools import partial
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from plyground.core.agents.learned.net import file_hash, save_net
from plyground.core.agents.learned.settings import AzSettings, TrainingError
from plyground.core.agents.learned.train import Generation, load_trainer, train
from plyground.core.errors import PlygroundError, shown
from plyground.core.game import Game, parse_game
from plyground.core.paths import NotReplaced
from plyground.core.play.cluster import open_pool
from plyground.core.play.openings import DEFAULT_NAME, load_suite, shipped_suites
from plyground.core.play.spawn import interrupts_deferred
from plyground.core.play.tournament import with_worker_stop

from ..exit_codes import INTERRUPTED
from .options import refusal
from .stopping import CUT_SHORT, saying

HEADER = ("generation  samples  policy loss  value loss  gate score  net        "
          "elapsed")


def generation_line(generation: Generation) -> str:
    score = "-" if generation.score is None else f"{100 * generation.score:.1f}%"
    verdict = "accepted" if generation.accepted else "rejected"
    return (f"{generation.number:>10}  {generation.samples:>7,}  "
            f"{generation.policy_loss:>11.3f}  {generation.value_loss:>10.3f}  "
            f"{score:>10}  {verdict:<9}  {clock_text(generation.seconds):>7}")


def clock_text(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    return f"{minutes}:{seconds:02d}"


def checked_game(spec: str) -> Game:
    game = parse_game(spec)
    if game.encoding() is None:
        raise TrainingError(f"{game.title} has no encoding for a network (its "
                            "registration declares none), so az cannot learn it")
    return game


def check_out(out: Path, force: bool) -> None:
    """Where the net goes, checked before any training."""
    folder = out.expanduser().parent
    if not folder.is_dir():
        raise PlygroundError(f"cannot save the net to {shown(str(out))}: there is no "
                             f"folder {shown(str(folder))}")
    if out.is_symlink() or (out.exists() and not force):
        raise PlygroundError(refusal(NotReplaced(out, symlink=out.is_symlink())))


def kept_path(keep: Path, generation: int) -> Path:
    """Where --keep-generations saves generation `generation`'s accepted net."""
    return keep.expanduser() / f"generation-{generation:03d}.npz"


def check_keep(keep: Path, force: bool) -> None:
    """The --keep-generations folder, made if missing (its parent must exist); nets of
    an earlier run in it are replaced only with --force."""
    folder = keep.expanduser()
    if folder.exists() and not folder.is_dir():
        raise PlygroundError(f"--keep-generations {shown(str(keep))} is a file, not a "
                             "folder")
    if not folder.parent.is_dir():
        raise PlygroundError(f"cannot keep the generations in {shown(str(keep))}: there "
                             f"is no folder {shown(str(folder.parent))}")
    if folder.is_dir() and any(folder.glob("generation-*.npz")) and not force:
        raise PlygroundError(f"{shown(str(keep))} already holds generations' nets: "
                             "give another folder, or --force to replace them")
    folder.mkdir(exist_ok=True)


def openings_of(game: Game) -> list[str] | None:
    """The gate's openings: the game's shipped balanced suite, if it has one."""
    if DEFAULT_NAME not in shipped_suites(game):
        return None
    return list(load_suite(game, DEFAULT_NAME).lines)


def command_of(game: Game, settings: AzSettings, out: Path, minutes: float | None,
               generations: int | None, device: str = "cpu") -> str:
    """The command that trains the same nets (where the games run aside; on a GPU,
    nearly the same: its sums need not add up in the CPU's order)."""
    play = settings.play
    words = ["plyground", "train", "az", game.spec, "--out", str(out),
             "--seed", str(settings.seed), "--games-per-generation", str(settings.games),
             "--sims", str(play.sims), "--buffer", str(settings.buffer),
             "--steps", str(settings.steps), "--batch", str(settings.batch),
             "--eval-pairs", str(settings.eval_pairs), "--channels",
             str(settings.channels), "--blocks", str(settings.blocks)]
    if minutes is not None:
        words += ["--minutes", f"{minutes:g}"]
    if generations is not None:
        words += ["--generations", str(generations)]
    if device != "cpu":
        words += ["--device", device]
    return shlex.join(words)


def train_az(game_spec: str, out: Path, minutes: float | None, generations: int | None,
             settings: AzSettings, jobs: int | None, cluster: str | None,
             force: bool, keep: Path | None = None, device: str = "cpu") -> None:
    game = checked_game(game_spec)
    settings.check()
    load_trainer().pick_device(device)  # the learn extra and the device, said at once
    if minutes is None and generations is None:
        raise TrainingError("say how long to train: --minutes N (or --generations N)")
    if minutes is not None and not minutes > 0:
        raise TrainingError(f"--minutes must be more than 0, not {minutes:g}")
    check_out(out, force)
    if keep is not None:
        check_keep(keep, force)
    command = command_of(game, settings, out, minutes, generations, device)
    console = Console(highlight=False, soft_wrap=True)
    bar_console = console if console.is_terminal else Console(stderr=True)
    progress = Progress(TextColumn("{task.description}"), BarColumn(),
                        MofNCompleteColumn(), TextColumn("{task.fields[left]}"),
                        console=bar_console, transient=True,
                        disable=not bar_console.is_terminal)
    saved: Generation | None = None  # the generation after which --out was written
    last: Generation | None = None
    said = 0  # the last generation whose line is printed: Ctrl-C is during the next
    console.print(f"training az on {game.title}: {command}")
    console.print(HEADER)
    started = time.monotonic()

    def show(phase: str, done: int, total: int) -> None:
        number = last.number + 1 if last else 1
        left = "" if minutes is None else clock_text(
            max(0.0, 60 * minutes - (time.monotonic() - started))) + " left"
        progress.update(task, description=f"generation {number} {phase}",
                        completed=done, total=total, left=left)

    try:
        with saying(CUT_SHORT), progress, \
                pool_or_here(game, jobs, cluster) as map_jobs:
            task = progress.add_task("", total=None, left="")
            run = train(game, settings, map_jobs, openings_of(game), minutes,
                        generations, show, device=device)
            with closing(run):
                for last in run:
                    # a generation is saved, said and counted whole: a Ctrl-C that
                    # comes meanwhile is raised after it
                    with interrupts_deferred():
                        if last.accepted or saved is None:  # saved before it is said
                            save_net(last.net, out, info(game, command, settings, last,
                                                         timed=minutes is not None))
                            saved = last
                            if keep is not None:
                                save_net(last.net,
                                         kept_path(keep, last.accepted_generation),
                                         info(game, command, settings, last, timed=True))
                        console.print(generation_line(last))
                        said = last.number
    except KeyboardInterrupt:  # (maybe as a generation ended, before its line)
        stopped(out, saved, said + 1)
    console.print(f"the accepted net (generation {saved.accepted_generation} of "
                  f"{last.number}) saved to {out}")
    console.print(f"sha256 {file_hash(out)}")
    console.print(f"play it: plyground play {game.spec} --second az:net={out}")


@contextmanager
def pool_or_here(game: Game, jobs: int | None, cluster: str | None):
    """`train`'s map_jobs: on the pool open_pool gives, or in this process with
    --jobs 1 (no worker to start). A worker's game ends as soon as the pool stops
    (with_worker_stop), so Ctrl-C does not wait for the games under way to end."""
    if jobs == 1 and not cluster:
        yield map
        return
    with open_pool(game, jobs, cluster) as pool:
        def map_jobs(function, items):
            with interrupts_deferred():  # the pool may start its workers here
                return pool.executor.map(partial(with_worker_stop, function), items)
        yield map_jobs


def info(game: Game, command: str, settings: AzSettings, generation: Generation,
         timed: bool) -> dict:
    """What a net file says of itself: which generation's net it is, made how: the
    self-play samples until it was made (none for the untrained net) and, in a run
    with --minutes, the seconds. A run limited by --generations alone keeps no time,
    so its command makes the same bytes again: the file's hash can be checked."""
    made = generation.accepted
    about = {"trainer": "az", "game": game.spec, "command": command,
             "seed": settings.seed, "generation": generation.accepted_generation,
             "samples": generation.samples if made else 0,
             "settings": asdict(settings)}
    if timed:
        about["seconds"] = round(generation.seconds, 1) if made else 0.0
    return about


def stopped(out: Path, saved: Generation | None, number: int) -> None:
    if saved is None:
        print(f"interrupted during generation {number}: nothing saved", file=sys.stderr)
    else:
        print(f"interrupted during generation {number}: {out} keeps the last accepted "
              f"net (generation {saved.accepted_generation})", file=sys.stderr)
    raise typer.Exit(INTERRUPTED)
