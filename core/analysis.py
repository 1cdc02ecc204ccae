"""Every move's exact value in a position, for the game screen's analysis panel.

Only Connect 4 has an exact solver. Its kernel releases the GIL, so the columns are
solved one by one on a thread while this one reports what is known so far a few times
a second (`AnalysisProgress`) and passes a cancel on to the kernel at once.
"""
from __future__ import annotations

import threading

from .c4book import move_score
from .search.control import SearchControl
from .search.events import AnalysisProgress, SearchDone

PROGRESS_INTERVAL = 0.1  # seconds between two progress reports


def can_analyse(game) -> bool:
    """Whether the game declared an exact analysis (Connect 4's is below)."""
    return game.entry.analysis is not None


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
                score = move_score(state, column, solver.solve)
                if score is None:
                    return
                scores[column] = score

    worker = threading.Thread(target=solve_columns, name="plyground-analysis")
    worker.start()
    while worker.is_alive():
        if control.stop.is_set():
            solver.stop()  # again at every turn: a solve may have started since
        worker.join(PROGRESS_INTERVAL)
        observer(AnalysisProgress(perfect.exact_values(state, scores), len(columns),
                                  solver.nodes - first_node, control.elapsed()))
    work, elapsed = solver.nodes - first_node, control.elapsed()
    if not scores:
        return SearchDone(None, None, (), work, elapsed)
    return perfect.exact_decision(state, scores, work, elapsed,
                                  perfect.EXACT_NOTE if len(scores) == len(columns)
                                  else "")
