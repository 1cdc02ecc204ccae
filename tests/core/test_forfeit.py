"""An agent from outside plyground that fails forfeits: its game ends, the other side
wins, the reason is kept. In matches (and demos) it decides in a child process of its
own, so a bot that dies or hangs loses its game and takes nothing else down.

The bots are in tests/plugins/bots/."""
from __future__ import annotations

import multiprocessing
import os
import re
import threading
import time
from pathlib import Path

import pytest

from plyground.core import Outcome, Termination, get_game
from plyground.core.catalogue import parse_agent
from plyground.core.play.isolation import Isolation
from plyground.core.search.control import SearchControl, SearchStopped, StopFlag
from plyground.core.play.tournament import match_game, play_game, tally

GAME = get_game("connect4")
BOTS = Path(__file__).resolve().parents[1] / "plugins" / "bots"


def bot(spec: str):
    """A bot of tests/plugins/bots by its spec there, e.g. `good.py:Bot:time=0.1`."""
    return parse_agent(f"{BOTS}/{spec}")


@pytest.mark.parametrize("spec, fault", [
    ("crashes.py:Bot",
     "Crashes (1s) raised ZeroDivisionError: division by zero (at crashes.py:9)"),
    ("illegal.py:Bot", "Illegal (1s) chose 99, which is not a legal move here"),
])
def test_a_failing_agent_forfeits_and_the_other_side_wins(spec, fault):
    start = GAME.parse_position("44")  # X to move: the bot
    played = play_game(start, [bot(spec), parse_agent("greedy")])
    assert played.final == start and played.moves == []
    assert played.outcome.winner == 1
    assert played.outcome.reason == f"X forfeits: {fault}"
    assert played.fault == fault


def test_the_side_that_fails_forfeits_even_after_moves():
    played = play_game(GAME.start(), [parse_agent("greedy"), bot("crashes.py:Bot")])
    assert len(played.moves) == 1 and played.final.to_move == 1
    assert played.outcome.winner == 0
    assert played.outcome.reason.startswith("O forfeits: Crashes (1s) raised")


def test_a_game_played_out_keeps_the_rules_reason():
    played = play_game(GAME.start(), [bot("good.py:Bot"), parse_agent("greedy")])
    assert played.fault is None
    assert played.outcome == played.final.outcome()
    assert played.outcome.reason.endswith("connects four")


def test_an_outcome_says_a_forfeit_from_a_game_played_out_without_its_words():
    played = play_game(GAME.start(), [bot("good.py:Bot"), parse_agent("greedy")])
    assert played.outcome.termination == Termination.LINE
    players = (parse_agent("random"), bot("crashes.py:Bot"))
    result = match_game(GAME.spec, players, 1, seed=1)  # random moves first, as X
    assert result.termination == Termination.FORFEIT
    assert result.outcome == Outcome(0, Termination.FORFEIT, result.reason)


def test_a_forfeit_is_a_loss_of_the_faulty_player_with_its_reason():
    players = (parse_agent("random"), bot("crashes.py:Bot"))
    results = [match_game(GAME.spec, players, number, seed=1) for number in (1, 2)]
    assert [result.winner for result in results] == [0, 0]
    assert [result.plies for result in results] == [1, 0]  # player 1 moved 2nd, 1st
    assert [result.reason[:12] for result in results] == ["O forfeits: ", "X forfeits: "]
    assert {result.fault for result in results} == {
        "Crashes (1s) raised ZeroDivisionError: division by zero (at crashes.py:9)"}
    random, crashes = tally(results)
    assert (random.wins, crashes.losses) == (2, 2)


@pytest.mark.parametrize("spec, plies, fault", [
    ("dies.py:Bot", 4, "Dies (1s) died (exit code 3)"),  # at its third move, as X
    ("segfaults.py:Bot", 0, "Segfaults (1s) died (killed by SIGSEGV)"),
])
def test_a_bot_whose_process_dies_forfeits_and_the_game_goes_on_here(spec, plies, fault):
    result = match_game(GAME.spec, (bot(spec), parse_agent("greedy")), 1, seed=1)
    assert result.winner == 1 and result.plies == plies
    assert result.reason == f"X forfeits: {fault}" and result.fault == fault
    assert multiprocessing.active_children() == []  # its process ended with the game


def test_a_bot_far_past_its_time_forfeits_saying_how_long_it_took():
    players = (bot("slow.py:Bot:time=0.05"), parse_agent("greedy"))
    result = match_game(GAME.spec, players, 1, seed=1)
    # it sleeps 1.6 s, is forfeited once it answers, and is killed at 3.075 s: a busy
    # machine may wake it late, never early
    assert re.fullmatch(r"Slow \(0\.05s\) took (1\.[6-9]|2\.\d|3\.0) s of a 0\.05 s budget",
                        result.fault)
    assert result.winner == 1 and result.plies == 0
    assert multiprocessing.active_children() == []


def test_a_bot_that_never_answers_is_stopped_at_its_deadline():
    players = (bot("hangs.py:Bot:time=0.05"), parse_agent("greedy"))
    started = time.monotonic()
    result = match_game(GAME.spec, players, 1, seed=1)
    limit = 0.05 * 1.5 + 1 + 2  # the grace of checked_search, then 2 s to say so
    assert result.fault == f"Hangs (0.05s) did not answer within {limit:g} s"
    assert result.winner == 1 and result.plies == 0
    assert time.monotonic() - started < limit + 5  # not the 600 s it sleeps
    assert multiprocessing.active_children() == []


def test_an_external_agent_decides_in_a_process_of_its_own_kept_between_decisions():
    with Isolation() as isolation:
        agent = isolation.isolate(bot("good.py:Bot"), "good", GAME.spec)
        assert isolation.isolate(parse_agent("greedy"), "greedy", GAME.spec).kind == "greedy"
        agent.prepare()
        first = agent.decide(GAME.start())
        second = agent.decide(GAME.parse_position("4"))
        assert (first.best_move, second.best_move) == (3, 3)
        assert first.note == second.note != f"pid {os.getpid()}"  # the bot says its pid
        assert len(multiprocessing.active_children()) == 1
    assert multiprocessing.active_children() == []


def test_stopping_the_game_stops_a_bot_deciding_in_its_process_at_once():
    stop = StopFlag()
    with Isolation() as isolation:
        agent = isolation.isolate(bot("slow.py:Bot:time=30"), "slow", GAME.spec)
        agent.prepare()
        threading.Timer(0.3, stop.set).start()
        started = time.monotonic()
        with pytest.raises(SearchStopped):
            agent.decide(GAME.start(), control=SearchControl(agent.budget(), stop))
        assert time.monotonic() - started < 15  # not its 30 s: stopped at once
        assert multiprocessing.active_children() == []  # it was killed

