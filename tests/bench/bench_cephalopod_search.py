"""Cephalopod MCTS speed with the numba kernel, against the issue's target.

Iterations per second from the empty 5 x 5 board, 2 s runs, then the time the seed's
MCTS budget (5,500 iterations) takes. Everything runs on one thread, with the kernel
compiled (or loaded from cache) beforehand. The figures are the ones the search itself
reports (and the inspector shows): its work over its time.
"""
from __future__ import annotations

from plyground.core import Budget, get_game
from plyground.core.fast import mcts_tree_factory, warm_up
from plyground.core.search.mcts import mcts_search
from tests.bench.measure import mcts_rates

GAME = get_game("cephalopod")
TARGET = 20_000  # iterations/s
SEED_ITERATIONS = 5_500  # the seed's MCTS budget per move


def main() -> None:
    print("Cephalopod 5x5 MCTS (numba kernel, one thread)")
    warm_up("cephalopod")
    print(f"From the empty board, 2 s per run (target >= {TARGET:,} iterations/s)")
    mcts_rates(GAME, GAME.start(), (1, 2, 3), 2.0, TARGET)
    done = mcts_search(GAME, GAME.start(), Budget(iterations=SEED_ITERATIONS), 1,
                       fast_tree=mcts_tree_factory(GAME))
    print(f"  {SEED_ITERATIONS:,} iterations (the seed's budget): {done.elapsed:.3f}s "
          f"(target well under 0.5 s)")


if __name__ == "__main__":
    main()
