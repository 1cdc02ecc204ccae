"""Quarto MCTS speed with the numba kernel.

Iterations per second from the start and from a mid-game (six pieces placed, 90 moves),
2 s runs, then the time the seed's MCTS budget (5,500 iterations) takes from the start.
The target is the Cephalopod kernel's: the seed's budget in well under half a second.
Everything runs on one thread, with the kernel compiled (or loaded from cache)
beforehand. The figures are the ones the search itself reports (and the inspector
shows): its work over its time.
"""
from __future__ import annotations

from plyground.core import get_game
from plyground.core.fast import warm_up
from tests.bench.measure import growth_rates, mcts_rates, seed_budget_time

GAME = get_game("quarto")
MID_GAME = "d.6f/4.be/..../.... 8"
TARGET = 20_000  # iterations/s


def main() -> None:
    print("Quarto MCTS (numba kernel, one thread)")
    warm_up("quarto")
    print(f"From the start, 2 s per run (target >= {TARGET:,} iterations/s)")
    mcts_rates(GAME, GAME.start(), (1, 2, 3), 2.0, TARGET)
    print(f"From the mid-game {MID_GAME}, 2 s per run")
    mcts_rates(GAME, GAME.parse_position(MID_GAME), (1, 2, 3), 2.0, TARGET)
    seed_budget_time(GAME, GAME.start())
    growth_rates(GAME, GAME.start())


if __name__ == "__main__":
    main()
