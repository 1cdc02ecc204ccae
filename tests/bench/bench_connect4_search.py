"""Connect 4 search speed with the numba kernels, against the issue's targets.

Alpha-Beta: nodes per second on mid-game positions (seeded random play, 10-20 plies),
1 s each; a position the search solves before its second is up is left out. MCTS:
iterations per second from the empty board, 2 s runs. Everything runs on one thread,
with the kernels compiled (or loaded from cache) beforehand. The figures are the ones
the search itself reports (and the inspector shows): its work over its time.
"""
from __future__ import annotations

import random
from statistics import mean

from plyground.core.search.control import Budget
from plyground.core import get_game
from plyground.core.fast import tree_backend, warm_up
from plyground.core.search.alphabeta import alphabeta_search
from plyground.core.values import is_decisive
from tests.bench.measure import growth_rates, mcts_rates
from tests.core.positions import random_position

GAME = get_game("connect4")
ALPHABETA_TARGET = 150_000  # nodes/s
MCTS_TARGET = 15_000  # iterations/s


def bench_alphabeta(count: int = 6, seed: int = 2024) -> None:
    print(f"Alpha-Beta, 1 s per position (target >= {ALPHABETA_TARGET:,} nodes/s)")
    print(f"  {'position':<22}{'depth':>6}{'nodes':>12}{'time':>8}{'nodes/s':>13}")
    rng, rates = random.Random(seed), []
    while len(rates) < count:
        state = random_position(rng, rng.randrange(10, 21))
        done = alphabeta_search(GAME, state, Budget(time=1.0), backend=tree_backend(GAME))
        if is_decisive(done.value):
            continue
        rates.append(done.work / done.elapsed)
        print(f"  {GAME.format_position(state):<22}{done.depth:>6}"
              f"{done.work:>12,}{done.elapsed:>7.2f}s{rates[-1]:>13,.0f}")
    print(f"  {'mean':<48}{mean(rates):>13,.0f}   target {ALPHABETA_TARGET:,}")


def bench_mcts() -> None:
    print(f"MCTS from the empty board, 2 s per run "
          f"(target >= {MCTS_TARGET:,} iterations/s)")
    mcts_rates(GAME, GAME.start(), (1, 2), 2.0, MCTS_TARGET)
    growth_rates(GAME, GAME.start())


def main() -> None:
    print("Connect 4 search (numba kernels, one thread)")
    warm_up("connect4")
    bench_alphabeta()
    bench_mcts()


if __name__ == "__main__":
    main()
