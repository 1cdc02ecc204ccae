"""An alpha-beta search's note says what stopped its unfinished depth: the clock, the
node budget or a cancel. A compiled search whose node allowance (the speed measured
so far times the time left) was too small a guess searches on until its clock: it
never stops with time to spare."""
from __future__ import annotations

import re

from plyground.core import parse_game
from plyground.core.fast import tree_backend
from plyground.core.fast.table import RESUME_SECONDS
from plyground.core.search.alphabeta import alphabeta_search
from plyground.core.search.control import Budget, SearchControl, TickClock


def test_a_kernel_whose_node_allowance_is_too_small_searches_until_its_clock(
        monkeypatch):
    game = parse_game("boom")
    backend = tree_backend(game)
    assert backend is not None
    allowance = 2000  # small, as the speed measured on the shallow depths can make it
    monkeypatch.setattr(type(backend), "node_limit",
                        lambda self, control, done: allowance)
    control = SearchControl(Budget(time=2), clock=TickClock(0.001))
    done = alphabeta_search(game, game.start(), control.budget, control=control,
                            backend=backend)
    assert done.stopped and done.elapsed >= 2 - RESUME_SECONDS
    assert done.work > 10 * allowance
    assert re.fullmatch(rf"stopped during depth {done.depth + 1}: the clock ran out "
                        r"\(2 s\), with \d of 7 root moves searched", done.note), done.note


def test_the_clock_and_the_node_budget_are_named_when_they_stop_it():
    game = parse_game("connect4")
    control = SearchControl(Budget(time=0.5), clock=TickClock(0.05))
    timed = alphabeta_search(game, game.start(), control.budget, control=control)
    assert re.fullmatch(r"stopped during depth \d+: the clock ran out \(0\.5 s\), with "
                        r"\d of 7 root moves searched", timed.note), timed.note
    counted = alphabeta_search(game, game.start(), Budget(nodes=3000))
    assert re.fullmatch(r"stopped during depth \d+: the node budget \(3,000\) ran out, "
                        r"with \d of 7 root moves searched", counted.note), counted.note
