"""Connect 4 solver speed on the six published test sets: per set, the mean time per
position (the solve alone, as the public C++ solver's benchmark times it, with one
table kept across the set as it does), the mean nodes, and the positions whose score
differs from the published one.

`python -m tests.bench.bench_c4solver [SET ...] [--limit N]`: some sets only, or the
first N positions of each (the hard sets take long: the C++ solver needs about 5 s a
position on L1_R3).
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from plyground.core import get_game
from plyground.core.fast.c4solver import Solver

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "connect4"
SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
# The public C++ solver on this machine class, ms per position (from the issue).
REFERENCE_MS = {"Test_L3_R1": 0.08, "Test_L2_R1": 0.10, "Test_L2_R2": 4.6,
                "Test_L1_R1": 0.42, "Test_L1_R2": 220.0, "Test_L1_R3": 5000.0}


def run_set(name: str, limit: int | None) -> tuple[int, float, float, int]:
    """(positions, mean ms, mean nodes, mismatches) of one set on a fresh solver."""
    game = get_game("connect4")
    lines = [line.split() for line in (DATA / name).read_text().splitlines() if line]
    lines = lines[:limit] if limit else lines
    solver = Solver()
    seconds, wrong = 0.0, 0
    for moves, score in lines:
        state = game.parse_position(moves)
        started = time.perf_counter()
        got = solver.solve(state)
        seconds += time.perf_counter() - started
        wrong += got != int(score)
    return len(lines), 1000 * seconds / len(lines), solver.nodes / len(lines), wrong


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", default=SETS)
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args(argv if argv is not None else [])
    Solver().solve(get_game("connect4").parse_position("445566"))  # compile first
    print("Connect 4 solver, one thread, table kept across each set")
    print(f"  {'set':<11} {'positions':>9} {'ms/position':>12} {'C++ ms':>8} "
          f"{'ratio':>6} {'mean nodes':>12} {'mismatches':>10}")
    for name in args.sets:
        count, ms, nodes, wrong = run_set(name, args.limit)
        print(f"  {name:<11} {count:>9} {ms:>12.3f} {REFERENCE_MS[name]:>8g} "
              f"{ms / REFERENCE_MS[name]:>6.2f} {nodes:>12,.0f} {wrong:>10}", flush=True)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
