"""Run every `tests/bench/bench_*.py` module's `main()` in turn: `python -m tests.bench`."""
from __future__ import annotations

import importlib
from pathlib import Path


def main() -> None:
    for path in sorted(Path(__file__).parent.glob("bench_*.py")):
        importlib.import_module(f"{__package__}.{path.stem}").main()
        print()


if __name__ == "__main__":
    main()
