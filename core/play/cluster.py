"""Where a run's games are played: this machine's worker processes, or a Dask cluster
the user started (`dask scheduler`, `dask worker ADDRESS --nthreads 1`; docs/cluster.md).

Either way it is a tournament.Pool, and `run_games` plays the same GameJobs on it: a
result is named by its job (match, game number, seed), never by where or when it was
played, so the same seed gives the same games on both. A worker lost mid-run costs
nothing: Dask plays its games again elsewhere, and each job's future ends once.

Nothing of Dask is imported until a cluster is asked for: the app and the local pool
never load it, and it is an optional extra (`pip install 'plyground[cluster]'`).
"""
from __future__ import annotations

import os
import socket
from contextlib import contextmanager
from typing import Iterator, Sequence

from ..agents.base import Agent
from ..errors import PlygroundError
from ..game import Game
from .cluster_security import security_of
from .tournament import Pool, local_pool

CONNECT_SECONDS = 10  # to reach the scheduler, and for it to have a worker


class ClusterError(PlygroundError):
    """A cluster that cannot play the run: unreachable, without workers, or unable to
    make one of its agents."""


@contextmanager
def open_pool(game: Game, jobs: int | None, cluster: str | None) -> Iterator[Pool]:
    """The cluster's pool when `cluster` (a scheduler's address) is given, else `jobs`
    worker processes here (one per core by default)."""
    if cluster:
        with cluster_pool(game, cluster) as pool:
            yield pool
    else:
        with local_pool(game, jobs or os.cpu_count() or 1) as pool:
            yield pool


@contextmanager
def cluster_pool(game: Game, address: str) -> Iterator[Pool]:
    """A pool on the Dask cluster whose scheduler is at `address` (`tcp://HOST:PORT`,
    or `tls://HOST:PORT` with the certificates a cluster_security.Scheduler carries, else
    those of Dask's configuration): as many games at once as its workers have threads,
    each worker warmed for `game` as it joins, each result checked (cluster_results).
    Stopping cancels the games not yet finished (one under way on a worker plays out,
    its result unused). Leaving closes this connection only, never the user's
    scheduler or workers."""
    try:
        from distributed import Client
        from distributed.security import Security

        from .cluster_results import CheckedExecutor, one_line  # asyncio: not at import
        from .cluster_worker import WarmUp, agents_trouble
    except ImportError:
        raise ClusterError("--cluster needs Dask distributed: "
                           "pip install 'plyground[cluster]'") from None
    security = Security(**security_of(address))
    try:
        knock(address, security)
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False,
                        security=security)
    except (OSError, ValueError, TypeError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: "
                           f"{one_line(error)}") from None
    try:
        wait_for_a_worker(client, address)
        warm_workers(client, WarmUp(game.id))
        executor = CheckedExecutor(client)
        threads = sum(worker["nthreads"]
                      for worker in client.scheduler_info()["workers"].values())
        checked: set[str] = set()

        def admit(agents: Sequence[Agent]) -> None:
            specs = sorted({agent.spec for agent in agents if agent.external} - checked)
            if specs:
                refuse_missing(client.run(agents_trouble, specs))
                checked.update(specs)

        yield Pool(executor, threads, lambda: executor.shutdown(wait=False), admit)
        executor.shutdown(wait=False)
    finally:
        client.close()


def knock(address: str, security) -> None:
    """Reach the scheduler's port first (OSError if nothing listens there): a Dask
    client that fails to connect waits out its timeout, and again as it is collected.
    A tls:// address needs certificates, a tcp:// one none that require encryption."""
    from distributed.comm.addressing import parse_address, parse_host_port

    scheme, location = parse_address(address)
    if scheme not in ("tcp", "tls", "ws", "wss"):
        raise ValueError(f"{scheme}:// is not a scheduler's address (tcp://HOST:PORT)")
    if scheme == "tls" and not security.tls_client_cert:
        raise ValueError("a tls:// scheduler needs this machine's certificate: "
                         "--cluster-security FILE, or Dask's configuration "
                         "(distributed.comm.tls.client.cert; see docs/cluster.md)")
    if scheme in ("tcp", "ws") and security.require_encryption:
        raise ValueError(f"the cluster's security requires encryption, which a "
                         f"{scheme}:// address has not: give the tls:// one")
    socket.create_connection(parse_host_port(location), CONNECT_SECONDS).close()


def wait_for_a_worker(client, address: str) -> None:
    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except TimeoutError:
        raise ClusterError(f"the Dask scheduler at {address} has no workers: start "
                           f"one with: dask worker {address} --nthreads 1") from None


def warm_workers(client, plugin) -> None:
    """Register `plugin` and wait for its setup on every worker there now (Dask runs
    it on those that join later too); a worker where it fails is named."""
    from .cluster_results import one_line

    replies = client.register_plugin(plugin) or {}
    for worker, reply in sorted(replies.items()):
        if reply.get("status") != "OK":
            raise ClusterError(f"cannot prepare worker {worker} for the games: "
                               f"{one_line(reply.get('exception', reply))} (a worker "
                               "needs the same plyground as this machine)")


def refuse_missing(trouble: dict[str, dict[str, str]]) -> None:
    """The first agent some worker cannot make, as one line."""
    for worker, missing in sorted(trouble.items()):
        for spec, reason in sorted(missing.items()):
            raise ClusterError(f"the agent {spec!r} cannot run on worker {worker}: "
                               f"{reason}")
