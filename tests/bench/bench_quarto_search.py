"""Quarto alpha-beta: its speed in 1 s at every stage, and the exact endgame's time.

For seeded positions with 2, 6, 10 and 13 pieces placed, the Alpha-Beta agent with a
1 s budget: the nodes per second and the depth it completes (a search that reaches the
end of the game stops early, and its rate is then mostly fixed costs). For seeded
endgames with 9 empty squares (and, for scale, 10 and 11), the agent with no time limit
searches to the end of the game; the figures are the time and nodes it reports.
Kernels are compiled (or loaded from cache) beforehand.
"""
from __future__ import annotations

from statistics import median

from plyground.core import get_game
from plyground.core.catalogue import make_agent
from plyground.core.fast import warm_up
from plyground.core.values import proven
from tests.core.positions import quarto_endgames

GAME = get_game("quarto")
TARGET = 2.0  # seconds, from 9 empty squares
RATE_TARGET = 1_000_000  # nodes/s at every stage (issue 16)


def one_second(placed: int, count: int, seed: int) -> None:
    rates, depths, ended = [], [], []
    for state in quarto_endgames(seed, GAME, 16 - placed, count):
        done = make_agent("alphabeta", time=1).decide(state)
        if done.elapsed < 0.9:  # it searched to the end of the game
            ended.append(done.elapsed)
            continue
        rates.append(done.work / done.elapsed)
        depths.append(done.depth)
    line = f"  {placed:2d} placed, {count} positions:"
    if rates:
        line += (f" {median(rates):,.0f} nodes/s median (worst {min(rates):,.0f}), "
                 f"depth {median(depths):g} median ({min(depths)}-{max(depths)})")
    if ended:
        line += (f"{';' if rates else ''} {len(ended)} searched to the end of the game in "
                 f"{median(ended) * 1000:.0f} ms median")
    print(line)


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
    print(f"Alpha-Beta, 1 s a move (target: at least {RATE_TARGET:,} nodes/s)")
    for placed, seed in ((2, 11), (6, 12), (10, 13), (13, 14)):
        one_second(placed, 5, seed)
    print(f"Searched to the end of the game (target from 9 empty: <= {TARGET:g} s)")
    solve_times(9, 30, 1)
    solve_times(10, 10, 2)
    solve_times(11, 5, 3)


if __name__ == "__main__":
    main()
