"""The resources `plyground serve` gives each visitor: `--max-memory`, the ceiling of
each served app with all it starts, and `--idle`, how long a visitor may send nothing
before its app is ended. Each value is checked here, as the command reads it: one
`error:` line for a value out of its range."""
from __future__ import annotations

import math

from plyground.core import PlygroundError
from plyground.core.agents.box import memory_within
from plyground.core.ranges import machine_memory

DEFAULT_MEMORY = "1G"
DEFAULT_IDLE = 30.0  # minutes
LONGEST_IDLE = 24 * 60.0  # minutes: a day
SHORTEST_IDLE = 1.0  # seconds


def memory_ceiling(text: str) -> int:
    """`--max-memory`: a size (`512M`, `1G`, `1.5G`) from 16 MiB to this machine's
    memory, in bytes."""
    try:
        return memory_within(text, machine_memory())
    except ValueError as wrong:
        raise PlygroundError(f"--max-memory {text!r} {wrong}") from None


def idle_seconds(minutes: float) -> float:
    """`--idle`: minutes, fractions allowed, from a second to a day; in seconds."""
    if not (math.isfinite(minutes) and SHORTEST_IDLE <= minutes * 60 and
            minutes <= LONGEST_IDLE):
        raise PlygroundError(f"--idle {minutes:g}: minutes from {SHORTEST_IDLE / 60:.3g} "
                             f"(a second) to {LONGEST_IDLE:g} (a day)")
    return minutes * 60
