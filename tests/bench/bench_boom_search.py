"""Desconecta-4 BOOM search speed with the numba kernels, against the Python search.

From the start and from mid-game positions (seeded careful play, as in the kernel's
tests: 10-60 plies, bombs on the board), 1 s each, with the kernel and in pure Python:
the depth the search completes and its nodes per second. Everything runs on one
thread, with the kernel compiled (or loaded from cache) beforehand. The figures are the
ones the search itself reports (and the inspector shows): its work over its time.
Then MCTS: iterations per second from the same positions, 1 s each, kernel and Python.
"""
from __future__ import annotations

import random
from statistics import mean

from plyground.core.search.control import Budget
from plyground.core import get_game
from plyground.core.fast import boom as kernel
from plyground.core.fast import mcts_tree_factory, warm_up
from plyground.core.fast.table import thread_backend
from plyground.core.search.alphabeta import alphabeta_search
from plyground.core.search.mcts import mcts_search
from tests.core.positions import careful_boom_game as careful_game

GAME = get_game("boom")
MCTS_TARGET = 300_000  # iterations/s with the kernel (issue 16)


def bench_positions(count: int, seed: int) -> list:
    rng = random.Random(seed)
    found = [GAME.start()]
    while len(found) < count:
        states = [s for s in careful_game(rng, max_plies=rng.randrange(10, 61))
                  if s.outcome() is None]
        if states[-1].ply >= 10:
            found.append(states[-1])
    return found


def main(count: int = 6, seed: int = 2024) -> None:
    print("Desconecta-4 BOOM Alpha-Beta, 1 s per position (numba kernel vs pure Python)")
    kernel.warm_up()
    backend = thread_backend(kernel.BoomBackend)
    print(f"  {'position':<40}{'depth':>6}{'nodes/s':>12}{'py depth':>10}"
          f"{'py nodes/s':>12}")
    fast_rates, slow_rates, fast_depths, slow_depths = [], [], [], []
    for state in bench_positions(count, seed):
        fast = alphabeta_search(GAME, state, Budget(time=1.0), backend=backend)
        slow = alphabeta_search(GAME, state, Budget(time=1.0))
        fast_rates.append(fast.work / fast.elapsed)
        slow_rates.append(slow.work / slow.elapsed)
        fast_depths.append(fast.depth)
        slow_depths.append(slow.depth)
        text = GAME.format_position(state) or "(start)"
        if len(text) > 38:
            text = "…" + text[-37:]
        print(f"  {text:<40}{fast.depth:>6}{fast_rates[-1]:>12,.0f}{slow.depth:>10}"
              f"{slow_rates[-1]:>12,.0f}")
    print(f"  {'mean':<40}{mean(fast_depths):>6.1f}{mean(fast_rates):>12,.0f}"
          f"{mean(slow_depths):>10.1f}{mean(slow_rates):>12,.0f}")
    mcts_rates(count, seed)


def mcts_rates(count: int, seed: int) -> None:
    print(f"Desconecta-4 BOOM MCTS, 1 s per position (target with the kernel: >= "
          f"{MCTS_TARGET:,} iterations/s)")
    warm_up("boom")
    fast_rates, slow_rates = [], []
    for state in bench_positions(count, seed):
        for rates, tree in ((fast_rates, mcts_tree_factory(GAME)), (slow_rates, None)):
            done = mcts_search(GAME, state, Budget(time=1.0), 1, fast_tree=tree)
            rates.append(done.work / done.elapsed)
    print(f"  kernel: mean {mean(fast_rates):,.0f} iterations/s (lowest "
          f"{min(fast_rates):,.0f}); Python: mean {mean(slow_rates):,.0f}")


if __name__ == "__main__":
    main()
