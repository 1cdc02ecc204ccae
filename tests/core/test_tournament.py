"""Agent against agent: one game, match games with alternating colours and derived
seeds, the tally, and matches in worker processes (to the end, and stopped by Ctrl-C)."""
from __future__ import annotations

import multiprocessing
import os
import signal
import threading

import pytest

from plyground.core import get_game
from plyground.core.catalogue import parse_agent
from plyground.core.search.control import SearchStopped, StopFlag
from plyground.core.play.tournament import (GameResult, Pool, Tally, match_game,
                                            match_jobs, play_game, local_pool, run_games,
                                            run_match, tally, watch_queue, turns)
from tests.core.test_arena import InlineExecutor

GAME = get_game("connect4")
SMALL = get_game("cephalopod", rows=3, cols=3)


def players(first: str, second: str):
    return parse_agent(first), parse_agent(second)


def test_each_side_is_played_by_its_agent_until_the_game_ends():
    agents = players("greedy", "random:seed=4")
    last = None
    for before, done, after in turns(SMALL.start(), agents):
        assert done.best_move == agents[before.to_move].choose(before)
        assert after == before.play(done.best_move)
        last = after
    assert last is not None and last.outcome() is not None


def test_play_game_gives_the_final_position_the_moves_from_the_start_and_the_outcome():
    start = GAME.parse_position("4453")
    played = play_game(start, players("random:seed=1", "random:seed=2"))
    assert played.outcome == played.final.outcome() is not None
    assert played.fault is None
    moves = [GAME.format_move(move) for move in played.moves]
    assert GAME.play_moves(start, moves) == played.final


def test_a_set_stop_flag_ends_the_game_instead_of_playing_a_cut_short_move():
    stop = StopFlag()
    stop.set()
    with pytest.raises(SearchStopped):
        play_game(GAME.start(), players("greedy", "greedy"), stop)


def test_colours_alternate_and_the_winner_is_a_player_not_a_colour():
    for number in range(1, 5):
        result = match_game(GAME.spec, players("random", "greedy"), number, seed=9)
        assert result.number == number and result.first == (number - 1) % 2
        final = GAME.play_moves(GAME.start(), list(result.record))
        assert result.plies == final.ply == len(result.record)
        side = final.outcome().winner
        assert result.winner == (None if side is None else side ^ result.first)
        assert result.reason == final.outcome().reason and result.fault is None


def test_every_game_gets_its_own_seeds_unless_the_spec_gives_one():
    def records(first, second, seed=5):
        return [match_game(GAME.spec, players(first, second), number, seed).record
                for number in range(1, 5)]

    free = records("random", "random")
    assert free[0] != free[2] and free[1] != free[3]  # same colours, new seeds
    assert records("random", "random") == free  # but the same match seed, same games
    assert records("random", "random", seed=6) != free
    fixed = records("random:seed=0", "random:seed=1")
    assert fixed[0] == fixed[2] and fixed[1] == fixed[3]


def test_tally_counts_wins_draws_losses_and_who_moved_first():
    results = [GameResult(1, 0, 0, "", "", 0), GameResult(2, 1, 0, "", "", 0),
               GameResult(3, 0, None, "", "", 0), GameResult(4, 1, 1, "", "", 0)]
    first, second = tally(results)
    assert first == Tally(wins=2, draws=1, losses=1, wins_first=1, wins_second=1)
    assert second == Tally(wins=1, draws=1, losses=2, wins_first=1, wins_second=0)
    assert (first.games, first.points, first.score) == (4, 2.5, 62.5)
    assert Tally().score is None


def test_worker_processes_play_exactly_the_games_match_game_plays():
    agents = players("random", "greedy")
    with local_pool(GAME, 2) as pool:
        results = list(run_match(GAME, agents, games=4, seed=11, pool=pool))
    assert sorted(results, key=lambda result: result.number) == [
        match_game(GAME.spec, agents, number, 11) for number in range(1, 5)]
    assert multiprocessing.active_children() == []


def test_ctrl_c_stops_the_games_under_way_and_the_workers():
    """The searches have all the time in the world: only the stop flag ends them (if
    it did not, this test would never end)."""
    agents = players("mcts:time=86400", "mcts:time=86400")  # a day: the most
    ctrl_c = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    finished = []
    ctrl_c.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            with local_pool(GAME, 2) as pool:
                finished.extend(run_match(GAME, agents, games=4, seed=1, pool=pool))
    finally:
        ctrl_c.cancel()
    assert finished == []
    assert multiprocessing.active_children() == []


def test_watched_workers_report_every_move_of_every_game_in_order():
    agents = players("random", "greedy")
    watch = watch_queue(room=10_000)  # room for every move: none is dropped
    reports = []
    reader = threading.Thread(target=lambda: reports.extend(iter(watch.get, None)))
    reader.start()
    try:
        with local_pool(GAME, 2, watch) as pool:
            results = list(run_match(GAME, agents, games=4, seed=3, pool=pool))
    finally:
        watch.put(None)  # after every worker's moves
        reader.join(timeout=60)
    for result in results:
        records = [record for match, number, record in reports
                   if (match, number) == (0, result.number)]
        moves = GAME.parse_line(GAME.start(), result.record)
        assert records == [GAME.format_record(GAME.start(), moves[:ply])
                           for ply in range(1, result.plies + 1)]
        assert records[-1] == result.record


def test_games_that_end_together_come_in_the_order_of_their_numbers():
    jobs = match_jobs(players("random", "random"), games=12, seed=2)
    pool = Pool(InlineExecutor(), 12, lambda: None)  # all twelve end before any is read
    assert [job.number for job, _ in run_games(GAME, jobs, pool)] == list(range(1, 13))
