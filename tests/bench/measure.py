"""Printing figures the benches share."""
from __future__ import annotations

from statistics import mean

from plyground.core.search.control import Budget
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


GROWTH_SIZES = (5_000, 50_000, 500_000, 5_000_000)
GROWTH_TARGET = 0.75  # of the 5k rate, at every size (issue 16)


def growth_rates(game, state) -> None:
    """MCTS iterations per second as the tree grows, for the solver (the agent's
    default where the kernel has it) and plain UCT: runs of each size from `state` (new
    seeds until a second has passed: a 5k run takes milliseconds), and each rate as a
    share of the 5k runs' (the tree keeps a node per iteration)."""
    for solver in (True, False):
        name = "MCTS-Solver" if solver else "plain UCT"
        print(f"  {name}, as the tree grows (target: >= {GROWTH_TARGET:.0%} of the 5k "
              "rate):")
        variant_growth_rates(game, state, solver)


def variant_growth_rates(game, state, solver: bool) -> None:
    # first a run off the clock, so the 5k rate is not charged the kernel's loading
    mcts_search(game, state, Budget(iterations=GROWTH_SIZES[0]), 0,
                fast_tree=mcts_tree_factory(game), solver=solver)
    first = None
    for size in GROWTH_SIZES:
        work, elapsed, seed = 0, 0.0, 0
        while elapsed < 1.0:
            seed += 1
            done = mcts_search(game, state, Budget(iterations=size), seed,
                               fast_tree=mcts_tree_factory(game), solver=solver)
            work, elapsed = work + done.work, elapsed + done.elapsed
        rate = work / elapsed
        first = first or rate
        print(f"    {size:>9,} iterations: {rate:>11,.0f} /s ({rate / first:.0%})")
