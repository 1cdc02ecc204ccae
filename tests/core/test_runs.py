"""Runs in the game history (core/records/runs.py): a run's parameters back as stored,
each game kept once under its key with its record, its results back as they went in,
and the version-3 migration of an older history."""
from __future__ import annotations

import pytest

from plyground.core import PlygroundError, get_game
from plyground.core.game import Termination
from plyground.core.play.tournament import GameResult
from plyground.core.records.history import MIGRATIONS, VERSION, History, played_record
from plyground.core.records.runs import (add_run_game, finish_run, load_run,
                                         result_from_json, result_json, run_results,
                                         start_run)

C4 = get_game("connect4")
PARAMS = {"first": "random", "second": "greedy:seed=2", "games": 4, "seed": 7,
          "openings": None}


def result(number: int, moves: str = "1212121", winner: int | None = 0,
           termination: Termination = Termination.LINE) -> GameResult:
    return GameResult(number, (number - 1) % 2, winner, "X connects four", moves,
                      len(moves), None, termination, "12" if number > 2 else "")


def record_of(game: GameResult):
    start = C4.start()
    moves = C4.parse_line(start, game.record)
    return played_record(C4, start, moves, C4.play_moves(start, list(game.record)).outcome(),
                         ("random", "greedy"), headers={"Run": f"1 0:{game.number}"})


@pytest.fixture
def history(tmp_path) -> History:
    with History(tmp_path / "history.sqlite3") as history:
        yield history


def test_a_result_comes_back_from_json_as_it_went_in():
    for game in (result(1), result(3, "4", None, Termination.FORFEIT),
                 GameResult(2, 1, 1, "O forfeits: it crashed", "44", 2, "it crashed")):
        back = result_from_json(result_json(game))
        assert back == game and type(back.termination) is Termination


def test_a_run_keeps_its_parameters_and_its_games_once(history):
    run = start_run(history, "match", "connect4", PARAMS, "plyground match connect4 ...")
    loaded = load_run(history, run, "match")
    assert (loaded.kind, loaded.game, loaded.params, loaded.state) == (
        "match", "connect4", PARAMS, "running")
    assert loaded.command == "plyground match connect4 ..."
    games = [result(1), result(2, winner=None), result(3)]
    ids = [add_run_game(history, run, f"0:{game.number}", game, record_of(game), "match")
           for game in games]
    again = result(2, "4444")  # the same key again, another game: refused, not stored
    assert add_run_game(history, run, "0:2", again, record_of(again), "match") is None
    assert sorted(summary.id for summary in history.list()) == ids
    assert run_results(history, run) == {f"0:{game.number}": game for game in games}
    stored = [history.get(summary.id) for summary in history.list()]
    assert sorted(record.headers["Run"] for record in stored) == ["1 0:1", "1 0:2", "1 0:3"]
    other = start_run(history, "match", "connect4", PARAMS, "...")
    assert run_results(history, other) == {}
    finish_run(history, run, "interrupted")
    assert load_run(history, run, "match").state == "interrupted"


def test_an_unknown_run_or_one_of_another_kind_is_one_clear_line(history):
    run = start_run(history, "tournament", "connect4", {}, "...")
    with pytest.raises(PlygroundError, match=f"no run {run + 1} in the game history"):
        load_run(history, run + 1, "match")
    with pytest.raises(PlygroundError) as refused:
        load_run(history, run, "match")
    assert str(refused.value) == (f"run {run} is a tournament, not a match: resume it "
                                  f"with plyground tournament --resume {run}")


def test_a_version_2_history_gains_the_runs_with_its_games_kept(tmp_path):
    path = tmp_path / "history.sqlite3"
    with History(path, migrations=MIGRATIONS[:2]) as old:
        assert old.version() == 2
        tables = {row[0] for row in old.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "runs" not in tables
        kept = old.add(record_of(result(1)), "match")
    assert VERSION == 3
    with History(path) as history:
        assert history.version() == 3
        assert [summary.id for summary in history.list()] == [kept]
        run = start_run(history, "match", "connect4", PARAMS, "...")
        assert add_run_game(history, run, "0:1", result(1), record_of(result(1)), "match")
        assert list(run_results(history, run)) == ["0:1"]
