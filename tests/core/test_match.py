"""A game in progress: turns and undo back to a human's turn."""
from __future__ import annotations

import pytest

from plyground.core import BadSetting, IllegalMove, get_game
from plyground.core.play.match import Match

GAME = get_game("connect4")


def played(sides, columns):
    match = Match(GAME, sides)
    for column in columns:
        match.play(column)
    return match


def test_undo_goes_back_to_the_humans_previous_turn():
    match = played(("human", "greedy"), [3, 3, 4])  # human X, agent O; O to move
    assert match.undo() == 1 and match.moves == [3, 3]  # X's move taken back, X to move
    assert match.undo() == 2 and match.moves == []
    assert match.undo() == 0


def test_undo_never_takes_back_an_agents_opening_move_alone():
    match = played(("greedy", "human"), [3])  # agent X opened; human O to move
    assert match.undo() == 0 and match.moves == [3]
    match.play(2)
    match.play(4)
    assert match.undo() == 2 and match.moves == [3]


def test_undo_takes_back_one_move_between_humans_and_between_agents():
    for sides in (("human", "human"), ("greedy", "random")):
        match = played(sides, [3, 3, 4])
        assert match.undo() == 1 and match.moves == [3, 3]
        assert match.state == GAME.parse_position("44")


def test_an_illegal_move_changes_nothing():
    match = played(("human", "human"), [3] * 6)
    with pytest.raises(IllegalMove, match="column 4 is full"):
        match.play(3)
    assert len(match.moves) == 6 and match.state.ply == 6


def test_whose_turn_it_is():
    match = Match(GAME, ("human", "mcts:iterations=10"))
    assert match.agent_to_move() is None and match.is_human(0) and not match.watching
    match.play(0)
    assert match.agent_to_move().kind == "mcts"
    with pytest.raises(BadSetting):
        Match(GAME, ("human", "mcts:depth=3"))
