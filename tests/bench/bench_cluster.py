"""Scaling: one tournament's wall time on the local pool (2 worker processes) and on a
local Dask cluster (`dask scheduler` and single-thread `dask worker`s on 127.0.0.1) of
1 and of 2 workers; the same games everywhere, checked game for game. Each pool is
started and warmed before its clock starts: the time is the games'. The load average
is printed too: on a machine others keep busy, the figures say little.

    python -m tests.bench.bench_cluster
"""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from plyground.core import get_game
from plyground.core.catalogue import parse_agent
from plyground.core.play.cluster import cluster_pool
from plyground.core.play.tournament import (local_pool, round_robin, run_games,
                                            tournament_jobs)
from tests.dask_cluster import dask_cluster

GAME = "connect4"
AGENTS = ("alphabeta:depth=4", "alphabeta:depth=3", "mcts:iterations=3000", "greedy")
GAMES = 8  # a pair
SEED = 1


def timed(game, jobs, pool) -> tuple[float, dict]:
    started = time.perf_counter()
    results = {job.key: result for job, result in run_games(game, jobs, pool)}
    return time.perf_counter() - started, results


def main() -> None:
    game = get_game(GAME)
    agents = [parse_agent(spec) for spec in AGENTS]
    jobs = tournament_jobs(agents, GAMES, SEED, round_robin(len(agents)))
    print(f"Scaling: a {GAME} tournament of {len(jobs)} games ({', '.join(AGENTS)}; "
          f"{GAMES} a pair, seed {SEED}); load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    with local_pool(game, 2) as pool:
        list(pool.executor.map(time.sleep, (0.5, 0.5)))  # both processes up and warm
        local, expected = timed(game, jobs, pool)
    print(f"  local pool, 2 processes          {local:7.2f} s")
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as folder, \
                dask_cluster(Path(folder), workers) as cluster, \
                cluster_pool(game, cluster.address) as pool:
            seconds, results = timed(game, jobs, pool)
        same = "the same games" if results == expected else "DIFFERENT GAMES"
        print(f"  Dask, {workers} single-thread worker{'s' if workers > 1 else ' '}    "
              f"{seconds:7.2f} s   ({local / seconds:.2f}x the local pool; {same})")


if __name__ == "__main__":
    main()
