"""Cephalopod MCTS speed with the numba kernel, against the issue's target.

Iterations per second from the empty 5 x 5 board, 2 s runs, then the time the seed's
MCTS budget (5,500 iterations) takes. Everything runs on one thread, with the kernel
compiled (or loaded from cache) beforehand. The figures are the ones the search itself
reports (and the inspector shows): its work over its time.
"""
from __future__ import annotations

from plyground.core import get_game
from plyground.core.fast import warm_up
from tests.bench.measure import mcts_rates, seed_budget_time

GAME = get_game("cephalopod")
TARGET = 20_000  # iterations/s


def main() -> None:
    print("Cephalopod 5x5 MCTS (numba kernel, one thread)")
    warm_up("cephalopod")
    print(f"From the empty board, 2 s per run (target >= {TARGET:,} iterations/s)")
    mcts_rates(GAME, GAME.start(), (1, 2, 3), 2.0, TARGET)
    seed_budget_time(GAME, GAME.start())


if __name__ == "__main__":
    main()
