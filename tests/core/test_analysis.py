"""The analysis of every column: estimates first, marked as such, each replaced by the
solver's own per-column score as it comes; cancellable, and served through the engine
process."""
from __future__ import annotations

import random

import pytest

from plyground.core.connect4 import analysis, book as c4book
from plyground.core import get_game
from plyground.core.connect4.analysis import ColumnAnalysis, analyse_columns, can_analyse
from plyground.core.play.worker import AnalysisRequest, Engine
from plyground.core.connect4.book import default_book
from plyground.core.fast.c4solver import INVALID, ORDER, Solver
from plyground.core.connect4.solver import EXACT_NOTE, value_of
from plyground.core.search.control import Budget, SearchControl
from plyground.core.search.events import AnalysisProgress, Recorder
from plyground.core.values import Bound
from tests.core.positions import random_position

GAME = get_game("connect4")


def kernel_values(state) -> dict[int, int]:
    """Each column's value from the kernel's own analysis (a fresh table)."""
    scores = Solver(default_book()).analyze(state)
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


def test_progress_reports_grow_to_the_final_values(monkeypatch):
    # a second of solving, reported every 0.02 s: dozens of reports
    monkeypatch.setattr(analysis, "PROGRESS_INTERVAL", 0.02)
    state = GAME.parse_position("445332")
    recorder = Recorder()
    done = analyse_columns(state, recorder, SearchControl(Budget()))
    reports = [e for e in recorder.events if isinstance(e, AnalysisProgress)]
    assert len(reports) >= 3 and reports[0].values == ()  # the first one at once
    exact = [sum(v.bound == Bound.EXACT for v in report.values) for report in reports]
    assert exact == sorted(exact) and reports[-1].values == tuple(
        sorted(done.move_values, key=lambda value: value.move))
    assert all(report.total == 7 for report in reports)
    nodes = [report.nodes for report in reports]
    assert nodes == sorted(nodes) and nodes[-1] == done.work > 0


def watch_changes(monkeypatch) -> list[tuple]:
    """Every column's value (exact or estimated) just before each exact value is found,
    and once more at the end: the analysis's steps, whatever the reports' timing."""
    seen: list[tuple] = []
    found = ColumnAnalysis.found

    def recording(self, column, score):
        seen.append(self.values())
        found(self, column, score)

    monkeypatch.setattr(ColumnAnalysis, "found", recording)
    return seen


def test_every_column_is_estimated_first_then_each_estimate_gives_way_to_its_exact_value(
        monkeypatch):
    state = positions(1)[0]
    seen = watch_changes(monkeypatch)
    done = analyse_columns(state, Recorder(), SearchControl(Budget()))
    exact = kernel_values(state)
    assert {v.move: v.value for v in done.move_values} == exact
    won_at_once = {c for c in state.moves() if state.play(c).outcome() is not None}
    first = seen[len(won_at_once)]  # before the solver's first exact value
    assert {v.move for v in first} == set(state.moves())  # every column has a value
    assert {v.move for v in first if v.bound == Bound.ESTIMATE} == \
        set(state.moves()) - won_at_once
    assert {v.move: v.value for v in first if v.bound == Bound.EXACT} == \
        {c: exact[c] for c in won_at_once}
    for before, after in zip(seen, seen[1:]):  # one more exact value a step, and right
        proven = {v.move: v.value for v in after if v.bound == Bound.EXACT}
        assert len(proven) == 1 + sum(v.bound == Bound.EXACT for v in before)
        assert all(exact[column] == value for column, value in proven.items())
        assert {v.move for v in after} == set(state.moves())


def test_the_estimates_are_alpha_betas_short_search_the_same_every_time():
    state = positions(2)[1]
    control = SearchControl(Budget())
    once, again = analysis.estimates(state, control), analysis.estimates(state, control)
    assert once == again and set(once) == set(state.moves())


def test_book_positions_are_exact_at_once_without_estimates_or_search(monkeypatch):
    book = c4book.default_book()
    monkeypatch.setattr(analysis, "estimates", lambda *args: pytest.fail("estimated"))
    # the process's one preload of the kernels estimates a position on a thread of its
    # own, which the patch above would fail (outside this test: a warning in a later
    # one, in shuffled runs where this test's analysis is the process's first)
    monkeypatch.setattr(analysis, "preload", lambda state: None)
    for moves in ("", "4", "45", "453")[:book.depth]:  # their moves' positions in it
        state = GAME.parse_position(moves)
        recorder = Recorder()
        done = analyse_columns(state, recorder, SearchControl(Budget()))
        assert done.work == 0 and done.note == EXACT_NOTE
        assert [v.value for v in done.move_values] == [
            value_of(-book.score(state.play(column)), state.ply) for column in range(7)]
        reports = [e for e in recorder.events if isinstance(e, AnalysisProgress)]
        assert all(v.bound == Bound.EXACT for r in reports for v in r.values)


def test_a_cancelled_analysis_stops_at_once_with_what_it_has():
    state = GAME.parse_position("4444")  # minutes of solving
    control = SearchControl(Budget())
    seen = []

    def observer(event):
        seen.append(event)
        if len(seen) == 3:
            control.stop.set()

    done = analyse_columns(state, observer, control)
    # solving this position takes minutes, a report every PROGRESS_INTERVAL: an
    # analysis that went on solving after the cancel would send thousands more. (On a
    # busy machine the solver it was setting up can take a few intervals to start and
    # hear the stop; at most 4 reports was true only on an idle one.)
    assert len(seen) - 3 <= 5 / analysis.PROGRESS_INTERVAL
    assert done.note == "" and len(done.move_values) < 7
    assert {v.move for v in done.move_values} == {v.move for v in seen[-1].values
                                                  if v.bound == Bound.EXACT}


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
