"""Self-play's speed beside the network's own: how close the search comes to the limit
the network sets.

A game's self-play (Connect 4 unless --game says another) with its shipped net (32
channels x 2 blocks; a game that ships none gets a random net of that shape, as fast)
at 100 simulations a move, 8 leaves a game a round: positions a second (a position
is a move searched) and simulations a second, by the batched, compiled PUCT (`games` games a process, all
their leaves of a round in one network call: core/agents/learned/selfplay_batch.py)
and by the reference, one game at a time in Python (selfplay.play, a few games).
Beside them, the network alone: evaluations a second at the batch the batched search
used (its mean rows a network call), and the ratio of the search's network
evaluations a second (new leaves and roots) to that: 100% would be a search that
costs nothing beside its network.

    python -m tests.bench.bench_selfplay [--game ID] [--workers N ...] [--games N]

Each worker is a process (BLAS on one thread, as a net sets it); with N workers the
rates are the sums of N processes running at once, the network's too. On a shared
machine, what else runs shows in the load printed.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from plyground.core.agents.learned.agent import shipped_net
from plyground.core.agents.learned.net import Net, NetConfig, load_net
from plyground.core.agents.learned.selfplay import SelfPlayJob, play
from plyground.core.agents.learned.selfplay_batch import JobBatch, play_batch
from plyground.core.agents.learned.settings import PlaySettings
from plyground.core.game import get_game
from plyground.core.play.spawn import spawn_context

GAME = "connect4"
SETTINGS = PlaySettings(sims=100, batch=8)
REFERENCE_GAMES = 2


class Counted:
    """A net that counts what it evaluates: rows and calls."""

    def __init__(self, net: Net) -> None:
        self.net, self.rows, self.calls = net, 0, 0

    def forward(self, planes):
        self.rows += len(planes)
        self.calls += 1
        return self.net.forward(planes)


def the_net(game_id: str) -> Net:
    """The game's shipped net, or a random one of its shape (32 x 2): the speed is the
    architecture's, not the weights'."""
    game = get_game(game_id)
    path = shipped_net(game)
    if path is not None and path.exists():
        return load_net(path)[0]
    encoding = game.encoding()
    return Net.new(NetConfig(encoding.shape, encoding.policy_size, channels=32, blocks=2), 1)


def jobs(game_id: str, net, count: int, seed: int) -> list[SelfPlayJob]:
    return [SelfPlayJob(game_id, net, SETTINGS, seed * 10_000 + k, k) for k in range(count)]


def batched(game_id: str, games: int, seed: int) -> tuple[float, float, float, float]:
    """(positions, simulations, network rows a second, mean rows a call) of
    `games` games played together."""
    net = Counted(the_net(game_id))
    play_batch(JobBatch(tuple(jobs(game_id, net, 1, seed + 1))))  # compiled, off the clock
    net.rows = net.calls = 0
    started = time.perf_counter()
    samples = play_batch(JobBatch(tuple(jobs(game_id, net, games, seed))))
    elapsed = time.perf_counter() - started
    positions = sum(len(s) for s in samples)
    return (positions / elapsed, positions * SETTINGS.sims / elapsed, net.rows / elapsed,
            net.rows / net.calls)


def reference(game_id: str, games: int, seed: int) -> tuple[float, float]:
    """(positions, simulations a second) of `games` games played one at a time."""
    net = the_net(game_id)
    started = time.perf_counter()
    positions = sum(len(play(job)) for job in jobs(game_id, net, games, seed))
    elapsed = time.perf_counter() - started
    return positions / elapsed, positions * SETTINGS.sims / elapsed


def network(game_id: str, batch: int) -> float:
    """The net's evaluations a second at `batch` positions a call (real positions)."""
    net = the_net(game_id)
    planes = play_batch(JobBatch(tuple(jobs(game_id, net, 2, 99))))[0].planes
    while len(planes) < batch:
        planes = planes.repeat(2, axis=0)
    planes = planes[:batch]
    net.forward(planes)
    best = 0.0
    for _ in range(3):  # the best of three rounds: the least disturbed
        calls, started = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - started) < 0.5:
            net.forward(planes)
            calls += 1
        best = max(best, calls * batch / elapsed)
    return best


