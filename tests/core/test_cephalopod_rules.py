"""Cephalopod rules and notation, against the contest task's published answers."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from plyground.core import BadOption, IllegalMove, NotationError, get_game
from plyground.core.games.cephalopod import (DIE_WEIGHT, SAFE_WEIGHT, CephalopodMove,
                                            CephalopodState)
from tests.reference import shared_data

SIZES = [(5, 5), (3, 3), (3, 5)]
SMALL = get_game("cephalopod", rows=3, cols=3)


def final_hash_sum(state: CephalopodState, depth: int) -> int:
    """The contest's answer: over every sequence of `depth` moves (fewer if the board
    fills), the sum of the final boards' hashes (pips read as decimal digits), mod 2^30.
    Capture rules ignore colour, so the count is memoised on (pips, depth)."""
    memo: dict[tuple, int] = {}

    def total(state: CephalopodState, depth: int) -> int:
        pips = tuple(abs(v) for v in state.cells)
        if (pips, depth) not in memo:
            if depth == 0 or state.outcome() is not None:
                memo[pips, depth] = int("".join(map(str, pips)))
            else:
                memo[pips, depth] = sum(total(state.play(move), depth - 1)
                                        for move in state.moves()) % (1 << 30)
        return memo[pips, depth]

    return total(state, depth)


def contest_case(number: int) -> tuple[CephalopodState, int, int]:
    lines = shared_data(f"cephalopod/codingame/{number:02d}.txt").read_text().split("\n")
    depth = int(lines[0])
    pips = [int(p) for p in lines[1].split()]
    answers = shared_data("cephalopod/codingame/answers.txt").read_text().split()
    rows = ["".join("." if p == 0 else f"r{p}" for p in pips[r * 3:r * 3 + 3])
            for r in range(3)]
    return SMALL.parse_position("/".join(rows) + " r"), depth, int(answers[number - 1])


@pytest.mark.parametrize("number", range(1, 7))
def test_sum_of_final_hashes_matches_the_published_answers(number):
    state, depth, answer = contest_case(number)
    assert final_hash_sum(state, depth) == answer


def test_the_worked_example_has_six_captures_on_the_centre():
    state = SMALL.parse_position(".r1./r2.r3/.r4. r")
    sums = sorted(sum(abs(state.cells[c]) for c in move.captures)
                  for move in state.moves_at(4))
    assert sums == sorted([1 + 2, 1 + 3, 1 + 4, 2 + 3, 2 + 4, 1 + 2 + 3])
    assert all(move.captures for move in state.moves_at(4))  # capture is mandatory


def test_a_cell_whose_neighbours_sum_over_six_gets_a_one():
    state = SMALL.parse_position(".r6./b2b2b2/r1b6r1 r")
    assert state.moves_at(0) == [CephalopodMove(0)]
    assert state.play(CephalopodMove(0)).cells[0] == 1


def test_a_capture_removes_the_dice_and_the_new_die_shows_the_sum():
    state = SMALL.parse_position(".r1./b2.r3/.r4. b")
    move = SMALL.parse_move("b2x(a2,b1)", state)
    after = state.play(move)
    assert after.cells[4] == -6 and after.cells[3] == 0 and after.cells[7] == 0
    assert after.cells[1] == 1 and after.to_move == 0


@pytest.mark.parametrize("rows, cols", SIZES)
@given(st.randoms(use_true_random=False))
def test_random_games_keep_dice_and_pips_straight_and_end_full(rows, cols, rng):
    game = get_game("cephalopod", rows=rows, cols=cols)
    state = game.start()
    while state.outcome() is None:
        move = rng.choice(state.moves())
        after = state.play(move)
        dice_before, dice_after = (sum(1 for v in s.cells if v) for s in (state, after))
        pips_before, pips_after = (sum(abs(v) for v in s.cells) for s in (state, after))
        if move.captures:
            assert dice_after == dice_before - len(move.captures) + 1
            assert pips_after == pips_before
        else:
            assert dice_after == dice_before + 1 and pips_after == pips_before + 1
        assert all(abs(v) <= 6 for v in after.cells)
        assert after.ply == state.ply + 1 and after.to_move == 1 - state.to_move
        state = after
    outcome = state.outcome()
    assert 0 not in state.cells and state.moves() == []
    assert state.dice(outcome.winner) > state.dice(1 - outcome.winner)


@given(st.randoms(use_true_random=False), st.sampled_from(SIZES))
def test_notation_round_trips(rng, size):
    game = get_game("cephalopod", rows=size[0], cols=size[1])
    state = game.start()
    for _ in range(rng.randrange(0, 30)):
        if state.outcome() is not None:
            break
        for move in state.moves():
            assert game.parse_move(game.format_move(move), state) == move
        state = state.play(rng.choice(state.moves()))
    again = game.parse_position(game.format_position(state))
    assert again == state and again.key() == state.key()


@pytest.mark.parametrize(
    "text, message",
    [
        ("... r", "1 rows, the board has 3"),
        ("..../.../... r", "row 1 has 4 cells"),
        ("r7../.../... b", "row 1 has 'r'"),
        (".../.x./... b", "row 2 has 'x'"),
        (".../.../... g", "the side to move"),
        (".../.../...", "the side to move"),
    ],
)
def test_bad_positions_say_what_is_wrong(text, message):
    with pytest.raises(NotationError, match=message):
        SMALL.parse_position(text)


def test_bad_and_illegal_moves_are_refused_with_the_reason():
    state = SMALL.parse_position(".r1./r2.r3/.r4. r")
    with pytest.raises(NotationError, match="not a cell"):
        SMALL.parse_move("d9", state)
    with pytest.raises(NotationError, match="c3x"):
        SMALL.parse_move("b2xb1", state)
    with pytest.raises(IllegalMove, match="on b2 the moves are"):
        SMALL.parse_move("b2", state)  # a capture is mandatory here
    with pytest.raises(IllegalMove, match="on b2 the moves are"):
        SMALL.parse_move("b2x(b1,c2)", state)  # 4 + 3 > 6
    with pytest.raises(IllegalMove, match="not empty"):
        SMALL.parse_move("b3", state)


def test_only_the_three_board_sizes_exist():
    with pytest.raises(BadOption, match="5x5, 3x3, 3x5"):
        get_game("cephalopod", rows=4, cols=4)
    assert get_game("cephalopod").spec == "cephalopod:rows=5,cols=5"


def test_the_heuristic_counts_dice_and_dice_that_cannot_be_captured():
    # Blue to move; Red has a 6 (safe) ...
    assert SMALL.evaluate(SMALL.parse_position("r6../.../... b")) == \
        -(DIE_WEIGHT + SAFE_WEIGHT)
    # ... or three 1s of which only the corner one has no empty neighbour left
    state = SMALL.parse_position("r1r1./r1../... b")
    assert (state.safe_dice(0), state.dice(0)) == (1, 3)
    assert SMALL.evaluate(state) == -(3 * DIE_WEIGHT + SAFE_WEIGHT)
    assert SMALL.evaluate(state.play(CephalopodMove(8))) == 3 * DIE_WEIGHT + SAFE_WEIGHT \
        - DIE_WEIGHT  # Red to move now, Blue has one unsafe die


@pytest.mark.parametrize("kind", ["random", "greedy", "minimax", "alphabeta", "mcts"])
def test_every_agent_plays_cephalopod(kind):
    from plyground.core.catalogue import make_agent

    settings = {"minimax": {"depth": 2}, "alphabeta": {"depth": 3},
                "mcts": {"iterations": 200}}.get(kind, {})
    state = SMALL.parse_position(".r1./r2.r3/.r4. b")
    move = make_agent(kind, **settings).choose(state)
    assert move in state.moves()
