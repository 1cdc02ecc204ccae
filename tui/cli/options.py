"""Arguments and options that several commands share, defined once so that they read
the same."""
from __future__ import annotations

import inspect
from pathlib import Path
from typing import Annotated, Optional

import typer

from plyground.core import game_entries
from plyground.core.game import GameEntry
from plyground.core.errors import PlygroundError
from plyground.core.paths import NotReplaced
from plyground.core.play.cluster_security import Scheduler, read_security
from plyground.core.ranges import LARGEST_ID, LARGEST_SEED, MOST_JOBS
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
# Every number an option takes has a range (core/ranges.py says why each is where it
# is): typer refuses one outside it as a usage error, one line and exit code 2.
SEED_RANGE = {"min": 0, "max": LARGEST_SEED}
ID_RANGE = {"min": 1, "max": LARGEST_ID}  # a game's or a run's id in the history
GameSeed = Annotated[Optional[int], typer.Option(
    **SEED_RANGE, show_default=False,
    help="the game's seed: an agent whose spec sets no seed gets one derived from it "
         "and its side, the same in play, demo and analyze")]
NoRecord = Annotated[bool, typer.Option(
    "--no-history", "--no-record",
    help="keep the games out of the game history (see `plyground games`)")]
Seed = Annotated[Optional[int], typer.Option(
    **SEED_RANGE, show_default=False,
    help="the seed of the games (default: a random one, shown in the line that "
         "reproduces the run)")]
Jobs = Annotated[Optional[int], typer.Option(
    min=1, max=MOST_JOBS, help="worker processes (default: one per core)",
    show_default=False)]
SECURITY = "plyground.cluster_security"  # where --cluster-security leaves what it read


def read_cluster_security(ctx: typer.Context, path: Optional[Path]) -> Optional[Path]:
    """--cluster-security, read before --cluster (it is eager): the certificates it
    names, kept for --cluster; a bad file is one line."""
    if path is not None:
        ctx.meta[SECURITY] = read_security(path)
    return path


def cluster_scheduler(ctx: typer.Context, address: Optional[str]) -> Optional[str]:
    """--cluster's value: the address, carrying --cluster-security's certificates, so
    that each command hands both down as the one value it always had."""
    security = ctx.meta.get(SECURITY)
    if address is None:
        if security is not None:
            raise PlygroundError("--cluster-security goes with --cluster tls://HOST:PORT, "
                                 "the scheduler it is for")
        return None
    return Scheduler(address, security)


Cluster = Annotated[Optional[str], typer.Option(
    metavar="tcp://HOST:PORT", show_default=False, callback=cluster_scheduler,
    help="play the games on a Dask cluster: the address of a scheduler you started "
         "(`dask scheduler`, and `dask worker ADDRESS --nthreads 1` on each machine); "
         "needs the cluster extra: pip install 'plyground\\[cluster]' (see "
         "docs/cluster.md). The scheduler and its workers are trusted like code: "
         "what they send back is unpickled here. Without it, the games run on this "
         "machine")]
ClusterSecurity = Annotated[Optional[Path], typer.Option(
    metavar="FILE", show_default=False, is_eager=True, callback=read_cluster_security,
    help="reach a tls:// --cluster with the certificates this TOML file names "
         "(tls_ca_file, tls_client_cert, tls_client_key, require_encryption; see "
         "docs/cluster.md); without it, Dask's own configuration")]
