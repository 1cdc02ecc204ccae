"""What a user waits for on the command line, in a new process each run as a user runs
it: `plyground games list --limit 5` (start-up, the history's check and a read) and a
Connect 4 `demo` of a Python bot from a file against greedy (start-up, the bot's boxed
process, the game). The median of RUNS, each with its bytecode cached (the first run
fills the cache and is not counted), in a data folder of its own."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

RUNS = 9
BOT = str(Path(__file__).resolve().parents[2] / "examples" / "bots" / "mybot.py")
COMMANDS = {
    "games list --limit 5": ["games", "list", "--limit", "5"],
    "demo connect4, a bot against greedy": ["demo", "connect4", "--x", f"{BOT}:MyBot",
                                            "--o", "greedy", "--seed", "1", "--quiet"],
}


def seconds(args: list[str], env: dict) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "plyground", *args], env=env, check=True,
                   capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    print(f"Commands as a user runs them (median of {RUNS}, a new process each run)")
    with tempfile.TemporaryDirectory(prefix="plyground-bench-") as home:
        env = {**os.environ, "PLYGROUND_HOME": home}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for name, args in COMMANDS.items():
            seconds(args, env)  # fills the bytecode cache (and the history, for list)
            print(f"  {name}: {median(seconds(args, env) for _ in range(RUNS)) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
