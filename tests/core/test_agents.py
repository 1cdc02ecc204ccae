"""The agent catalogue: specs in and out, errors for bad names and settings."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from plyground.core.agents.base import Shows
from plyground.core.agents.kinds import GreedyAgent, MctsAgent
from plyground.core.catalogue import AGENT_KINDS, make_agent, parse_agent
from plyground.core.search.control import Budget
from plyground.core.study.lesson import within_ceiling
from plyground.core import BadSetting, IllegalMove, UnknownName, game_entries, get_game

GAME = get_game("connect4")
ROOT = Path(__file__).resolve().parents[2]
# the settings an agent kind cannot do without (an engine needs its command)
NEEDED = {"engine": {"cmd": f"{sys.executable} {ROOT / 'examples' / 'reference_engine.py'}",
                     "time": 0.05}}


@pytest.mark.parametrize(
    "text, kind, settings",
    [
        ("random", "random", {"seed": 0}),
        ("mcts:iterations=5000,seed=1", "mcts", {"iterations": 5000, "seed": 1}),
        ("alphabeta:time=0.5", "alphabeta", {"time": 0.5}),
        (" minimax:depth = 4 ", "minimax", {"depth": 4}),
    ],
)
def test_specs_parse_to_agents_with_those_settings(text, kind, settings):
    agent = parse_agent(text)
    assert agent.kind == kind
    for name, value in settings.items():
        assert agent.settings[name] == value


@pytest.mark.parametrize("kind", list(AGENT_KINDS))
def test_every_agent_round_trips_through_its_spec(kind):
    agent = make_agent(kind, **NEEDED.get(kind, {}))
    assert parse_agent(agent.spec).settings == agent.settings
    assert parse_agent("mcts:iterations=300,seed=4").spec == "mcts:iterations=300,seed=4"


@pytest.mark.parametrize(
    "text, error, message",
    [
        ("wizard", UnknownName, "unknown agent 'wizard'"),
        ("mcts:speed=3", BadSetting, "unknown setting 'speed'"),
        ("mcts:iterations=lots", BadSetting, "iterations='lots' is not a whole number"),
        ("alphabeta:time=-1", BadSetting, "time must be at least"),
        ("minimax:depth", BadSetting, "needs a value"),
    ],
)
def test_bad_specs_say_what_is_wrong(text, error, message):
    with pytest.raises(error, match=message):
        parse_agent(text)


def test_an_agent_refuses_a_finished_game():
    won = GAME.parse_position("121212")
    won = won.play(0)
    with pytest.raises(IllegalMove, match="game is over"):
        make_agent("greedy").choose(won)


def test_unknown_games_are_named():
    with pytest.raises(UnknownName, match="unknown game 'chess'"):
        get_game("chess")
    with pytest.raises(UnknownName, match="connect4 has no option 'rows'"):
        get_game("connect4", rows=3)


def test_defaults_fill_only_the_settings_not_given():
    assert parse_agent("mcts:iterations=300").with_defaults(seed=7).settings == \
        {**make_agent("mcts", iterations=300, seed=7).settings}
    assert parse_agent("mcts:seed=2").with_defaults(seed=7).settings["seed"] == 2
    assert parse_agent("minimax:depth=2").with_defaults(seed=7).spec == "minimax:depth=2"


def test_game_records_replay_from_the_empty_board():
    start = GAME.parse_position("44")
    assert GAME.format_record(start, [4, 2]) == "4453"
    assert GAME.format_record(GAME.start(), []) == ""


@pytest.mark.parametrize("kind", list(AGENT_KINDS))
def test_every_agent_reports_its_decision_to_the_observer(kind):
    from plyground.core.search.events import Recorder, SearchDone

    recorder = Recorder()
    settings = {"iterations": 50} if kind == "mcts" else {"depth": 2} \
        if kind in ("minimax", "alphabeta", "seed") else {}
    # Connect 4, else the first game the agent plays (BOOM for the seed engine, an
    # installed game for a plugin's agent, whichever tests loaded plugins first)
    game = next(get_game(entry.id) for entry in game_entries()
                if AGENT_KINDS[kind].plays(get_game(entry.id)))
    state = game.parse_position("4453") if game.id in ("connect4", "boom") else \
        game.start()
    done = make_agent(kind, **settings, **NEEDED.get(kind, {})).decide(
        state, observer=recorder)
    assert recorder.events[-1] == done and isinstance(done, SearchDone)


def test_an_agent_from_outside_may_say_how_it_shows_in_plain_words():
    """`shows` is a Shows, but a plugin that writes it as a plain word is read the
    same: the step mode's unit, whether there is a search to replay."""
    class Counted(MctsAgent):
        shows = "visits"

    class Still(GreedyAgent):
        shows = "none"

    assert Counted.shows == Shows.VISITS
    assert within_ceiling(Counted(), Budget())[1] == "iterations"
    assert Still().replay_plan(Still().decide(GAME.start())) is None
