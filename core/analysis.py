"""Every move's exact value in a position, for the game screen's analysis panel.

Only Connect 4 has an exact solver. Its kernel releases the GIL, so the columns are
solved one by one on a thread while this one reports what is known so far a few times
a second (`AnalysisProgress`) and passes a cancel on to the kernel at once.
"""
from __future__ import annotations

import threading

from .search.control import SearchControl
from .search.events import AnalysisProgress, Bound, MoveValue, SearchDone

ANALYSED_GAMES = ("connect4",)
PROGRESS_INTERVAL = 0.1  # seconds between two progress reports


def can_analyse(game) -> bool:
    return game.id in ANALYSED_GAMES


def column_score(solver, state, column: int) -> int | None:
    """The solver's score for the side to move if it plays `column` (None: stopped)."""
    from .fast.c4solver import CELLS

    child = state.play(column)
    outcome = child.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else (CELLS + 1 - state.ply) // 2
    score = solver.solve(child)
    return None if score is None else -score


def analyse_columns(state, observer, control: SearchControl) -> SearchDone:
    """Every legal column's exact value (centre columns first), the best move first
    in ties as the perfect agent plays it; stopped early, the columns solved so far."""
    from . import perfect
    from .fast.c4solver import ORDER

    perfect.warm_up()
    columns = [int(column) for column in ORDER if int(column) in state.moves()]
    solver = perfect.shared_solver()
    scores: dict[int, int] = {}
    first_node = solver.nodes

    def solve_columns() -> None:
        with perfect._lock:
            for column in columns:
                if control.stop.is_set():
                    return
                score = column_score(solver, state, column)
                if score is None:
                    return
                scores[column] = score

    def values() -> tuple[MoveValue, ...]:
        return tuple(MoveValue(column, perfect.value_of(score, state.ply), Bound.EXACT)
                     for column, score in sorted(scores.items()))

    worker = threading.Thread(target=solve_columns, name="plyground-analysis")
    worker.start()
    while worker.is_alive():
        if control.stop.is_set():
            solver.stop()  # again at every turn: a solve may have started since
        worker.join(PROGRESS_INTERVAL)
        observer(AnalysisProgress(values(), len(columns), solver.nodes - first_node,
                                  control.elapsed()))
    found = sorted(values(), key=lambda value: columns.index(value.move))
    work, elapsed = solver.nodes - first_node, control.elapsed()
    if not found:
        return SearchDone(None, None, (), work, elapsed)
    best = max(found, key=lambda value: value.value)  # the centremost of the best
    note = perfect.EXACT_NOTE if len(found) == len(columns) else ""
    return SearchDone(best.move, best.value, (best.move,), work, elapsed, None,
                      tuple(found), note)
