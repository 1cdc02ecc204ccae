"""The SPRT's games: pairs on openings with colours swapped, counted in round order,
stopping at the first pair whose LLR leaves the bounds; a resumed run (its finished
games given) stops at the same pair and plays none of them again."""
from __future__ import annotations

import multiprocessing
from concurrent.futures import Executor, Future

from plyground.core import get_game
from plyground.core.catalogue import parse_agent
from plyground.core.play.arena import GameEnded, PairCounted, run_sprt, sprt_jobs
from plyground.core.play.sprt import SPRT
from plyground.core.play.tournament import Pool, local_pool, match_game

GAME = get_game("connect4")
OPENINGS = ["44", "43", "3", "1"]


def players(a: str, b: str):
    return parse_agent(a), parse_agent(b)


class InlineExecutor(Executor):
    """Plays each game at once, in this process, in the order submitted."""

    def __init__(self) -> None:
        self.played: list[str] = []

    def submit(self, function, *arguments):
        future = Future()
        future.set_result(function(*arguments))
        self.played.append(arguments[1].key)
        return future


def inline_pool() -> Pool:
    return Pool(InlineExecutor(), 2, lambda: None)


def opening(round: int) -> str:
    return OPENINGS[round % len(OPENINGS)]


def test_a_pair_is_one_opening_played_twice_colours_swapped():
    jobs = sprt_jobs(players("greedy", "random"), seed=3, max_pairs=3, openings=opening)
    assert [(job.number, job.round, job.opening) for job in jobs] == [
        (1, 0, "44"), (2, 0, "44"), (3, 1, "43"), (4, 1, "43"), (5, 2, "3"), (6, 2, "3")]
    first, second = (match_game(GAME.spec, job.players, job.number, job.seed, job.opening)
                     for job in jobs[:2])
    assert (first.first, second.first) == (0, 1)
    assert first.record.replace(" ", "").startswith("44")
    assert second.record.replace(" ", "").startswith("44")


def test_the_test_stops_at_the_first_pair_past_a_bound_and_counts_pairs_in_order():
    test = SPRT(elo0=0, elo1=50)
    pool = inline_pool()
    events = list(run_sprt(GAME, players("alphabeta:depth=2", "random"), test, seed=5,
                           pool=pool, max_pairs=200, openings=opening))
    counted = [event for event in events if isinstance(event, PairCounted)]
    assert [event.pair.round for event in counted] == list(range(len(counted)))
    final = counted[-1].status
    assert final.result == "H1"
    assert all(event.status.result is None for event in counted[:-1])
    counts = [0] * 5
    for event in counted:  # each status is the test's on the pairs so far
        counts[event.pair.kind] += 1
        assert event.status.counts == tuple(counts)
        assert event.status.llr == test.status(counts).llr
    assert final.llr >= test.upper


def test_a_resumed_test_plays_only_the_missing_games_and_ends_the_same():
    agents = players("alphabeta:depth=2", "mcts:iterations=60")
    test = SPRT(elo0=-20, elo1=20)
    whole = list(run_sprt(GAME, agents, test, seed=8, pool=inline_pool(), max_pairs=12,
                          openings=opening))
    games = {event.job.key: event.result for event in whole if isinstance(event, GameEnded)}
    # an interrupted run kept pairs 0 and 2 and one game of pair 1
    kept = {key: games[key] for key in ("0:1", "0:2", "0:3", "0:5", "0:6")}
    pool = inline_pool()
    resumed = list(run_sprt(GAME, agents, test, seed=8, pool=pool, max_pairs=12,
                            openings=opening, done=kept))
    first_counted = [event for event in resumed if isinstance(event, PairCounted)]
    assert first_counted[0].pair.round == 0
    assert "0:1" not in pool.executor.played and "0:4" in pool.executor.played
    assert not set(kept) & set(pool.executor.played)
    statuses = [event.status.to_json() for event in whole if isinstance(event, PairCounted)]
    assert [event.status.to_json() for event in first_counted] == statuses
    # the pair after the gap waited for it: pairs are counted in order
    assert [event.pair.round for event in first_counted] == list(range(len(statuses)))


def test_worker_processes_play_the_same_test():
    agents = players("alphabeta:depth=2", "random")
    test = SPRT(elo0=0, elo1=50)
    here = [event.status.to_json() for event in run_sprt(
        GAME, agents, test, seed=5, pool=inline_pool(), max_pairs=200, openings=opening)
        if isinstance(event, PairCounted)]
    with local_pool(GAME, 2) as pool:
        there = [event.status.to_json() for event in run_sprt(
            GAME, agents, test, seed=5, pool=pool, max_pairs=200, openings=opening)
            if isinstance(event, PairCounted)]
    assert there == here
    assert multiprocessing.active_children() == []
