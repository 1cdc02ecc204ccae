"""An outside engine's start: from plyground starting its process to its `readyok`
(the handshake, then `isready`), with the box around its tree (a cgroup where one can
be made) and, for comparison, with the tree box left out (the per-process limit only,
as before). Five rounds of five starts each way, alternating; the median of each
round's median. The engine is tests/fakes/engine_good.py."""
from __future__ import annotations

import os
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROUNDS = STARTS = 5
COMMAND = shlex.join([sys.executable,
                      str(Path(__file__).resolve().parents[1] / "fakes" / "engine_good.py")])


class NoTreeBox:
    """The tree box left out: what starting an engine cost before there was one."""

    bounded, note = True, ""

    @classmethod
    def make(cls, name: str, memory: int | None) -> "NoTreeBox":
        return cls()

    def preexec(self) -> None:
        pass

    def add(self, pid: int) -> None:
        pass

    def end(self) -> None:
        pass

    def over_memory(self) -> bool:
        return False


def start_to_ready(engine_class) -> float:
    started = time.perf_counter()
    engine = engine_class(COMMAND, 300 << 20)
    try:
        engine.start((), None)
        engine.send("isready", "before its search")
        while engine.next_line(time.perf_counter() + 10, None, "before its search") \
                != "readyok":
            pass
        return time.perf_counter() - started
    finally:
        engine.kill()


def main() -> None:
    os.environ.setdefault("PLYGROUND_HOME", tempfile.mkdtemp(prefix="plyground-bench-"))
    from plyground.core.agents import engine_process
    from plyground.core.agents.tree_box import TreeBox

    bounded = TreeBox.make("bench", 300 << 20)
    bounded.end()
    rounds: dict[str, list[float]] = {"with": [], "without": []}
    start_to_ready(engine_process.EngineProcess)  # warm: imports, caches
    try:
        for _ in range(ROUNDS):
            for way, boxes in (("without", NoTreeBox), ("with", TreeBox)):
                engine_process.TreeBox = boxes
                rounds[way].append(statistics.median(
                    start_to_ready(engine_process.EngineProcess) for _ in range(STARTS)))
    finally:
        engine_process.TreeBox = TreeBox
    print(f"Engine start to readyok (median of {ROUNDS} rounds of {STARTS}; the tree "
          f"{'in a cgroup' if bounded.bounded else 'not bounded: ' + bounded.note}):")
    for way, values in rounds.items():
        print(f"  {way:>7} the tree box: {statistics.median(values) * 1000:6.1f} ms "
              f"(rounds: {', '.join(f'{value * 1000:.1f}' for value in values)})")


if __name__ == "__main__":
    main()