def agent_rates(game_id: str, seconds: float = 0.2, moves: int = 5) -> tuple[float, float]:
    """Simulations a second of the az agent's search in a `seconds` move, (reference,
    compiled), over the first `moves` positions of a self-play game."""
    from plyground.core.agents.learned.fast_search import fast_puct_search
    from plyground.core.agents.learned.selfplay import evaluator
    from plyground.core.search.control import Budget
    from plyground.core.search.puct import DEFAULT_C, puct_search

    game, net = get_game(game_id), the_net(game_id)
    record = play_batch(JobBatch(tuple(jobs(game_id, net, 1, 5))))[0].record
    states = [game.start()]
    for move in game.parse_line(game.start(), record)[:moves - 1]:
        states.append(states[-1].play(move))
    fast_puct_search(game, states[0], Budget(iterations=10), net, DEFAULT_C)  # compiled
    rates = []
    for search in (lambda s: puct_search(game, s, Budget(time=seconds),
                                         evaluator(net, game), DEFAULT_C),
                   lambda s: fast_puct_search(game, s, Budget(time=seconds), net,
                                              DEFAULT_C)):
        done = [search(state) for state in states]
        rates.append(sum(d.work for d in done) / sum(d.elapsed for d in done))
    return rates[0], rates[1]


def on_workers(workers: int, function, *args) -> list:
    """`function(*args, seed)` in `workers` processes at once, seeds 1..workers."""
    with ProcessPoolExecutor(workers, mp_context=spawn_context()) as pool:
        return list(pool.map(function, *[[a] * workers for a in args],
                             range(1, workers + 1)))


def network_on(game_id: str, batch: int, seed: int) -> float:
    return network(game_id, batch)


def run(game_id: str, workers: int, games: int) -> None:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    game = get_game(game_id)
    kind = "shipped" if shipped_net(game) else "random 32x2"
    print(f"Self-play speed, {game.entry.title}, {kind} net, {SETTINGS.sims} simulations "
          f"a move, {SETTINGS.batch} leaves a game a round; {workers} worker(s), "
          f"{os.cpu_count()} cores, load {load}")
    fast = on_workers(workers, batched, game_id, games)
    positions, sims, rows = (sum(r[i] for r in fast) for i in range(3))
    batch = round(sum(r[3] for r in fast) / len(fast))
    slow = on_workers(workers, reference, game_id, REFERENCE_GAMES)
    old_positions, old_sims = (sum(r[i] for r in slow) for i in range(2))
    net = sum(on_workers(workers, network_on, game_id, batch))
    print(f"  {'':<34}{'positions/s':>12}{'sims/s':>10}{'net evals/s':>13}")
    print(f"  {'reference, one game at a time':<34}{old_positions:>12,.0f}{old_sims:>10,.0f}")
    print(f"  {f'batched, {games} games a process':<34}{positions:>12,.0f}{sims:>10,.0f}"
          f"{rows:>13,.0f}")
    print(f"  {f'the network alone at batch {batch}':<34}{'':>12}{'':>10}{net:>13,.0f}")
    print(f"  batched self-play at {rows / net:.0%} of the network's rate; "
          f"{positions / old_positions:.1f}x the reference's positions a second")


def agent_line(game_id: str) -> None:
    old, new = agent_rates(game_id)
    print(f"az agent, 0.2 s a move, one process: {old:,.0f} simulations/s by the "
          f"reference, {new:,.0f} compiled ({new / old:.1f}x)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=GAME, help="a registered game with an encoding")
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--games", type=int, default=32)
    args = parser.parse_args(argv if argv is not None else [])
    for workers in args.workers:
        run(args.game, workers, args.games)
    agent_line(args.game)


if __name__ == "__main__":
    main(sys.argv[1:])
