"""The analysis of every column: the solver's own per-column scores, reported as they
come, cancellable, and served through the engine process."""
from __future__ import annotations

import random

from plyground.core import get_game
from plyground.core.analysis import analyse_columns, can_analyse
from plyground.core.engine import AnalysisRequest, Engine
from plyground.core.fast.c4solver import INVALID, ORDER, Solver
from plyground.core.perfect import EXACT_NOTE, value_of
from plyground.core.search.control import Budget, SearchControl
from plyground.core.search.events import AnalysisProgress, Recorder
from tests.core.positions import random_position

GAME = get_game("connect4")


def kernel_values(state) -> dict[int, int]:
    """Each column's value from the kernel's own analysis (a fresh table)."""
    scores = Solver().analyze(state)
    return {column: value_of(score, state.ply) for column, score in enumerate(scores)
            if score != INVALID}


def positions(count: int) -> list:
    rng = random.Random(7)
    return [random_position(rng, rng.randrange(16, 36)) for _ in range(count)]


def test_every_column_has_the_value_of_the_kernels_analysis():
    for state in positions(12):
        recorder = Recorder()
        done = analyse_columns(state, recorder, SearchControl(Budget()))
        assert {v.move: v.value for v in done.move_values} == kernel_values(state)
        assert done.note == EXACT_NOTE
        best = max(v.value for v in done.move_values)
        assert done.value == best
        assert done.best_move == next(column for column in ORDER  # centremost of ties
                                      if kernel_values(state).get(column) == best)


def test_progress_reports_grow_to_the_final_values():
    state = GAME.parse_position("4453")  # seconds of solving: several reports
    recorder = Recorder()
    done = analyse_columns(state, recorder, SearchControl(Budget()))
    reports = [e for e in recorder.events if isinstance(e, AnalysisProgress)]
    assert len(reports) >= 2
    known = [len(report.values) for report in reports]
    assert known == sorted(known) and reports[-1].values == tuple(
        sorted(done.move_values, key=lambda value: value.move))
    assert all(report.total == 7 for report in reports)
    nodes = [report.nodes for report in reports]
    assert nodes == sorted(nodes) and nodes[-1] == done.work > 0


def test_a_cancelled_analysis_stops_at_once_with_what_it_has():
    state = GAME.parse_position("4444")  # minutes of solving
    control = SearchControl(Budget())
    seen = []

    def observer(event):
        seen.append(event)
        if len(seen) == 3:
            control.stop.set()

    done = analyse_columns(state, observer, control)
    assert len(seen) <= 4  # stopped within a progress interval of the cancel
    assert done.note == "" and len(done.move_values) < 7


def test_only_connect4_is_analysed():
    assert [game for game in ("connect4", "boom", "cephalopod", "quarto")
            if can_analyse(get_game(game))] == ["connect4"]


def test_the_engine_serves_an_analysis_with_its_progress():
    state = positions(1)[0]
    events = []
    with Engine() as engine:
        done = engine.run(AnalysisRequest("connect4", GAME.format_position(state)),
                          on_events=events.extend)
    assert {v.move: v.value for v in done.result.move_values} == kernel_values(state)
    assert all(isinstance(event, AnalysisProgress) for event in events)
