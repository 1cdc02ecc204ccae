"""An alpha-beta search's note says what stopped its unfinished depth: the clock, the
node budget, a cancel, or (with time left) a compiled search that spent the nodes its
speed so far allowed for the time left, which ends a timed search before its clock
does. A note never blames the clock for a search that stopped with time to spare."""
from __future__ import annotations

import re

from plyground.core import parse_game
from plyground.core.fast import tree_backend
from plyground.core.search.alphabeta import alphabeta_search
from plyground.core.search.control import Budget, SearchControl, TickClock


def test_a_kernel_that_spent_its_node_allowance_with_time_left_says_so(monkeypatch):
    game = parse_game("boom")
    backend = tree_backend(game)
    assert backend is not None
    # the allowance the speed so far gives the time left: small here, as it is when
    # a kernel runs faster than its speed measured on the shallow depths
    monkeypatch.setattr(type(backend), "node_limit", lambda self, control, done: 2000)
    done = alphabeta_search(game, game.start(), Budget(time=600), backend=backend)
    assert done.stopped and done.elapsed < 600
    assert re.fullmatch(
        rf"stopped during depth {done.depth + 1}: at \d+\.\d\d of 600 s, the compiled "
        r"search had spent the nodes its speed so far allowed for the time left, with "
        r"\d of 7 root moves searched", done.note), done.note


def test_the_clock_and_the_node_budget_are_named_when_they_stop_it():
    game = parse_game("connect4")
    control = SearchControl(Budget(time=0.5), clock=TickClock(0.05))
    timed = alphabeta_search(game, game.start(), control.budget, control=control)
    assert re.fullmatch(r"stopped during depth \d+: the clock ran out \(0\.5 s\), with "
                        r"\d of 7 root moves searched", timed.note), timed.note
    counted = alphabeta_search(game, game.start(), Budget(nodes=3000))
    assert re.fullmatch(r"stopped during depth \d+: the node budget \(3,000\) ran out, "
                        r"with \d of 7 root moves searched", counted.note), counted.note
