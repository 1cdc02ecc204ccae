"""Tic-tac-toe's rules and notation, and counts checked against published numbers.

(These files have names of their own, and this folder no __init__.py: pytest imports
them by file name next to plyground's own `tests` package.)
"""
from __future__ import annotations

import io

import pytest
from rich.console import Console

from plyground.core import IllegalMove, NotationError, Outcome, Termination, get_game
from plyground.core.study.perft import distinct_positions, perft
from plyground.core.values import WIN
from plyground_tictactoe.rules import GAME, LINES, TicTacToeState
from plyground_tictactoe.text import render

# Published figures for tic-tac-toe from the empty board (e.g. OEIS A008907 for move
# sequences by ply; the game tree of 549,946 nodes with 255,168 finished games; the
# 5,478 legal positions).
SEQUENCES = [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
TREE_NODES, FINISHED_GAMES, LEGAL_POSITIONS = 549_946, 255_168, 5_478


def position(text: str) -> TicTacToeState:
    return GAME.parse_position(text)


def every_position() -> set[TicTacToeState]:
    """Every position play can reach from the empty board, finished ones included."""
    seen, frontier = set(), [GAME.start()]
    while frontier:
        state = frontier.pop()
        if state not in seen:
            seen.add(state)
            frontier.extend(state.play(move) for move in state.moves())
    return seen


# --- the rules -------------------------------------------------------------------------

def test_the_start_is_an_empty_board_with_x_to_move():
    start = GAME.start()
    assert (start.ply, start.to_move, start.key(), start.outcome()) == (0, 0, 0, None)
    assert [GAME.format_move(m) for m in start.moves()] == \
        "a1 b1 c1 a2 b2 c2 a3 b3 c3".split()
    assert GAME.side_labels == ("X", "O") and get_game("tictactoe") is GAME


def test_a_move_makes_a_new_state_and_leaves_the_old_one_alone():
    start = GAME.start()
    after = start.play(4)
    assert start == GAME.start() and start.moves() == list(range(9))
    assert (after.ply, after.to_move, after.cell(4), after.last_move) == (1, 1, 0, 4)
    assert 4 not in after.moves()


def test_the_same_position_in_two_move_orders_is_one_state():
    one, two = position("a1 b2 c3"), position("c3 b2 a1")
    assert one == two and hash(one) == hash(two) and one.key() == two.key()
    assert one.history != two.history  # kept for notation, not for equality


@pytest.mark.parametrize("moves, reason", [
    ("a1 a2 b1 b2 c1", "row 1"),
    ("a1 b1 a2 b2 a3", "column a"),
    ("a1 b1 b2 c1 c3", "a diagonal"),
    ("c1 a1 b2 a2 a3", "the other diagonal"),
])
def test_three_in_a_row_wins_for_the_side_that_made_it(moves, reason):
    state = position(moves)
    assert state.outcome() == Outcome(0, Termination.LINE, "X has three in a row"), reason
    assert state.moves() == []
    assert GAME.describe_outcome(state.outcome()) == "X wins"


def test_o_wins_too_and_its_line_is_the_one_lit():
    state = position("a1 b2 c3 a2 b1 c2")
    assert state.outcome() == Outcome(1, Termination.LINE, "O has three in a row")
    assert state.line_cells() == LINES[1]  # a2 b2 c2
    assert position("a1 b2").line_cells() == 0


def test_a_full_board_without_a_line_is_a_draw():
    state = position("b2 a1 c1 a3 a2 c2 c3 b1 b3")
    assert state.outcome() == Outcome(None, Termination.FULL_BOARD, "the board is full")
    assert GAME.describe_outcome(state.outcome()) == "draw"


def test_the_last_move_may_fill_the_board_and_win():
    state = position("b3 a3 c2 a2 b2 c3 a1 c1 b1")  # b1 b2 b3
    assert state.ply == 9 and \
        state.outcome() == Outcome(0, Termination.LINE, "X has three in a row")


def test_illegal_moves_are_refused_with_the_reason():
    state = position("b2")
    with pytest.raises(IllegalMove, match="b2 is taken \\(by X\\)"):
        state.play(4)
    with pytest.raises(IllegalMove, match="not a cell"):
        state.play(9)
    with pytest.raises(IllegalMove, match="not a cell"):
        state.play("b2")
    with pytest.raises(IllegalMove, match="the game is over \\(X has three in a row\\)"):
        position("a1 a2 b1 b2 c1").play(8)


def test_every_reachable_position_is_consistent():
    """Keys are distinct non-negative ints, notation reads back, moves are the empty
    cells exactly while the game runs, and the bound on plies left holds."""
    states = every_position()
    assert len(states) == LEGAL_POSITIONS
    assert len({state.key() for state in states}) == LEGAL_POSITIONS
    for state in states:
        assert state.key() >= 0 and state.ply == len(state.history)
        assert GAME.parse_position(GAME.format_position(state)) == state
        empty = [cell for cell in range(9) if state.cell(cell) is None]
        assert state.moves() == ([] if state.outcome() else empty)
        assert GAME.plies_left_at_most(state) == 9 - state.ply >= len(state.moves())


# --- counts against the published figures ----------------------------------------------

def test_move_sequences_per_ply_match_the_published_counts():
    counts = perft(GAME, 9)
    assert counts[:5] == [1, 9, 72, 504, 3024]
    assert counts == SEQUENCES


def test_the_whole_game_tree_has_549946_nodes_and_255168_finished_games():
    def count(state: TicTacToeState) -> tuple[int, int]:
        if state.outcome() is not None:
            return 1, 1
        nodes, finished = 1, 0
        for move in state.moves():
            below, ended = count(state.play(move))
            nodes, finished = nodes + below, finished + ended
        return nodes, finished

    assert count(GAME.start()) == (TREE_NODES, FINISHED_GAMES)
    assert sum(SEQUENCES) == TREE_NODES


def test_there_are_5478_legal_positions():
    assert sum(distinct_positions(GAME, 9)) == LEGAL_POSITIONS


# --- notation ----------------------------------------------------------------------------

def test_cells_are_named_from_the_bottom_left():
    assert [GAME.format_move(cell) for cell in (0, 2, 4, 6, 8)] == \
        ["a1", "c1", "b2", "a3", "c3"]
    for cell in range(9):
        assert GAME.parse_move(GAME.format_move(cell), GAME.start()) == cell
    assert GAME.parse_move(" B2 ", GAME.start()) == 4


@pytest.mark.parametrize("text", ["d4", "b0", "5", "", "b22", "bb"])
def test_a_move_that_is_not_a_cell_is_a_notation_error(text):
    with pytest.raises(NotationError, match="is not a cell: give a column a-c and a row 1-3"):
        GAME.parse_move(text, GAME.start())


def test_a_move_on_a_taken_cell_is_illegal():
    with pytest.raises(IllegalMove, match="b2 is taken"):
        GAME.parse_move("b2", position("b2"))


def test_a_position_is_the_moves_played():
    state = position("b2 a1 c3")
    assert (state.cell(4), state.cell(0), state.cell(8), state.to_move) == (0, 1, 0, 1)
    assert GAME.format_position(state) == "b2 a1 c3"
    assert position("b2a1c3") == position("B2, a1,c3") == state
    assert position("") == position("  ") == GAME.start()
    assert GAME.format_position(GAME.start()) == ""


def test_a_finished_game_reads_as_a_position():
    assert position("a1 a2 b1 b2 c1").outcome().winner == 0


@pytest.mark.parametrize("text, message", [
    ("b2 a1 d4", "bad position 'b2 a1 d4': 'd4' is not a cell; cells are a column a-c"),
    ("b2 x", "'x' is not a cell"),
    ("b2 a1 b2", "bad position 'b2 a1 b2': move 3 plays b2, which is already taken"),
    ("a1 a2 b1 b2 c1 c3", "move 6 (c3) comes after the end of the game "
                          "(X has three in a row)"),
])
def test_bad_positions_say_what_is_wrong(text, message):
    with pytest.raises(NotationError) as error:
        GAME.parse_position(text)
    assert message in str(error.value)


def test_a_record_is_the_moves_from_the_empty_board():
    start = position("b2 a1")
    assert GAME.format_record(start, [2, 6]) == "b2 a1 c1 a3"
    assert GAME.format_record(GAME.start(), [4]) == "b2"
    assert GAME.format_line(()) == ""


# --- the heuristic -------------------------------------------------------------------------

def test_the_empty_board_is_even_and_the_centre_is_worth_most():
    assert GAME.evaluate(GAME.start()) == 0
    # after X's first move, O to move: the centre leaves O the fewest open lines
    after = {cell: GAME.evaluate(GAME.start().play(cell)) for cell in range(9)}
    assert after[4] < after[0] < after[1] < 0


def test_a_win_in_one_is_scored_as_a_win():
    state = position("a1 b2 b1 c3")  # X to move, c1 wins
    assert GAME.evaluate(state) == WIN - (state.ply + 1)


def test_two_threats_against_the_side_to_move_are_scored_as_a_loss():
    # X holds a1, c1 and c3: it threatens b1 and c2, and O has no line to complete
    lost = position("a1 b2 c3 a3 c1")
    assert GAME.evaluate(lost) == -(WIN - (lost.ply + 2))
    # the same for O, but it can complete a line itself (a2 b2 c2): a win, not a loss
    wins = position("a1 b2 c1 c2 a3")
    assert GAME.evaluate(wins) == WIN - (wins.ply + 1)


def test_search_tries_the_centre_then_corners_then_edges():
    assert GAME.order_moves(GAME.start(), GAME.start().moves()) == [4, 0, 2, 6, 8, 1, 3, 5, 7]


# --- the text board ------------------------------------------------------------------------

def plain(state: TicTacToeState) -> list[str]:
    console = Console(file=io.StringIO(), width=40, color_system=None)
    console.print(render(state))
    return [line.rstrip() for line in console.file.getvalue().splitlines()]


def test_the_text_board_reads_without_colour_the_last_move_bracketed():
    assert plain(position("b2 a1 c3")) == [
        "3  · │ · │[X]",
        "  ───┼───┼───",
        "2  · │ X │ ·",
        "  ───┼───┼───",
        "1  O │ · │ ·",
        "   a   b   c",
    ]
    assert not any("[" in line for line in plain(GAME.start()))
