"""Connect 4 rules and notation, against published tables and brute force."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from plyground.core import IllegalMove, NotationError, get_game
from plyground.core.games.connect4 import BOARD, Connect4State
from plyground.core.study.perft import distinct_positions, perft
from tests.reference import read_scored_positions, read_table

GAME = get_game("connect4")


def test_perft_matches_published_counts_to_8_plies():
    expected = read_table("connect4/perft.txt")
    assert perft(GAME, 8) == [expected[n] for n in range(9)]


def test_distinct_positions_match_oeis_to_8_plies():
    expected = read_table("connect4/positions_per_ply.txt")
    assert distinct_positions(GAME, 8) == [expected[n] for n in range(9)]


def naive_has_four(state: Connect4State, side: int) -> bool:
    """Four in a row found by looking at every cell and direction, without bitboards."""
    for c in range(7):
        for r in range(6):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + i * dc, r + i * dr) for i in range(4)]
                if all(0 <= x < 7 and 0 <= y < 6 and state.cell(x, y) == side
                       for x, y in cells):
                    return True
    return False


random_games = st.lists(st.integers(0, 6), max_size=60)


def play_legal(columns: list[int]) -> list[Connect4State]:
    """The states of a game following `columns`, skipping full columns, until it ends."""
    state = GAME.start()
    states = [state]
    for column in columns:
        if state.outcome() is not None:
            break
        if column in state.moves():
            state = state.play(column)
            states.append(state)
    return states


@given(random_games)
def test_random_games_keep_the_invariants(columns):
    states = play_legal(columns)
    for before, after in zip(states, states[1:]):
        assert after.ply == before.ply + 1
        assert after.to_move == 1 - before.to_move
    for state in states:
        x, o = state.pieces
        assert x & o == 0
        assert x.bit_count() - o.bit_count() == state.ply % 2
        assert (x | o).bit_count() == state.ply
        assert (state.outcome() is None) == bool(state.moves())
        # only the side that just moved can have four, and bitboards agree with brute force
        for side in (0, 1):
            assert BOARD.has_four(state.pieces[side]) == naive_has_four(state, side)
        outcome = state.outcome()
        if outcome is not None and outcome.winner is not None:
            assert outcome.winner == 1 - state.to_move
        if outcome is not None and outcome.winner is None:
            assert state.ply == 42


@given(random_games)
def test_notation_round_trips_and_keys_identify_positions(columns):
    states = play_legal(columns)
    for state in states:
        if state.winner() is None:
            again = GAME.parse_position(GAME.format_position(state))
            assert again == state and hash(again) == hash(state)
            assert again.key() == state.key()
    assert len({s.key() for s in states}) == len(set(states))


@given(random_games)
def test_winning_moves_are_exactly_the_columns_that_win(columns):
    for state in play_legal(columns):
        if state.outcome() is None:
            brute = [c for c in state.moves() if state.play(c).winner() is not None]
            assert state.winning_moves() == brute


@given(st.randoms(use_true_random=False))
def test_every_random_game_ends_by_ply_42(rng):
    state = GAME.start()
    while state.outcome() is None:
        state = state.play(rng.choice(state.moves()))
    assert state.ply <= 42
    assert (state.outcome().winner is None) == (state.winner() is None)


def test_full_column_is_refused_with_the_column_named():
    state = GAME.parse_position("444444")
    with pytest.raises(IllegalMove, match="column 4 is full"):
        state.play(3)
    with pytest.raises(IllegalMove, match="column 4 is full"):
        GAME.parse_move("4", state)
    assert 3 not in state.moves()


def test_moves_after_the_end_are_refused():
    won = GAME.start()
    for column in (0, 1, 0, 1, 0, 1, 0):
        won = won.play(column)
    assert won.outcome().winner == 0
    assert won.moves() == []
    with pytest.raises(IllegalMove, match="game is over"):
        won.play(4)


@pytest.mark.parametrize(
    "text, message",
    [
        ("4470", r"move 4 is '0'"),
        ("44a", r"move 3 is 'a'"),
        ("1111111", r"move 7 plays column 1, which is full"),
        ("1212121", r"move 7 \(column 1\) completes a four for X"),
        ("2233445", r"move 7 \(column 5\) completes a four for X"),
    ],
)
def test_bad_positions_name_the_first_bad_move(text, message):
    with pytest.raises(NotationError, match=message):
        GAME.parse_position(text)


def test_position_notation_reads_the_empty_and_whitespace_padded_forms():
    assert GAME.parse_position("") == GAME.start()
    assert GAME.parse_position(" 4453\n") == GAME.parse_position("4453")
    assert GAME.format_position(GAME.parse_position("4453")) == "4453"


@pytest.mark.parametrize("text", ["0", "8", "44", "x", ""])
def test_bad_move_text_is_a_notation_error(text):
    with pytest.raises(NotationError):
        GAME.parse_move(text, GAME.start())


@pytest.mark.parametrize("set_name", ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1"])
def test_every_benchmark_position_is_a_legal_running_game(set_name):
    for moves, score in read_scored_positions(f"connect4/{set_name}"):
        state = GAME.parse_position(moves)
        assert state.outcome() is None
        assert -18 <= score <= 18
