"""The Match screen's driver, without Textual: the fields read into a plan or one line
saying what is wrong; a run's views hold what run_sprt computed, and its games are in
the history with the run; the board shows the game under way, move by move, and the
last finished game once none is; the chart and histogram draw the figures they are
given."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, nullcontext

import pytest

from plyground.core import PlygroundError, get_game
from plyground.core.play import tournament
from plyground.core.play.arena import GameEnded, PairCounted, run_sprt
from plyground.core.play.tournament import Pool, match_game
from plyground.core.records.history import History
from plyground.core.search.control import StopFlag
from plyground.tui.arena_driver import (ArenaDriver, LiveGame, figure_lines, live_line,
                                        read_plan, result_line)
from plyground.tui.fields import FieldError
from plyground.tui.sprt_text import result_line as sprt_result_line
from plyground.tui.widgets.llr_chart import POINT, plot
from plyground.tui.widgets.pentanomial import BAR, bars
from tests.core.test_arena import inline_pool

GAME = get_game("connect4")
FIELDS = {"elo0": "0", "elo1": "50", "alpha": "0.05", "beta": "0.05",
          "model": "logistic", "max_pairs": "200", "openings": ""}


def plan(specs=("alphabeta:depth=2", "random"), seed=7, **fields):
    return read_plan(GAME, specs, **{**FIELDS, **fields}, seed=seed)


def position(record: str, plies: int | None = None):
    """The position after the first `plies` moves of `record` (all by default)."""
    state = GAME.start()
    for move in GAME.parse_line(state, record)[:plies]:
        state = state.play(move)
    return state


def inline(game, jobs, watch):
    """A pool that plays each game as it is sent, reporting no move."""
    return nullcontext(inline_pool())


@contextmanager
def thread_pool(game, jobs, watch=None):
    """A pool (a PoolFactory's) whose games are played one at a time in a thread of
    this process as a match worker plays them (with the pool's stop flag, reporting
    moves to its watch queue), with no process to spawn and warm up: for the tests
    that do not need processes."""
    stop = StopFlag()
    kept = tournament._worker_stop, tournament._worker_watch
    tournament._worker_stop, tournament._worker_watch = stop, watch
    try:
        with ThreadPoolExecutor(1) as executor:
            yield Pool(executor, 1, stop.set)
    finally:
        tournament._worker_stop, tournament._worker_watch = kept


@pytest.mark.parametrize("specs, fields, message", [
    (("alphabeta:depth=2", "random"), {"elo0": "5", "elo1": "5"}, "elo0 must be below elo1"),
    (("alphabeta:depth=2", "random"), {"elo1": "five"}, "elo1: 'five' is not a number"),
    (("alphabeta:depth=2", "random"), {"max_pairs": "0"},
     "max pairs: 0 is not a whole number from 1 to 1000000"),
    (("alphabeta:depth=2", "random"), {"max_pairs": "9" * 30},
     "max pairs: 999999999999999999999999999999 is not a whole number from 1 to 1000000"),
    (("alphabeta:depth=2", "random"), {"elo1": "inf"}, "elo1: inf is not a number from"),
    (("alphabeta:depth=2", "random"), {"alpha": "nan"}, "alpha: nan is not a number from"),
    (("nosuchagent", "random"), {}, "Agent A: "),
    (("random", "ttt-perfect"), {}, "Agent B: "),
    (("random", "greedy"), {"openings": "/no/such/suite.txt"}, "Openings: "),
])
def test_bad_fields_are_one_line_naming_the_field(specs, fields, message):
    with pytest.raises(PlygroundError) as error:
        plan(specs, **fields)
    assert message in str(error.value)


@pytest.mark.parametrize("specs, fields, name", [
    (("alphabeta:depth=2", "random"), {"elo0": "5", "elo1": "5"}, "elo0"),
    (("alphabeta:depth=2", "random"), {"elo0": "-9000"}, "elo0"),
    (("alphabeta:depth=2", "random"), {"beta": "0.5"}, "beta"),
    (("alphabeta:depth=2", "random"), {"alpha": "x"}, "alpha"),
    (("alphabeta:depth=2", "random"), {"max_pairs": "0"}, "max pairs"),
    (("random", "ttt-perfect"), {}, "B"),
    (("random", "greedy"), {"openings": "/no/such/suite.txt"}, "openings"),
])
def test_a_refusal_says_which_field_is_at_fault(specs, fields, name):
    """For the screen to put the cursor there."""
    with pytest.raises(FieldError) as error:
        plan(specs, **fields)
    assert error.value.name == name
    assert "\n" not in str(error.value)


def test_a_run_shows_what_run_sprt_computes_and_keeps_its_games():
    chosen = plan()
    expected = list(run_sprt(GAME, chosen.players, chosen.test, chosen.seed,
                             inline_pool(), chosen.max_pairs, chosen.opening))
    counted = [event.status for event in expected if isinstance(event, PairCounted)]
    ended = [event for event in expected if isinstance(event, GameEnded)]
    views = []
    driver = ArenaDriver(chosen, views.append, pool=inline)
    last = driver.run()
    assert last.status == counted[-1] and last.status.result == "H1"
    assert last.llrs == tuple(status.llr for status in counted)
    assert [row.number for row in last.finished] == [event.result.number
                                                     for event in ended]
    assert last.points == sum(kind * count for kind, count
                              in enumerate(counted[-1].counts)) / 2
    lines = figure_lines(last)
    assert f"LLR {counted[-1].llr:.2f}" in lines[0]
    assert f"in {counted[-1].pairs} pairs" in lines[1]
    assert result_line(last) == (f"{sprt_result_line(counted[-1])}, after "
                                 f"{counted[-1].pairs} pairs")  # the CLI's words
    assert result_line(last).startswith("H1 accepted: A is stronger (LLR ")
    assert not last.running and not any(view.stopped for view in views)
    final = ended[-1].result
    assert last.live == LiveGame(final.number, "AB"[final.first],
                                 position(final.record), under_way=False)
    assert live_line(last).startswith(f"game {final.number}, the last finished · ")
    with History() as history:
        record = history.get(last.finished[0].history_id)
    first = ended[0].result
    assert record.players[first.first] == "alphabeta:depth=2"
    assert record.headers["Run"] == f"{driver.run_id} {ended[0].job.key}"


def test_a_stopped_run_keeps_its_finished_games_and_says_so():
    chosen = plan(elo1="5", max_pairs="50")
    driver = ArenaDriver(chosen, lambda view: view.finished and driver.stop(),
                         pool=inline, keep=False)
    last = driver.run()
    assert last.stopped and not last.running and len(last.finished) == 1
    assert result_line(last).startswith("Stopped after 0 pairs (Esc)")


def test_the_board_shows_the_game_under_way_move_by_move():
    """Each move is shown (paint 0); the run is stopped once game 1 was seen in three
    positions."""
    specs = ("mcts:iterations=10000", "mcts:iterations=10000")
    chosen = plan(specs, elo1="5", max_pairs="2")
    game = match_game(GAME.spec, chosen.players, 1, chosen.seed)  # the same game, whole
    shown = []

    def changed(view):
        if view.live is not None and view.live.under_way:
            shown.append((view.live, live_line(view)))
        if len({live.state for live, _ in shown if live.number == 1}) >= 3:
            driver.stop()

    driver = ArenaDriver(chosen, changed, pool=thread_pool, keep=False, paint=0)
    last = driver.run()
    assert shown, "no game was shown under way"
    for live, line in shown:
        assert live.number == 1 and live.first == "A"
        assert live.state == position(game.record, live.state.ply)
        assert line == f"game 1 under way · A ({specs[0]}) moves first · ply {live.state.ply}"
    plies = [live.state.ply for live, _ in shown]
    assert plies == sorted(plies) and 0 < plies[0] and plies[-1] < game.plies
    assert last.stopped and last.live is None  # no game finished: nothing under way


def test_the_chart_puts_each_pair_on_its_row_between_the_bounds():
    rows = plot([0.0, 2.0, -2.0], -2.0, 2.0, width=20, height=5)
    gutter = len(rows[0]) - 13  # 13 columns of plot
    assert [row[gutter:gutter + 3] for row in rows] == [
        "╌•╌", " ││", "•┈│", "  │", "╌╌•"]
    crowded = plot([float(n) for n in range(100)], -2.0, 2.0, width=20, height=5)
    assert crowded[0].endswith(POINT)  # past the bound: the scale grows to the last pair


def test_the_histogram_s_longest_bar_fills_the_room():
    shown = bars((1, 0, 8, 4, 2), width=30)
    assert [len(bar) for _, bar, _ in shown] == [
        round(count * len(shown[2][1]) / 8) for count in (1, 0, 8, 4, 2)]
    assert max(len(label + bar + count) for label, bar, count in shown) == 30
    assert set(shown[2][1]) == {BAR}
