"""Playing strength as an SPRT says it: "A is stronger than B" with error bounds, not a
win percentage (a fixed percentage is the wrong yardstick in games that are often
drawn). Each test is `plyground sprt` with elo0 = 0, elo1 = 30, α = β = 0.05, on the
game's shipped balanced openings, seed 1, at most a number of pairs (then it says
"none": no decision). Each line gives the command that plays it. A BOOM game lasts
about three minutes (some 100 plies, a second a move for Alpha-Beta), so its test is
capped at 12 pairs (about 40 minutes on two cores); the other two take a few minutes
each (the agents think for a fixed time, so a busy machine plays weaker games, both
sides alike).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

TESTS = (  # game, A, B, most pairs
    ("boom", "alphabeta:time=1", "seed", 12),
    ("quarto", "alphabeta:time=1", "mcts:time=1", 60),
    ("connect4", "mcts:time=0.2", "mcts:time=0.2,uct=plain", 60),
)


def command(game: str, a: str, b: str, pairs: int) -> list[str]:
    return ["plyground", "sprt", game, a, b, "--elo0", "0", "--elo1", "30",
            "--openings", "balanced", "--seed", "1", "--max-pairs", str(pairs),
            "--no-history"]


def main() -> None:
    print("SPRT, elo0 = 0, elo1 = 30, alpha = beta = 0.05")
    plyground = Path(sys.executable).with_name("plyground")
    for game, a, b, pairs in TESTS:
        words = command(game, a, b, pairs)
        started = time.monotonic()
        ran = subprocess.run([str(plyground), *words[1:], "--json"], capture_output=True,
                             text=True, env={**os.environ, "COLUMNS": "100"})
        took = time.monotonic() - started
        print("  " + " ".join(words))
        if ran.returncode not in (0, 1):
            print(f"    failed ({ran.returncode}): {ran.stderr.strip().splitlines()[-1:]}")
            continue
        report = json.loads(ran.stdout)
        print(f"    result {report['result']}: LLR {report['llr']:.2f} in "
              f"[{report['lower_bound']:.2f}, {report['upper_bound']:.2f}], "
              f"Elo {elo(report)}, "
              f"LOS {los(report)}, "
              f"{report['pairs']} pairs "
              f"{report['pentanomial']}, {took / 60:.1f} min")


def los(report: dict) -> str:
    return "-" if report["los"] is None else f"{100 * report['los']:.1f}%"


def elo(report: dict) -> str:
    """The Elo estimate and its interval as the JSON gives them (null: none yet, or
    an end the games do not bound)."""
    if report["elo_95"] is None:
        return "no interval yet" if report["elo"] is None else f"{report['elo']:+.1f}"
    low, high = ("±inf" if end is None else f"{end:+.1f}" for end in report["elo_95"])
    return f"{report['elo']:+.1f} (95%: {low} to {high})"


if __name__ == "__main__":
    main()
