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


def run_set(name: str, limit: int | None, threads: int) -> tuple[int, float, float, int]:
    """(positions, mean ms, mean nodes, mismatches) of one set on a fresh solver:
    with one thread, each solve timed alone; with more, the whole set's wall time."""
    game = get_game("connect4")
    lines = [line.split() for line in (DATA / name).read_text().splitlines() if line]
    lines = lines[:limit] if limit else lines
    states = [game.parse_position(moves) for moves, _ in lines]
    solver = Solver()
    if threads == 1:
        seconds, scores = 0.0, []
        for state in states:
            started = time.perf_counter()
            scores.append(solver.solve(state))
            seconds += time.perf_counter() - started
    else:
        started = time.perf_counter()
        scores = solver.solve_many(states, threads=threads)
        seconds = time.perf_counter() - started
    wrong = sum(got != int(score) for got, (_, score) in zip(scores, lines))
    return len(lines), 1000 * seconds / len(lines), solver.nodes / len(lines), wrong


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", default=SETS)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--threads", type=int, nargs="*", default=[1, 2])
    args = parser.parse_args(argv if argv is not None else [])
    Solver().solve(get_game("connect4").parse_position("445566"))  # compile first
    print("Connect 4 solver, table kept across each set; ratio = our ms / the C++ ms")
    print(f"  {'set':<11} {'threads':>7} {'positions':>9} {'ms/position':>12} "
          f"{'C++ ms':>8} {'ratio':>6} {'mean nodes':>12} {'mismatches':>10}")
    for name in args.sets:
        for threads in args.threads:
            count, ms, nodes, wrong = run_set(name, args.limit, threads)
            print(f"  {name:<11} {threads:>7} {count:>9} {ms:>12.3f} "
                  f"{REFERENCE_MS[name]:>8g} {ms / REFERENCE_MS[name]:>6.2f} "
                  f"{nodes:>12,.0f} {wrong:>10}", flush=True)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
