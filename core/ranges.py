"""The ranges the numbers a user gives must fall in: a command's options and an agent's
settings. Each is generous for real use and stops short of where a number no longer
works as one in the code behind it (SQLite's 64-bit integers, a clock's arithmetic, an
allocation). A number outside its range is refused as it is read, in one line, so that
no huge id, `inf` or `1e308` reaches the code that would fail on it.
"""
from __future__ import annotations

import os

LARGEST_ID = 2**63 - 1  # SQLite's INTEGER: the largest game or run id there can be
LARGEST_SEED = 2**64 - 1  # the generator's 64 bits; seeds derived for agents reach it
LARGEST_WHOLE = 2**63 - 1  # a signed 64-bit integer: what numpy arrays and SQLite hold
LARGEST_NUMBER = 1e18  # a number with no range of its own (a bot's setting)
SHORTEST_MOVE = 0.001  # seconds
LONGEST_MOVE = 24 * 3600.0  # seconds: a day for one move
MOST_NODES = 10**12  # a day's search at ten million nodes a second
DEEPEST = 64  # plies: deeper than any game here lasts (alphabeta's own cap)
LARGEST_EXPLORATION = 1000.0  # an exploration constant; the usual ones are 1 to 5
MOST_JOBS = 256  # worker processes or threads: more than any one machine's cores
MOST_GAMES = 1_000_000  # a match's games, a pair's in a tournament, an SPRT's pairs
MOST_OPENINGS = 100_000  # the openings a suite build looks for
LONGEST_TRAINING = 7 * 24 * 60.0  # minutes: a week


def machine_memory() -> int:
    """The machine's physical memory in bytes (a memory limit above it limits
    nothing), or LARGEST_WHOLE where the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return LARGEST_WHOLE
