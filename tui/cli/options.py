"""Arguments and options that several commands share, defined once so that they read
the same."""
from __future__ import annotations

import inspect
from typing import Annotated, Optional

import typer

from plyground.core import game_entries
from plyground.core.game import GameEntry
from plyground.core.paths import NotReplaced
from plyground.core.trust import TRUST_OPTION

TrustAgents = Annotated[bool, typer.Option(
    TRUST_OPTION, help="run the agents from outside plyground that the file names (an "
    "engine command, a Python file, a module no installed package declares); without "
    "it, such a file is refused and nothing of it runs (see docs/security.md)")]

Force = Annotated[bool, typer.Option(
    "--force", help="replace an existing file (never a symbolic link)")]


def refusal(refused: NotReplaced) -> str:
    """What the CLI says when a file it would write is in the way."""
    if refused.symlink:
        return str(refused)
    return f"{refused} (--force replaces it)"


def describe_game(entry: GameEntry) -> str:
    """The game's id, with its options (at their defaults) and the menus' variants."""
    parameters = inspect.signature(entry.factory).parameters.values()
    if not parameters:
        return entry.id
    details = ["options: " + ", ".join(f"{p.name}={p.default}" for p in parameters)]
    if entry.variants:
        details.append("variants: " + ", ".join(label for label, _ in entry.variants))
    return f"{entry.id} ({'; '.join(details)})"


GAME_HELP = ("the game, as id or id:option=value,...: "
             + "; ".join(describe_game(entry) for entry in game_entries()))
GameSpec = Annotated[str, typer.Argument(metavar="GAME", show_default=False,
                                         help=GAME_HELP)]
Position = Annotated[Optional[str], typer.Option(
    help="start from this position, in the game's notation ("
         + "; ".join(f"{entry.title}: {entry.notation}" for entry in game_entries()
                     if entry.notation) + ")")]
GameSeed = Annotated[Optional[int], typer.Option(
    help="the game's seed: an agent whose spec sets no seed gets one derived from it "
         "and its side, the same in play, demo and analyze", show_default=False)]
NoRecord = Annotated[bool, typer.Option(
    "--no-history", "--no-record",
    help="keep the games out of the game history (see `plyground games`)")]
Seed = Annotated[Optional[int], typer.Option(
    help="the seed of the games (default: a random one, shown in the line that "
         "reproduces the run)", show_default=False)]
Jobs = Annotated[Optional[int], typer.Option(
    min=1, help="worker processes (default: one per core)", show_default=False)]
Cluster = Annotated[Optional[str], typer.Option(
    metavar="tcp://HOST:PORT", show_default=False,
    help="play the games on a Dask cluster: the address of a scheduler you started "
         "(`dask scheduler`, and `dask worker ADDRESS --nthreads 1` on each machine); "
         "needs the cluster extra: pip install 'plyground\\[cluster]' (see "
         "docs/cluster.md). Without it, the games run on this machine")]
