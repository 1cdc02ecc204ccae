"""Reference data from ../shared/data beside the checkout. A test that needs it fails
(never skips) when it is missing."""
from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def shared_data(relative: str) -> Path:
    path = DATA / relative
    if not path.exists():
        pytest.fail(f"reference data missing: {path} (../shared must sit beside the checkout)")
    return path


def read_table(relative: str) -> dict[int, int]:
    """A `n count` table, comments skipped."""
    table = {}
    for line in shared_data(relative).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            n, count = line.split()
            table[int(n)] = int(count)
    return table


def read_scored_positions(relative: str) -> list[tuple[str, int]]:
    """`<moves> <score>` lines of the solver benchmark sets."""
    rows = []
    for line in shared_data(relative).read_text().splitlines():
        if line.strip():
            moves, score = line.split()
            rows.append((moves, int(score)))
    return rows
