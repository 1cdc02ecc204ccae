"""Ctrl-C in a command stops a search under way at once, even a compiled one (which
reads only its stop flag, while Python's signal handler waits for it to return): every
search given no flag of its own reads the process's interrupt flag, which the
command's Ctrl-C sets (tui/cli/stopping.py)."""
from __future__ import annotations

import time

import pytest

from plyground.core import get_game
from plyground.core.catalogue import parse_agent
from plyground.core.search import control
from plyground.core.search.control import Budget, SearchControl, StopFlag

HANG_GUARD = 30  # seconds: the search asked for 600


@pytest.fixture
def interrupt(monkeypatch):
    """The interrupt flag, new for the test (a set one would stop every later search
    of this process)."""
    monkeypatch.setattr(control, "_shared_stop", None)
    return control.interrupt_flag()


def test_a_search_given_no_flag_reads_the_interrupt_flag(interrupt):
    assert SearchControl(Budget()).stop is interrupt
    own = StopFlag()
    assert SearchControl(Budget(), own).stop is own


def test_a_compiled_search_stops_once_it_is_set(interrupt):
    game = get_game("connect4")
    agent = parse_agent("alphabeta:time=600")
    agent.prepare()
    interrupt.set()
    started = time.monotonic()
    done = agent.decide(game.start())
    assert time.monotonic() - started < HANG_GUARD
    assert done.best_move in game.start().moves()
