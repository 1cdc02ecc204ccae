"""Perfect play in Connect 4: the solver's scores as search values, and the decision of
the `perfect` agent.

The solver scores a position for the side to move as 22 - k for a win with its k-th
stone (rules/connect4.md); searches value a win as WIN - ply, the ply count once the
winning stone is down (values.py). A side's k-th stone is ply 2k - 1 for the first
side and 2k for the second, so the two scales convert exactly.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from dataclasses import replace

from ..fast import tree_backend
from ..search.alphabeta import alphabeta_search
from ..search.control import Budget, SearchControl
from ..search.events import MoveValue, SearchDone
from ..values import WIN, Bound
from .book import default_book

STONES = 22  # a win with the k-th stone scores 22 - k
RATE_GUESS = 4_000_000  # solver nodes a second, until this process has measured its own
EXACT_NOTE = "exact: solved"
ESTIMATE_NOTE = "estimate: not solved in time, Alpha-Beta's values"

_lock = threading.Lock()  # one search at a time uses the process's solver
_solver = None
_compiled = False
_timed = [0.0, 0]  # seconds and nodes of this process's solves, for the node limit


def value_of(score: int, ply: int) -> int:
    """The search value of a solver score for the side to move at `ply`."""
    if score == 0:
        return 0
    mover = ply % 2
    winner = mover if score > 0 else 1 - mover
    stone = STONES - abs(score)  # the winner's winning stone is its k-th
    won_at = 2 * stone - 1 + winner
    return WIN - won_at if score > 0 else -(WIN - won_at)


@contextmanager
def solving():
    """This process's solver, for one search at a time (`with solving() as solver:`
    waits for the one under way): its table (128 MB) is made once and kept, its bounds
    serving every later position."""
    global _solver
    with _lock:
        if _solver is None:
            _solver = new_solver()
        yield _solver


def new_solver():
    """A solver of its own, handed the shipped opening book (`plyground solve`)."""
    from ..fast.c4solver import Solver  # numba: loaded when a solve is asked for

    return Solver(default_book())


def warm_up() -> None:
    """Make the process's solver and compile its kernels (or load them from numba's
    cache), so that the first move does not wait for them."""
    global _compiled
    from ..fast import c4solver  # numba: loaded when a solve is asked for

    with solving() as solver:
        if not _compiled:
            c4solver.warm_up(solver)
            _compiled = True


def exact_values(state, scores: dict[int, int]) -> tuple[MoveValue, ...]:
    """The search values of the columns' solver scores, by column."""
    return tuple(MoveValue(column, value_of(score, state.ply), Bound.EXACT)
                 for column, score in sorted(scores.items()))


def exact_decision(state, scores: dict[int, int], work: int, elapsed: float,
                   note: str = EXACT_NOTE) -> SearchDone:
    """The decision from the columns' solver scores (some at least): the best-scoring
    column (the fastest win, the slowest loss; ties to the centre), and every scored
    column's value."""
    from ..fast.c4solver import CELLS, ORDER  # numba: loaded when a solve is asked for

    best = max((int(column) for column in ORDER if int(column) in scores),
               key=scores.__getitem__)  # max keeps the first of a tie
    return SearchDone(best, value_of(scores[best], state.ply), (best,), work, elapsed,
                      CELLS - state.ply, exact_values(state, scores), note,
                      exact=note == EXACT_NOTE)


def solved_decision(state, control: SearchControl) -> SearchDone | None:
    """The best-scoring move (the fastest win, the slowest loss; ties to the centre)
    with every column's exact value, or None if the solve would not end in half the
    time left (the other half is Alpha-Beta's)."""
    from ..fast.c4solver import INVALID  # numba: loaded when a solve is asked for

    warm_up()  # at once if the agent was prepared; never timed as solving
    left = control.time_left()
    rate = _timed[1] / _timed[0] if _timed[0] > 0.05 else RATE_GUESS
    limit = None if left is None else max(1, int(left / 2 * rate))
    with solving() as solver:
        started, nodes = time.perf_counter(), solver.nodes
        scores = solver.analyze(state, nodes=limit)
        nodes = solver.nodes - nodes
    _timed[0] += time.perf_counter() - started
    _timed[1] += nodes
    if scores is None:
        return None
    return exact_decision(state, {column: score for column, score in enumerate(scores)
                                  if score != INVALID}, nodes, control.elapsed())


def perfect_search(state, budget: Budget, observer, control: SearchControl,
                   exact_root: bool) -> SearchDone:
    done = solved_decision(state, control)
    if done is not None:
        return done
    fallback = alphabeta_search(state.game, state, budget, observer, control,
                                backend=tree_backend(state.game), exact_root=exact_root)
    note = ESTIMATE_NOTE + (f"; {fallback.note}" if fallback.note else "")
    return replace(fallback, note=note)
