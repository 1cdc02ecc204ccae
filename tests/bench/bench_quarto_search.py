"""Quarto alpha-beta: how long the exact endgame takes, against the issue's target.

For seeded endgames with 9 empty squares (and, for scale, 10 and 11), the Alpha-Beta
agent with no time limit searches to the end of the game; the figures are the time
and nodes it reports. Kernels are compiled (or loaded from cache) beforehand.
"""
from __future__ import annotations

from statistics import median

from plyground.core import get_game, make_agent
from plyground.core.fast import warm_up
from plyground.core.values import proven
from tests.core.positions import quarto_endgames

GAME = get_game("quarto")
TARGET = 2.0  # seconds, from 9 empty squares


def solve_times(empty: int, count: int, seed: int) -> None:
    times, rates, results = [], [], {"proven won": 0, "proven lost": 0, "proven draw": 0}
    for state in quarto_endgames(seed, GAME, empty, count):
        done = make_agent("alphabeta", time=3600).decide(state)
        proof = proven(GAME, state, done.value, done.depth)
        assert proof, "the search stopped before the end"
        times.append(done.elapsed)
        rates.append(done.work / done.elapsed)
        results[proof] += 1
    print(f"  {empty} empty, {count} positions: worst {max(times):.3f}s, median "
          f"{median(times):.3f}s, {median(rates):,.0f} nodes/s; "
          + ", ".join(f"{k} {n}" for k, n in results.items()))


def main() -> None:
    print("Quarto Alpha-Beta, exact endgame (numba kernel, one thread)")
    warm_up("quarto")
    print(f"Searched to the end of the game (target from 9 empty: <= {TARGET:g} s)")
    solve_times(9, 30, 1)
    solve_times(10, 10, 2)
    solve_times(11, 5, 3)


if __name__ == "__main__":
    main()
