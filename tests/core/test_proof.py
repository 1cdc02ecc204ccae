"""The inspector says when a search has proven a position lost, won or drawn."""
from __future__ import annotations

from plyground.core import get_game
from plyground.core.catalogue import make_agent
from plyground.core.values import WIN, is_decisive, proven
from tests.core.positions import quarto_endgames

QUARTO = get_game("quarto")


def test_solved_quarto_endgames_are_marked_proven():
    found = {}
    for state in quarto_endgames(21, QUARTO, 6, 30):
        done = make_agent("alphabeta", depth=17).decide(state)
        found.setdefault(proven(QUARTO, state, done.value, done.depth), done)
    assert {"proven lost", "proven won", "proven draw"} <= set(found)
    assert found["proven draw"].value == 0
    assert found["proven lost"].value < 0 and is_decisive(found["proven lost"].value)


def test_a_shallow_search_proves_nothing():
    state = quarto_endgames(22, QUARTO, 12, 1)[0]
    done = make_agent("alphabeta", depth=2).decide(state)
    assert not is_decisive(done.value)
    assert proven(QUARTO, state, done.value, done.depth) == ""


def test_values_say_on_which_move_the_game_ends():
    from plyground.core.values import Score

    ply = 10
    assert str(Score(WIN - (ply + 1), ply)) == "win in 1"  # my next move wins
    assert str(Score(WIN - (ply + 3), ply)) == "win in 2"
    assert str(Score(-(WIN - (ply + 2)), ply)) == "loss in 1"  # the reply wins
    # misère: my own next move makes the four that loses
    assert str(Score(-(WIN - (ply + 1)), ply)) == "loss in 1"
    # a position the game ended in (the search's terminal value), never "in 0"
    from plyground.core.values import terminal_value
    state = get_game("connect4").parse_position("121212").play(0)  # X wins
    value = terminal_value(state.outcome(), state.ply, state.to_move)
    assert str(Score(value, state.ply)) == "lost"
    assert str(Score(-value, state.ply)) == "won"
    assert str(Score(35, ply)) == "+35" and str(Score(0.5, ply, "mean")) == \
        "50.0% mean result"


def test_a_score_says_its_bound_and_keeps_its_stored_words():
    from plyground.core.values import Bound, Scale, Score

    ply = 10
    assert str(Score(11, ply, bound=Bound.UPPER)) == "≤ +11"
    assert str(Score(WIN - (ply + 5), ply, bound=Bound.LOWER)) == "≥ win in 3"
    assert str(Score(0.25, ply, Scale.MEAN, Bound.ESTIMATE)) == "25.0% mean result"
    assert str(Score(-0.5, ply)) == "-0.500"
    # a mean never reads as a win, whatever its number
    assert not Score(WIN, ply, Scale.MEAN).decisive
    assert Score(-(WIN - (ply + 4)), ply).moves_to_end == 2
    # records and JSON reports store the words, not the enum's name
    assert f"{Scale.MEAN} {Bound.LOWER}" == "mean lower"
