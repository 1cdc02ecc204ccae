"""Quarto rules and notation, against the published counts and the game's symmetries."""
from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from plyground.core import IllegalMove, NotationError, get_game
from plyground.core.games.quarto import parse_piece, piece_name, shares_attribute
from tests.core.positions import play_randomly

GAME = get_game("quarto")
SQUARES_VARIANT = get_game("quarto", squares=True)


def test_four_piece_sets_split_1284_to_536():
    sets = list(combinations(range(16), 4))
    sharing = sum(shares_attribute(s) for s in sets)
    assert (len(sets), len(sets) - sharing, sharing) == (1820, 1284, 536)


def test_the_symmetry_groups_have_the_published_sizes():
    assert len(GAME.square_symmetries) == 32
    assert len(SQUARES_VARIANT.square_symmetries) == 8
    maps = GAME.piece_symmetries()
    assert len(set(maps)) == 384 and all(sorted(m) == list(range(16)) for m in maps)
    assert len(GAME.square_symmetries) * len(maps) == 12288


random_games = st.randoms(use_true_random=False)


@given(random_games, st.integers(0, 17))
def test_symmetric_positions_have_the_same_outcome_and_moves(rng, plies):
    state = play_randomly(rng, GAME, plies)
    maps = GAME.piece_symmetries()
    for _ in range(5):
        squares = rng.choice(GAME.square_symmetries)
        pieces = rng.choice(maps)
        image = state.image(squares, pieces)
        assert (image.outcome() is None) == (state.outcome() is None)
        if state.outcome() is not None:
            assert image.outcome().winner == state.outcome().winner
        assert len(image.moves()) == len(state.moves())
        assert GAME.evaluate(image) == GAME.evaluate(state)


@given(random_games)
def test_random_games_keep_the_pieces_straight(rng):
    state = GAME.start()
    while state.outcome() is None:
        move = rng.choice(state.moves())
        after = state.play(move)
        assert after.ply == state.ply + 1 and after.to_move == 1 - state.to_move
        placed = [p for p in after.board if p >= 0]
        in_play = placed + [after.hand] * (after.hand is not None) + after.pool()
        assert sorted(in_play) == list(range(16))
        if move.give is None and move.square is not None:  # the game ends with it
            assert after.outcome() is not None
        state = after
    outcome = state.outcome()
    if outcome.winner is None:
        assert state.placed == 16 and not state.winning_lines()
    else:
        assert state.winning_lines()


@given(random_games, st.integers(0, 17))
def test_notation_round_trips(rng, plies):
    state = play_randomly(rng, GAME, plies)
    for move in state.moves()[:40]:
        assert GAME.parse_move(GAME.format_move(move), state) == move
    again = GAME.parse_position(GAME.format_position(state))
    assert again == state and again.key() == state.key()


def test_pieces_read_as_numbers_hex_or_attribute_letters():
    assert [parse_piece(t) for t in ("0", "15", "a", "TDSH", "tdsh", "TdSh")] == \
        [0, 15, 10, 15, 0, 0b1010]
    assert all(parse_piece(piece_name(p)) == p for p in range(16))
    with pytest.raises(NotationError, match="not a piece"):
        parse_piece("XYZW")


def test_the_first_move_only_gives_and_a_winning_placement_gives_nothing():
    start = GAME.start()
    assert {m.square for m in start.moves()} == {None} and len(start.moves()) == 16
    # a row of three tall pieces (8, 9, 10) and a tall piece (11) in hand: a4..c4 + d4
    state = GAME.parse_position("89a./..../..../.... b")
    win = GAME.parse_move("d4:", state)
    assert state.play(win).outcome().winner == state.to_move
    with pytest.raises(IllegalMove, match="ends the game"):
        GAME.parse_move("d4:3", state)
    with pytest.raises(IllegalMove, match="give the opponent a piece"):
        GAME.parse_move("d3:", state)


@pytest.mark.parametrize(
    "text, message",
    [
        ("..../..../..../....", "the piece in hand"),
        ("..../..../..../... 5", "four rows of four"),
        ("..x./..../..../.... 5", "'x' is not"),
        ("5.../..../..../.... 5", "appears twice"),
        ("5.../..../..../.... -", "only the start"),
        ("89ab/..../..../.... 5", "the game is over"),
    ],
)
def test_bad_positions_say_what_is_wrong(text, message):
    with pytest.raises(NotationError, match=message):
        GAME.parse_position(text)


def test_the_two_by_two_variant_wins_with_a_block():
    # pieces 0, 1, 4 and 5 in hand (all short and round) fill the top-left block at b3
    text = "01../4.../..../.... 5"
    standard, variant = GAME.parse_position(text), SQUARES_VARIANT.parse_position(text)
    with pytest.raises(IllegalMove, match="give the opponent a piece"):
        GAME.parse_move("b3:", standard)
    assert standard.play(GAME.parse_move("b3:2", standard)).outcome() is None
    outcome = variant.play(SQUARES_VARIANT.parse_move("b3:", variant)).outcome()
    assert outcome is not None and outcome.winner == variant.to_move == 0


@pytest.mark.parametrize("kind", ["random", "greedy", "minimax", "alphabeta", "mcts"])
@pytest.mark.parametrize("position", ["..../..../..../.... -", "0f3c/5a69/..../.... 1"])
def test_every_agent_plays_quarto(kind, position):
    from plyground.core.catalogue import make_agent

    settings = {"minimax": {"depth": 1}, "alphabeta": {"depth": 2},
                "mcts": {"iterations": 300}}.get(kind, {})
    state = GAME.parse_position(position)
    move = make_agent(kind, **settings).choose(state)
    assert move in state.moves()
