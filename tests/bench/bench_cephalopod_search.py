"""Cephalopod search speed with the numba kernels, against the issues' targets.

Alpha-Beta: nodes per second and the depth completed in 1 s, with the kernel and in
pure Python, from seeded positions 0, 6, 12 and 18 plies into random 5 x 5 games. MCTS:
iterations per second from the empty 5 x 5 board, 2 s runs, then the time the seed's
MCTS budget (5,500 iterations) takes. Everything runs on one thread, with the kernel
compiled (or loaded from cache) beforehand. The figures are the ones the search itself
reports (and the inspector shows): its work over its time.
"""
from __future__ import annotations

import random

from plyground.core.search.control import Budget
from plyground.core import get_game
from plyground.core.fast import tree_backend, warm_up
from plyground.core.search.alphabeta import alphabeta_search
from tests.bench.measure import mcts_rates, seed_budget_time

GAME = get_game("cephalopod")
TARGET = 20_000  # iterations/s
TREE_TARGET = 1_000_000  # Alpha-Beta nodes/s (issue 16)


def position(plies: int, seed: int):
    rng = random.Random(seed)
    state = GAME.start()
    for _ in range(plies):
        state = state.play(rng.choice(state.moves()))
    return state


def alphabeta_rates() -> None:
    print(f"Alpha-Beta, 1 s a search (target with the kernel: >= {TREE_TARGET:,} nodes/s)")
    for plies in (0, 6, 12, 18):
        state = position(plies, plies)
        line = f"  {plies:2d} plies in:"
        for name, backend in (("kernel", tree_backend(GAME)), ("Python", None)):
            done = alphabeta_search(GAME, state, Budget(time=1), backend=backend)
            line += (f"  {name} {done.work / done.elapsed:>11,.0f} nodes/s, "
                     f"depth {done.depth}")
        print(line)


def main() -> None:
    warm_up("cephalopod")
    print("Cephalopod 5x5 (numba kernels, one thread)")
    alphabeta_rates()
    print("MCTS")
    print(f"From the empty board, 2 s per run (target >= {TARGET:,} iterations/s)")
    mcts_rates(GAME, GAME.start(), (1, 2, 3), 2.0, TARGET)
    seed_budget_time(GAME, GAME.start())


if __name__ == "__main__":
    main()
