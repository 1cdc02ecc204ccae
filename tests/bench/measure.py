"""Printing figures the benches share."""
from __future__ import annotations

from statistics import mean

from plyground.core import Budget
from plyground.core.fast import mcts_tree_factory
from plyground.core.search.mcts import mcts_search


def mcts_rates(game, state, seeds, seconds: float, target: int) -> None:
    """MCTS iterations per second from `state`, one timed run per seed, and their mean."""
    rates = []
    for seed in seeds:
        done = mcts_search(game, state, Budget(time=seconds), seed,
                           fast_tree=mcts_tree_factory(game))
        rates.append(done.work / done.elapsed)
        print(f"  seed {seed}: {done.work:>12,} iterations {done.elapsed:>6.2f}s"
              f"{rates[-1]:>13,.0f} /s")
    print(f"  {'mean':<39}{mean(rates):>13,.0f} /s   target {target:,}")


SEED_ITERATIONS = 5_500  # the seed's MCTS budget per move


def seed_budget_time(game, state) -> None:
    """How long the seed's MCTS budget takes from `state` (target: well under 0.5 s)."""
    done = mcts_search(game, state, Budget(iterations=SEED_ITERATIONS), 1,
                       fast_tree=mcts_tree_factory(game))
    print(f"  {SEED_ITERATIONS:,} iterations (the seed's budget): {done.elapsed:.3f}s "
          f"(target well under 0.5 s)")
