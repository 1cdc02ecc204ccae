"""Desconecta-4 BOOM rules and notation: hand-built positions reasoned from the rules
(rules/boom.md), and random games checked against a plain list-of-columns model.

Boards in comments are drawn from the top row down, `G`/`B` a piece, `*` a bomb.
Rows and columns are counted from 1, columns from the left, rows from the bottom.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground.core import IllegalMove, NotationError, get_game
from plyground.core.games.boom import BOMB_BONUS, BOOM, MAX_PLIES, BoomState, run_cost
from plyground.core.values import WIN

GAME = get_game("boom")
GREEN, BLUE = 0, 1


def board_rows(state: BoomState) -> list[str]:
    """The board as in the comments: the top row first, `.` for an empty cell."""
    rows = []
    for row in reversed(range(7)):
        cells = []
        for column in range(7):
            side = state.cell(column, row)
            mark = "." if side is None else "GB"[side]
            cells.append(mark + ("*" if state.is_bomb(column, row) else ""))
        rows.append(" ".join(cells))
    return rows


def naive_has_four(state: BoomState, side: int) -> bool:
    """Four in a row found cell by cell, without bitboards."""
    for c in range(7):
        for r in range(7):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + i * dc, r + i * dr) for i in range(4)]
                if all(0 <= x < 7 and 0 <= y < 7 and state.cell(x, y) == side
                       for x, y in cells):
                    return True
    return False


# --- bombs: when they come ------------------------------------------------------------

def test_the_fifth_turns_piece_is_the_bomb():
    # Green plays 1 3 5 7 2, Blue 2 4 6 1 3: each side's 5th piece (Green's in column 2,
    # Blue's in column 3, both on row 2) is its bomb; the four pieces before are not.
    before = GAME.parse_position("1234567")  # Green has had 4 turns, Blue 3
    assert before.bombs == (0, 0)
    assert before.turns_to_bomb(GREEN) == 1 and before.turns_to_bomb(BLUE) == 2
    assert GAME.parse_position("12345671").bombs == (0, 0)  # Blue's 4th piece
    state = GAME.parse_position("1234567123")
    assert board_rows(state)[-2:] == ["B G* B* . . . .", "G B G B G B G"]
    assert state.turns_to_bomb(GREEN) is None and state.turns_to_bomb(BLUE) is None
    assert BOOM in state.moves() and BOOM not in before.moves()


def test_a_side_holds_one_bomb_at_most():
    # Green keeps its 5th-turn bomb (column 2, row 2) until its 10th turn (ply 19,
    # column 5): that piece is ordinary, the bomb is still the first one.
    state = GAME.parse_position("1234567123")
    first_bomb = state.bombs[GREEN]
    later = GAME.parse_position("1234567123" "456712345")
    assert later.turns_taken(GREEN) == 10
    assert later.bombs[GREEN] == first_bomb
    assert later.cell(4, 2) == GREEN and not later.is_bomb(4, 2)


def test_a_boom_turn_counts_as_a_turn():
    # Green BOOMs on its 6th turn (ply 11) and puts pieces on its 7th to 10th turns:
    # counting the BOOM, the 10th is column 4 at ply 19, and that piece is its bomb
    # (had the BOOM not counted, it would come one turn later). Blue has held its
    # bomb since its 5th turn, so its 10th piece (column 5, ply 20) is ordinary.
    boomed = GAME.parse_position("1234567123B")
    assert boomed.bombs[GREEN] == 0 and boomed.turns_to_bomb(GREEN) == 4
    nine = GAME.parse_position("1234567123B4567123")
    assert nine.turns_taken(GREEN) == 9 and nine.bombs[GREEN] == 0
    ten = nine.play(3)
    assert ten.is_bomb(3, 2) and ten.cell(3, 2) == GREEN
    blue_ten = ten.play(4)
    assert blue_ten.bombs[BLUE] == ten.bombs[BLUE] and not blue_ten.is_bomb(4, 2)


def test_a_boom_on_a_fifth_multiple_gives_no_bomb_that_turn():
    # Green's 10th turn (ply 19) is a BOOM of its 5th-turn bomb: no piece, so no
    # bomb; the next comes on its 15th turn, five turns on.
    state = GAME.parse_position("1234567123" "45674567" "B")
    assert state.outcome() is None
    assert state.turns_taken(GREEN) == 10 and state.bombs[GREEN] == 0
    assert state.turns_to_bomb(GREEN) == 5 and state.bomb_turn(GREEN) == 15


# --- the explosion --------------------------------------------------------------------

# Row 1 is G B G B G B G (plies 1-7); then Blue 2, Green 3 (its 5th: the bomb),
# Blue 4 (its 5th: the bomb), Green 5, Blue 3, Green 5, Blue 7:
#   . . B . G . .
#   . B G* B* G . B
#   G B G B G B G
BEFORE_BOOM = "1234567234535" "7"


def test_a_boom_removes_the_movers_pieces_in_the_row_and_the_rest_falls():
    before = GAME.parse_position(BEFORE_BOOM)
    assert board_rows(before)[-3:] == [". . B . G . .", ". B G* B* G . B",
                                      "G B G B G B G"]
    after = before.play(BOOM)
    # Green's bomb (column 3) and its piece in column 5 go; Blue's pieces in row 2,
    # its bomb included, stay; Blue's piece above column 3 and Green's above column 5
    # fall one row. Row 1 is untouched.
    assert board_rows(after)[-3:] == [". . . . . . .", ". B B B* G . B",
                                     "G B G B G B G"]
    assert after.bombs == (0, before.bombs[BLUE])
    assert after.outcome() is None and after.to_move == BLUE
    assert GAME.describe_move(BOOM, before) == "BOOM (Green's bomb in column 3, row 2)"


def test_a_boom_that_drops_the_opponent_into_a_line_loses_for_the_opponent():
    # As above but Blue's last piece goes to column 1: after Green's BOOM, Blue's piece
    # from column 3 falls between its pieces in row 2: B B B B* is four for Blue.
    before = GAME.parse_position("1234567234535" "1")
    after = before.play(BOOM)
    assert board_rows(after)[-2] == "B B B B* G . ."
    assert after.outcome().winner == GREEN
    assert "Blue has four in a row after Green's BOOM" in after.outcome().reason
    assert after.moves() == []


def test_a_boom_that_gives_both_sides_a_line_loses_for_the_mover():
    # Green 1 4 2 1 7(bomb) 3, Blue 4 2 1 3 7(bomb) 2:
    #   G B . . . . .
    #   B G G G . . B*
    #   G B B B . . G*
    # Green's BOOM removes its pieces in row 1 (columns 1 and 7); column 1 and column 7
    # fall: row 1 becomes B B B B . . B* and row 2 G G G G: both have four, and Green,
    # who acted, loses.
    before = GAME.parse_position("144221137732")
    assert board_rows(before)[-3:] == ["G B . . . . .", "B G G G . . B*",
                                      "G B B B . . G*"]
    after = before.play(BOOM)
    assert board_rows(after)[-3:] == [". B . . . . .", "G G G G . . .",
                                     "B B B B . . B*"]
    assert after.outcome().winner == BLUE
    assert "both sides" in after.outcome().reason


def test_four_in_a_row_loses():
    # Green plays column 1 four times (Blue column 2 between): Green's vertical four.
    state = GAME.parse_position("1212121")
    assert state.outcome().winner == BLUE
    assert state.outcome().reason == "Green has four in a row"
    assert GAME.evaluate(state) == WIN - state.ply  # Blue, to move, has won


def test_a_full_board_without_a_line_is_a_draw():
    # Found by a search for a full board; neither side has four on it:
    state = GAME.parse_position("7463366374735741664577763411336411251122252254552")
    assert board_rows(state) == [
        "B G B B B G G",
        "G B G B G B B",
        "B G G B G B G",
        "G G B G B G B",
        "B B B G B G G",
        "G G G B* B B G*",
        "B G B B G G G",
    ]
    assert not naive_has_four(state, GREEN) and not naive_has_four(state, BLUE)
    assert state.outcome().is_draw and state.outcome().reason == "the board is full"
    assert state.moves() == []


# Both sides BOOM as soon as they can and put pieces in rows they hold, so bombs keep
# clearing the board and nobody makes a line (found by that policy, seeded).
LONG_GAME = (
    "6324175243BB41632754BB17364254BB21467357BB15364275BB74312156BB13264753BB"
    "14527542BB42356176BB62457316BB56317245BB62754315BB76154763BB753563112BB7352"
    "7126BB36711264BB51147226BB71566412BB56726421BB72562461BB54711662BB72266154BB"
    "71166254BB72266451BB54722661BB54711662BB54722116BB56647112BB56726124BB7116567"
)


def test_a_game_that_reaches_300_plies_is_a_draw():
    assert len(LONG_GAME) == MAX_PLIES
    before_the_cap = GAME.parse_position(LONG_GAME[:-1])
    assert before_the_cap.outcome() is None
    state = GAME.parse_position(LONG_GAME)
    assert state.outcome().is_draw and "300 plies" in state.outcome().reason
    assert state.moves() == [] and GAME.plies_left_at_most(before_the_cap) == 1


# --- moves and notation ---------------------------------------------------------------

def test_boom_without_a_bomb_is_refused_with_the_wait():
    state = GAME.parse_position("44")  # Green's 2nd turn: its bomb comes on turn 5
    with pytest.raises(IllegalMove, match=r"Green has no bomb on the board \(next bomb "
                       r"in 4 turns, on its turn 5\)"):
        state.play(BOOM)
    with pytest.raises(IllegalMove, match="no bomb"):
        GAME.parse_move("B", state)


def test_moves_are_columns_then_boom_and_boom_is_tried_first():
    state = GAME.parse_position("1234567123")
    assert state.moves() == [0, 1, 2, 3, 4, 5, 6, BOOM]
    assert GAME.order_moves(state, state.moves())[0] == BOOM
    assert [GAME.parse_move(t, state) for t in ("1", "7", "B", "b", " boom ")] == \
        [0, 6, BOOM, BOOM, BOOM]
    assert [GAME.format_move(m) for m in (0, 6, BOOM)] == ["1", "7", "B"]


def test_a_bomb_putting_move_says_so():
    state = GAME.parse_position("12345671")  # Green's 5th turn comes
    assert GAME.describe_move(2, state) == "3 (puts Green's bomb)"
    assert GAME.describe_move(2, state.play(0).play(0)) == "3"


@pytest.mark.parametrize(
    "text, message",
    [
        ("44x", r"move 3 is 'x', not a column 1-7 or B"),
        ("4480", r"move 3 is '8'"),
        ("B", r"move 1 \(B\) is illegal: Green has no bomb on the board"),
        ("44444444", r"move 8 \(4\) is illegal: column 4 is full"),
        ("12121213", r"move 8 \('3'\) comes after the end \(Green has four in a row\)"),
    ],
)
def test_bad_positions_say_what_is_wrong(text, message):
    with pytest.raises(NotationError, match=message):
        GAME.parse_position(text)


@pytest.mark.parametrize("text", ["0", "8", "44", "x", "", "BB"])
def test_bad_move_text_is_a_notation_error(text):
    with pytest.raises(NotationError):
        GAME.parse_move(text, GAME.parse_position("1234567123"))


def test_moves_after_the_end_and_full_columns_are_refused():
    with pytest.raises(IllegalMove, match="game is over"):
        GAME.parse_position("1212121").play(4)
    full = GAME.parse_position("4444444")
    assert 3 not in full.moves()
    with pytest.raises(IllegalMove, match="column 4 is full"):
        full.play(3)


def test_the_seed_heuristic_counts_runs_and_bombs_for_the_side_to_move():
    # After 1 and 2 (Green c1, Blue c2 on row 1): each piece is a run of 1 in each of
    # the 4 directions (10 each; side by side, they are of different sides): both sides
    # cost 40, and it is Green's move: 0.
    assert GAME.seed_evaluate(GAME.parse_position("12")) == 0
    # Green then puts c3 (row 1): Green has two pieces, 8 runs of 1 = 80; Blue 40.
    # Blue to move: 80 - 40.
    assert GAME.seed_evaluate(GAME.parse_position("123")) == 40
    # Green c1 c2 on row 1 against Blue c7 c7: Green's pair is a run of 2 (20) and 6
    # runs of 1 (60) = 80; Blue's column pair likewise 80. Green to move: 0.
    assert GAME.seed_evaluate(GAME.parse_position("1727")) == 0
    # With bombs down for both, the bonuses cancel; after Green's BOOM only Blue has
    # one, which is worth the bonus to Blue, to move.
    both = GAME.parse_position("1234567123")
    assert GAME.seed_evaluate(both) == run_cost(both.pieces[BLUE]) - run_cost(both.pieces[GREEN])
    boomed = both.play(BOOM)
    assert GAME.seed_evaluate(boomed) == \
        run_cost(boomed.pieces[GREEN]) - run_cost(boomed.pieces[BLUE]) + BOMB_BONUS


def test_the_seeds_run_costs_come_to_40_a_piece():
    """Why the alpha-beta kernel counts pieces (games/boom.PIECE_COST): in every
    direction each piece is in one run of 1-3 and a run of n costs 10 n, so while no
    side has four the runs cost exactly 40 a piece."""
    rng = random.Random(9)
    checked = 0
    for _ in range(40):
        state = GAME.start()
        while state.outcome() is None:
            for pieces in state.pieces:
                assert run_cost(pieces) == 40 * pieces.bit_count()
            checked += 1
            state = state.play(rng.choice(state.moves()))
    assert checked > 400


# --- random games ---------------------------------------------------------------------

class ColumnsModel:
    """The rules again, as plainly as possible: columns as lists of (side, is_bomb)."""

    def __init__(self) -> None:
        self.columns: list[list[tuple[int, bool]]] = [[] for _ in range(7)]
        self.turns = [0, 0]

    def bomb_row(self, side: int) -> int | None:
        for column in self.columns:
            for row, (owner, bomb) in enumerate(column):
                if owner == side and bomb:
                    return row
        return None

    def play(self, side: int, move: int) -> None:
        self.turns[side] += 1
        if move == BOOM:
            row = self.bomb_row(side)
            for column in self.columns:
                if len(column) > row and column[row][0] == side:
                    del column[row]
        else:
            bomb = self.turns[side] % 5 == 0 and self.bomb_row(side) is None
            self.columns[move].append((side, bomb))

    def cell(self, column: int, row: int) -> tuple[int, bool] | None:
        cells = self.columns[column]
        return cells[row] if row < len(cells) else None


def random_game(rng: random.Random) -> tuple[list[BoomState], list[int]]:
    """A game to its end: mostly moves that do not end it (so that bombs come and go),
    sometimes any move."""
    state, states, moves = GAME.start(), [GAME.start()], []
    while state.outcome() is None:
        choices = state.moves()
        if rng.random() < 0.9:
            choices = [m for m in choices if state.play(m).outcome() is None] or choices
        move = rng.choice(choices)
        state = state.play(move)
        states.append(state)
        moves.append(move)
    return states, moves


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_random_games_agree_with_the_columns_model(rng):
    states, moves = random_game(rng)
    model = ColumnsModel()
    for before, move, after in zip(states, moves, states[1:]):
        model.play(before.to_move, move)
        for column in range(7):
            for row in range(7):
                expected = model.cell(column, row)
                got = None if after.cell(column, row) is None else \
                    (after.cell(column, row), after.is_bomb(column, row))
                assert got == expected, (GAME.format_position(after), column, row)


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_random_games_keep_the_invariants(rng):
    states, moves = random_game(rng)
    assert len(states) - 1 <= MAX_PLIES
    for before, move, after in zip(states, moves, states[1:]):
        side = before.to_move
        assert after.ply == before.ply + 1 and after.to_move == 1 - side
        green, blue = after.pieces
        assert green & blue == 0
        for s in (GREEN, BLUE):
            assert after.bombs[s].bit_count() <= 1  # one bomb at most
            assert after.bombs[s] & after.pieces[s] == after.bombs[s]
        grown = [after.pieces[s].bit_count() - before.pieces[s].bit_count()
                 for s in (GREEN, BLUE)]
        if move == BOOM:
            assert before.bombs[side] and not after.bombs[side]
            assert grown[side] < 0 and grown[1 - side] == 0
        else:
            assert grown[side] == 1 and grown[1 - side] == 0
            new_piece = after.pieces[side] & ~before.pieces[side]
            # a bomb comes exactly on a multiple-of-5 turn when the side has none
            gets_bomb = after.turns_taken(side) % 5 == 0 and not before.bombs[side]
            assert after.bombs[side] == (new_piece if gets_bomb else before.bombs[side])
        assert after.bombs[1 - side].bit_count() == before.bombs[1 - side].bit_count()
    end = states[-1]
    outcome = end.outcome()
    lines = [naive_has_four(end, s) for s in (GREEN, BLUE)]
    if outcome.winner is None:
        assert not any(lines) and (end.ply == MAX_PLIES or end.occupied.bit_count() == 49)
    elif all(lines):
        assert outcome.winner == end.to_move  # the side that acted lost
    else:
        assert lines[1 - outcome.winner] and not lines[outcome.winner]
    for state in states[:-1]:
        assert state.outcome() is None and state.moves()
        assert not any(naive_has_four(state, s) for s in (GREEN, BLUE))


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_notation_round_trips_and_keys_identify_positions(rng):
    states, _ = random_game(rng)
    for state in states:
        again = GAME.parse_position(GAME.format_position(state))
        assert again == state and hash(again) == hash(state) and again.key() == state.key()
        for move in state.moves():
            assert GAME.parse_move(GAME.format_move(move), state) == move
    assert len({s.key() for s in states}) == len(set(states))


@given(st.randoms(use_true_random=False))
def test_every_random_game_ends_by_300_plies(rng):
    state = GAME.start()
    while state.outcome() is None:
        state = state.play(rng.choice(state.moves()))
    assert state.ply <= MAX_PLIES


def test_the_same_position_by_two_orders_is_one_state():
    # Green 1 then 3, Blue 2 then 4, in either order: same pieces, same ply, no bombs.
    assert GAME.parse_position("1234") == GAME.parse_position("3214")
    assert GAME.parse_position("1234").key() == GAME.parse_position("3214").key()
    # The same pieces with Green's bomb elsewhere are another position: Green 1 3 5 2
    # 7 puts its bomb in column 7, where 1 3 5 7 2 put it in column 2.
    bomb_in_2, bomb_in_7 = GAME.parse_position("1234567123"), \
        GAME.parse_position("1234562173")
    assert bomb_in_2.pieces == bomb_in_7.pieces and bomb_in_2.bombs != bomb_in_7.bombs
    assert bomb_in_2 != bomb_in_7 and bomb_in_2.key() != bomb_in_7.key()
