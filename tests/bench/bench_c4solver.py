"""Connect 4 solver speed on the six published test sets and on the empty board: per
set, the mean time per position (the solve alone, as the public C++ solver's benchmark
times it, with one table kept across the set as it does), the mean nodes, and the
positions whose score differs from the published one; then the empty board (score +1),
solved once. The opening book is off: every position is searched.

`python -m tests.bench.bench_c4solver [SET[:N] ...] [--limit N] [--full] [--no-empty]`

With no SET, every set in full except Test_L1_R3, of which only the first 100
positions (the whole set takes about 50 minutes; --full runs it all), and the empty
board (several minutes; --no-empty skips it). `SET:N` or --limit N: the first N
positions only. --threads 1 2: a row per thread count (the set's wall time with
several threads sharing the table).
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from plyground.core import get_game
from plyground.core.fast.c4solver import Solver

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "connect4"
SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
SAMPLE = {"Test_L1_R3": 100}  # the default run's first-N sample of the slow sets
# The public C++ solver on this machine class, ms per position (from the issue).
REFERENCE_MS = {"Test_L3_R1": 0.08, "Test_L2_R1": 0.10, "Test_L2_R2": 4.6,
                "Test_L1_R1": 0.42, "Test_L1_R2": 220.0, "Test_L1_R3": 5000.0,
                "empty": 414_000.0}
EMPTY_SCORE = 1  # rules/connect4.md: the first player wins with the 41st ply


def run_set(name: str, limit: int | None, threads: int) -> tuple[int, float, float, int]:
    """(positions, mean ms, mean nodes, mismatches) of one set on a fresh solver:
    with one thread, each solve timed alone; with more, the whole set's wall time."""
    game = get_game("connect4")
    if name == "empty":
        lines = [("", str(EMPTY_SCORE))]
    else:
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


def parse_set(text: str) -> tuple[str, int | None]:
    """`Test_L1_R2`, `L1_R2` or `empty`, optionally `:N` (the first N positions)."""
    name, _, count = text.partition(":")
    name = name if name in SETS or name == "empty" else f"Test_{name}"
    if name not in SETS and name != "empty":
        raise SystemExit(f"unknown set {text!r}: one of {', '.join(SETS)} or empty")
    return name, int(count) if count else None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", metavar="SET[:N]")
    parser.add_argument("--limit", type=int, default=None,
                        help="the first N positions of each set")
    parser.add_argument("--full", action="store_true",
                        help=f"run {', '.join(SAMPLE)} whole too")
    parser.add_argument("--no-empty", action="store_true", help="skip the empty board")
    parser.add_argument("--threads", type=int, nargs="*", default=[1])
    args = parser.parse_args(argv if argv is not None else [])
    if args.sets:
        chosen = [parse_set(text) for text in args.sets]
    else:
        chosen = [(name, None if args.full else SAMPLE.get(name)) for name in SETS]
        chosen += [] if args.no_empty else [("empty", None)]
    Solver().solve(get_game("connect4").parse_position("445566"))  # compile
    print("Connect 4 solver, table kept across each set; ratio = our ms / the C++ ms")
    print(f"  {'set':<11} {'threads':>7} {'positions':>9} {'ms/position':>12} "
          f"{'C++ ms':>8} {'ratio':>6} {'mean nodes':>14} {'mismatches':>10}")
    for name, count in chosen:
        limit = min(filter(None, (count, args.limit)), default=None)
        for threads in [1] if name == "empty" else args.threads:
            positions, ms, nodes, wrong = run_set(name, limit, threads)
            print(f"  {name:<11} {threads:>7} {positions:>9} {ms:>12.3f} "
                  f"{REFERENCE_MS[name]:>8g} {ms / REFERENCE_MS[name]:>6.2f} "
                  f"{nodes:>14,.0f} {wrong:>10}", flush=True)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
