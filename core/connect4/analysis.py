"""Every move's value in a position, for the game screen's analysis panel: estimates at
once, each replaced by its exact value as it is proven.

Only Connect 4 has an exact solver. The work runs on a thread while this one reports
what is known so far a few times a second (`AnalysisProgress`, the first at once) and
passes a cancel on at once. In order:

1. exact at once, with no kernel to load: a column that wins or fills the board, and
   every column whose position is in the opening book (core/connect4/book.py);
2. an estimate for every other column: Alpha-Beta's value of it after a short search
   (`ESTIMATE_NODES` nodes, so the same position always gets the same estimates; see
   `estimates`), reported with `Bound.ESTIMATE`;
3. the exact value of each of those columns, one by one, by the solver (its kernel
   releases the GIL), the columns an estimate found decided first (quick to prove),
   then the centre ones.

The solver's table is kept between positions (`solver.solving`); its kernel and
Alpha-Beta's are compiled, or loaded from numba's cache, when first used, which is why
reporting starts before any of that, and why the first analysis of a process goes on
loading them in the background once it is done (`preload`).
"""
from __future__ import annotations

import threading

from . import solver as exact_solver
from .book import default_book, move_score
from ..game import load_ref
from ..games.connect4 import WARM_POSITION
from ..search.alphabeta import alphabeta_search
from ..search.control import Budget, SearchControl
from ..search.events import AnalysisProgress, IterationDone, MoveValue, Recorder, SearchDone
from ..values import Bound, is_decisive

PROGRESS_INTERVAL = 0.1  # seconds between two progress reports
ESTIMATE_NODES = 200_000  # Alpha-Beta's budget for the estimates (about 0.3 s)


def can_analyse(game) -> bool:
    """Whether the game declared an exact analysis (Connect 4's is below)."""
    return game.entry.analysis is not None


QUICK_NODES = 2_000_000  # the solver's budget for `quick_score` (about half a second)
BOOK, SOLVER = "opening book", "solver"  # where a quick score comes from


def quick_score(state) -> tuple[int, str] | None:
    """The exact solver score of a running position if it is cheap to know, with where
    it comes from: the opening book holds it, or the solver proves it within
    `QUICK_NODES` nodes (positions late in a game); else None. `plyground analyze`
    leads with it when its agent's own value is only a heuristic."""
    book = default_book()
    score = None if book is None else book.score(state)
    if score is not None:
        return score, BOOK
    exact_solver.warm_up()
    with exact_solver.solving() as solver:
        score = solver.solve(state, nodes=QUICK_NODES)
    return None if score is None else (score, SOLVER)


_backends: dict[str, object] = {}  # the estimates' Alpha-Beta backend by game, kept
_estimating = threading.Lock()  # (its table serves one search at a time)


def estimates(state, control: SearchControl) -> dict[int, float]:
    """Every legal column's value after a short Alpha-Beta search (`ESTIMATE_NODES`
    nodes, stopped by `control`'s cancel), by column; {} if depth 1 was not done.

    A value is the mean of the last two depths' values (rounded): the heuristic leans
    to the side that moved last, one way at odd depths and the other at even ones, and
    the mean of the two agrees far more often with the exact values' signs. A decided
    value (a win or loss found) is the last depth's."""
    budget = Budget(nodes=ESTIMATE_NODES)
    ref = state.game.entry.kernels.tree
    recorder = Recorder()
    with _estimating:
        if ref is not None and ref not in _backends:
            _backends[ref] = load_ref(ref)()  # its table is large: made once
        alphabeta_search(state.game, state, budget, recorder,
                         SearchControl(budget, control.stop, control.clock),
                         backend=_backends.get(ref), exact_root=True)
    depths = [{int(value.move): value.value for value in event.move_values}
              for event in recorder.events if isinstance(event, IterationDone)][-2:]
    last = depths[-1] if depths else {}
    return {column: value if is_decisive(value) or column not in depths[0]
            or is_decisive(depths[0][column]) else round((value + depths[0][column]) / 2)
            for column, value in last.items()}


_preloaded: list[threading.Thread] = []


