"""The suite under load and in random order (`make stress`, issue 17): a test that
passes only on an idle machine, or only after the test before it, fails here.

Runs the whole suite RUNS times (default 5), each in an order shuffled across all
files by its own seed (pytest-random-order, --random-order-bucket=global), while one
busy process per core keeps every core loaded. Prints a line per run and a summary;
each run's output is kept in a log. A failing run comes back with its seed:
`python -m tests.stress --seed S --runs 1` repeats its order.

    python -m tests.stress [--runs N] [--seed FIRST] [--load PROCESSES] [pytest args]
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.processes import as_from_a_terminal

SUMMARY = re.compile(r"^=*\s*(.*\b(passed|failed|error|errors)\b.*?)\s*=*$")


def busy_processes(count: int) -> list[subprocess.Popen]:
    """`count` processes that each keep a core busy until killed."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(count)]


def run_suite(seed: int, log: Path, extra: list[str]) -> tuple[int, float, str]:
    """One shuffled run: its exit code, its seconds and pytest's summary line."""
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
               "--random-order-bucket=global", f"--random-order-seed={seed}", *extra]
    started = time.monotonic()
    with open(log, "w") as out:
        code = subprocess.call(command, stdout=out, stderr=subprocess.STDOUT,
                               preexec_fn=as_from_a_terminal)  # started by a script too
    seconds = time.monotonic() - started
    lines = log.read_text(errors="replace").splitlines()
    summary = next((match.group(1) for line in reversed(lines)
                    if (match := SUMMARY.match(line))), "no summary (see the log)")
    return code, seconds, summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1, help="the first run's seed")
    parser.add_argument("--load", type=int, default=len(os.sched_getaffinity(0)),
                        help="busy processes beside the suite (default: one per core)")
    options, extra = parser.parse_known_args()
    if options.runs < 1 or options.load < 0:
        parser.error("--runs is at least 1 and --load at least 0")
    logs = Path(tempfile.mkdtemp(prefix="plyground-stress-"))
    runs = f"{options.runs} shuffled run" + ("s" if options.runs != 1 else "")
    busy = f"{options.load} busy process" + ("es" if options.load != 1 else "")
    print(f"{runs}, each with {busy} beside it; logs in {logs}", flush=True)
    failed = []
    for seed in range(options.seed, options.seed + options.runs):
        load = busy_processes(options.load)
        try:
            code, seconds, summary = run_suite(seed, logs / f"seed-{seed}.log", extra)
        finally:
            for process in load:
                process.kill()
                process.wait()
        if code != 0:
            failed.append(seed)
        print(f"seed {seed}: {'passed' if code == 0 else 'FAILED'} in {seconds:.0f} s: "
              f"{summary}", flush=True)
    print(f"{options.runs - len(failed)} of {options.runs} runs passed"
          + (f"; failed: seeds {', '.join(map(str, failed))}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