def preload(state) -> None:
    """Load Alpha-Beta's and the solver's kernels (from numba's cache, or compile them)
    on a thread of their own, once a process, while it waits for its next position:
    the first position of a game is in the book, and the first one past it then finds
    them ready."""
    def load() -> None:
        late = state.game.parse_position(WARM_POSITION)
        estimates(late, SearchControl(Budget()))
        with exact_solver.solving() as solver:
            solver.solve(late)

    if not _preloaded:
        _preloaded.append(threading.Thread(target=load, name="plyground-preload",
                                           daemon=True))
        _preloaded[0].start()


class ColumnAnalysis:
    """What is known of a position's columns: exact solver scores and estimates, shared
    by the worker that finds them and the thread that reports them."""

    def __init__(self, state) -> None:
        width = state.game.board.width
        self.state = state
        self.columns = sorted(state.moves(),  # centre first, as the solver's ORDER
                              key=lambda column: abs(2 * column - width + 1))
        self.scores: dict[int, int] = {}  # exact solver scores
        self.estimated: dict[int, float] = {}  # search values, until solved
        self.solver = None  # once the worker has it
        self.first_node = 0
        self.lock = threading.Lock()

    def values(self) -> tuple[MoveValue, ...]:
        """Every column known so far, exact or estimated, by column."""
        with self.lock:
            exact = {column: MoveValue(column, exact_solver.value_of(score, self.state.ply),
                                       Bound.EXACT)
                     for column, score in self.scores.items()}
            rest = {column: MoveValue(column, value, Bound.ESTIMATE)
                    for column, value in self.estimated.items() if column not in exact}
        return tuple(value for _, value in sorted({**rest, **exact}.items()))

    def nodes(self) -> int:
        solver = self.solver
        return 0 if solver is None else solver.nodes - self.first_node

    def found(self, column: int, score: int) -> None:
        with self.lock:
            self.scores[column] = score

    def unsolved(self) -> list[int]:
        """The columns still to prove: those an estimate found decided first."""
        rest = [column for column in self.columns if column not in self.scores]
        return sorted(rest, key=lambda column: not is_decisive(
            self.estimated.get(column, 0)))

    def run(self, control: SearchControl) -> None:
        """The three steps of the module's doc, until done or cancelled."""
        book = default_book()
        for column in self.columns:
            score = move_score(self.state, column,
                               lambda child: None if book is None else book.score(child))
            if score is not None:
                self.found(column, score)
        if not self.unsolved() or control.stop.is_set():
            return
        found = estimates(self.state, control)
        with self.lock:
            self.estimated = found
        with exact_solver.solving() as solver:
            self.first_node, self.solver = solver.nodes, solver
            for column in self.unsolved():
                if control.stop.is_set():
                    return
                score = move_score(self.state, column, solver.solve)
                if score is None:
                    return
                self.found(column, score)


def analyse_columns(state, observer, control: SearchControl) -> SearchDone:
    """Every legal column's exact value (reported as they come, after estimates of
    them), the best move first in ties as the perfect agent plays it; stopped early,
    the columns solved so far."""
    analysis = ColumnAnalysis(state)

    def report() -> None:
        observer(AnalysisProgress(analysis.values(), len(analysis.columns),
                                  analysis.nodes(), control.elapsed()))

    failure: list[BaseException] = []

    def work() -> None:
        try:
            analysis.run(control)
        except BaseException as error:  # raised again below, in the caller's thread
            failure.append(error)

    report()  # at once: the panel knows the analysis has begun
    worker = threading.Thread(target=work, name="plyground-analysis")
    worker.start()
    while worker.is_alive():
        if control.stop.is_set() and analysis.solver is not None:
            analysis.solver.stop()  # again at every turn: a solve may have started since
        worker.join(PROGRESS_INTERVAL)
        report()
    if failure:
        raise failure[0]
    # read before the preload starts: its solve shares the solver and its node count
    scores, work, elapsed = analysis.scores, analysis.nodes(), control.elapsed()
    preload(state)
    if not scores:
        return SearchDone(None, None, (), work, elapsed)
    note = exact_solver.EXACT_NOTE if len(scores) == len(analysis.columns) else ""
    return exact_solver.exact_decision(state, scores, work, elapsed, note)
