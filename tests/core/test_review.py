"""Game review (core/study/review.py): Connect 4's exact labels against plain minimax over the
rules and the published scores, the thresholds and the accuracy formula, other games'
labels as estimates and their proven endgames as exact."""
from __future__ import annotations

import random

import pytest

from plyground.core import get_game
from plyground.core.connect4.solver import value_of
from plyground.core.study.review import (DEFAULT_SCALE, LABELS, MoveReview, Review,
                                         expected_score, label_of, review)
from plyground.core.values import WIN, Scale, is_decisive, terminal_value
from tests.core.positions import connect4_endgames, quarto_endgames
from tests.core.test_c4solver import rules_score
from tests.reference import read_scored_positions

CONNECT4 = get_game("connect4")


def rules_move_score(state, column, memo) -> int:
    """A column's score (rules/connect4.md) by plain minimax over the rules."""
    child = state.play(column)
    outcome = child.outcome()
    if outcome is None:
        return -rules_score(child, memo)
    return 0 if outcome.winner is None else 22 - (state.ply // 2 + 1)


def expected_label(best: int, played: int) -> str:
    """The rule the issue states: an optimal move is best; one that keeps the result
    but wins later or loses sooner an inaccuracy; one that changes the result a
    blunder."""
    sign = (best > 0) - (best < 0), (played > 0) - (played < 0)
    if played == best:
        return "best"
    return "inaccuracy" if sign[0] == sign[1] else "blunder"


def test_connect4_labels_are_exact_and_agree_with_minimax_over_the_rules():
    seen = set()
    for state in connect4_endgames(15, 6, 10):
        memo: dict = {}
        best = rules_score(state, memo)
        for column in state.moves():
            played = rules_move_score(state, column, memo)
            [move] = review((CONNECT4, state, [column])).moves
            assert move.label == expected_label(best, played), \
                (CONNECT4.format_position(state), column)
            assert move.exact and move.played_exact and move.best_exact
            assert move.best_value == value_of(best, state.ply)
            assert move.played_value == value_of(played, state.ply)
            if move.label == "best":
                assert move.best_move == column
            else:  # the best move shown keeps the position's score
                assert rules_move_score(state, move.best_move, memo) == best
            seen.add(move.label)
    # a win thrown away, a slower win (or a faster loss), an optimal move
    assert seen == {"best", "inaccuracy", "blunder"}


def test_a_thrown_away_win_is_a_blunder_and_a_slower_win_an_inaccuracy():
    for state in connect4_endgames(16, 40, 10):
        memo: dict = {}
        best = rules_score(state, memo)
        scores = {c: rules_move_score(state, c, memo) for c in state.moves()}
        slower = [c for c, s in scores.items() if 0 < s < best]
        thrown = [c for c, s in scores.items() if s <= 0]
        if best > 0 and slower and thrown:
            break
    else:
        pytest.fail("no position with both a slower win and a move throwing it away")
    [blunder] = review((CONNECT4, state, [thrown[0]])).moves
    [inaccuracy] = review((CONNECT4, state, [slower[0]])).moves
    assert blunder.label == "blunder"
    assert blunder.played_text == "draw" or blunder.played_text.startswith("loss in")
    assert inaccuracy.label == "inaccuracy"
    assert inaccuracy.played_text.startswith("win in") and \
        inaccuracy.best_text.startswith("win in")
    assert inaccuracy.played_value < inaccuracy.best_value  # later


def test_best_values_are_the_published_scores():
    for moves, score in read_scored_positions("connect4/Test_L2_R1")[:8]:
        state = CONNECT4.parse_position(moves)
        column = state.moves()[0]
        [move] = review((CONNECT4, state, [column])).moves
        assert move.best_value == value_of(score, state.ply), moves


def test_a_connect4_game_reviews_every_move_with_its_graph_and_accuracy():
    state = connect4_endgames(17, 1, 9)[0]
    rng, moves, position = random.Random(3), [], state
    while position.outcome() is None:
        move = rng.choice(position.moves())
        moves.append(move)
        position = position.play(move)
    result = review((CONNECT4, state, moves))
    assert [move.ply for move in result.moves] == list(range(state.ply, position.ply))
    assert result.exact and result.analyser.startswith("the exact solver")
    memo: dict = {}
    best = rules_score(state, memo)
    sign = (best > 0) - (best < 0)
    assert result.values[0] == (sign if state.to_move == 0 else -sign)
    winner = position.outcome().winner
    assert result.values[-1] == (0 if winner is None else 1 - 2 * winner)
    assert len(result.values) == len(moves) + 1
    assert all(value in (-1, 0, 1) for value in result.values)
    for side in (0, 1):
        mine = [move for move in result.moves if move.side == side]
        if mine:
            good = sum(move.label in ("best", "good") for move in mine)
            assert result.accuracy(side) == pytest.approx(100 * good / len(mine))


# --- thresholds and the accuracy formula ---------------------------------------------

def test_expected_score_and_thresholds():
    assert expected_score(DEFAULT_SCALE) == pytest.approx(0.75)
    assert expected_score(-DEFAULT_SCALE) == pytest.approx(0.25)
    assert expected_score(0) == 0.5
    assert expected_score(WIN - 10) == 1.0 and expected_score(-(WIN - 10)) == 0.0
    assert expected_score(0.3, Scale.MEAN) == 0.3
    assert expected_score(10 ** 6 - 10 ** 5) > 0.999  # far past the scale, no overflow
    assert label_of(50, 50, 0.0, True) == "best"
    assert label_of(50, 40, 0.049, False) == "good"
    assert label_of(50, 40, 0.05, False) == "inaccuracy"
    assert label_of(50, 40, 0.099, False) == "inaccuracy"
    assert label_of(50, 40, 0.10, False) == "mistake"
    assert label_of(50, 40, 0.149, False) == "mistake"
    assert label_of(50, 40, 0.15, False) == "blunder"
    assert label_of(WIN - 9, WIN - 15, 0.0, False) == "inaccuracy"  # a slower win
    assert label_of(-(WIN - 15), -(WIN - 9), 0.0, False) == "inaccuracy"  # a faster loss
    assert label_of(WIN - 9, 0, 0.5, False) == "blunder"  # a win thrown to a draw


def test_accuracy_is_the_share_of_best_and_good_moves():
    def move(side: int, label: str) -> MoveReview:
        return MoveReview(0, side, 0, 0, 0, 0, 0.0, label, False, False)

    labels = {0: ["best", "good", "inaccuracy", "blunder"], 1: ["mistake", "best"]}
    moves = [move(side, label) for side, labels_ in labels.items() for label in labels_]
    result = Review(CONNECT4, CONNECT4.start(), moves, [], "test")
    assert result.accuracy(0) == 50.0 and result.accuracy(1) == 50.0
    assert result.counts(0) == {"best": 1, "good": 1, "inaccuracy": 1, "mistake": 0,
                                "blunder": 1}
    assert Review(CONNECT4, CONNECT4.start(), [], [], "test").accuracy(0) is None


# --- other games ---------------------------------------------------------------------

QUARTO = get_game("quarto")


def quarto_value(state) -> int:
    """Plain negamax over the rules to the end of the game, in the search's values
    (values.py: a win at ply p scores WIN - p)."""
    outcome = state.outcome()
    if outcome is not None:
        return terminal_value(outcome, state.ply, state.to_move)
    return max(-quarto_value(state.play(move)) for move in state.moves())


def test_quarto_endgames_are_judged_exactly():
    seen = set()
    endgames = [(state, quarto_value(state), [-quarto_value(state.play(move))
                                              for move in state.moves()])
                for seed in range(1, 30) for state in quarto_endgames(seed, QUARTO, 4, 1)]
    # a lost position where a move loses sooner, a won one where a move throws the
    # win away
    lost = next(found for found in endgames
                if found[1] < 0 and any(v < found[1] for v in found[2]))
    won = next(found for found in endgames if found[1] > 0 and min(found[2]) <= 0)
    for state, best, _ in (lost, won):
        for move in state.moves():
            played = -quarto_value(state.play(move))
            [judged] = review((QUARTO, state, [move])).moves
            assert judged.exact, QUARTO.format_move(move)
            assert (judged.best_value, judged.played_value) == (best, played)
            if played == best:
                assert judged.label == "best"
            elif is_decisive(best) and is_decisive(played) and (best > 0) == (played > 0):
                assert judged.label == "inaccuracy"
            else:
                assert judged.label == "blunder"
            seen.add(judged.label)
    assert seen == {"best", "inaccuracy", "blunder"}


def test_quarto_labels_far_from_the_end_are_estimates_at_a_stated_budget():
    start = QUARTO.start()
    moves = [start.moves()[0]]
    moves.append(start.play(moves[0]).moves()[0])
    result = review((QUARTO, start, moves))
    assert not any(move.exact for move in result.moves)
    assert all(move.label in LABELS for move in result.moves)
    assert result.analyser == "alphabeta:nodes=200000"
    assert all(-1 <= value <= 1 for value in result.values)


CEPHALOPOD_3X3 = (  # a game of Alpha-Beta (Red) against MCTS (Blue) that Red won
    "a3 b2 b3x(b2,a3) a1 a3 c2 c1 a2x(a3,a1) a3x(b3,a2) b1 b2x(c2,b1) b3x(b2,a3) a3 c3 "
    "c2x(c3,c1) b1 c1x(c2,b1) c3 c2x(c3,c1) c3 a2 b1 b2x(c2,b1) c2x(c3,b2) c3 c1 b2 a1 "
    "b1x(b2,a1) a1x(a2,b1) b1x(c1,a1) b2 c1 a2x(a3,b2) b2x(b1,a2) b1 a2 a1x(a2,b1) a3 "
    "a2x(a3,a1) b1 a1x(a2,b1) a3 a2x(a3,a1) a3 a1 b1x(c1,a1) a1 c1").split()


def cephalopod_line(first: int):
    """The game, its position after `first` moves and the moves from there."""
    game = get_game("cephalopod", rows=3, cols=3)
    state, moves = game.start(), []
    for text in CEPHALOPOD_3X3:
        moves.append(game.parse_move(text, state))
        state = state.play(moves[-1])
    start = game.start()
    for move in moves[:first]:
        start = start.play(move)
    return game, start, moves[first:]


def test_a_cephalopod_win_found_by_search_is_exact():
    game, state, moves = cephalopod_line(40)
    steps = []
    result = review((game, state, moves), progress=lambda done, total: steps.append(
        (done, total)))
    assert steps[-1] == (len(moves), len(moves))  # the last position is over
    assert result.exact and all(is_decisive(move.best_value) for move in result.moves)
    assert result.values[-1] == 1 and result.accuracy(0) == 100.0  # Red won, and best
    assert result.analyser == "alphabeta:nodes=5000"


def test_an_mcts_review_is_an_estimate_on_the_mean_scale():
    game, state, moves = cephalopod_line(44)
    result = review((game, state, moves), "mcts:iterations=300")
    assert result.analyser == "mcts:iterations=300"
    assert not result.exact and {move.scale for move in result.moves} == {Scale.MEAN}
    assert all(0 <= move.played_value <= 1 for move in result.moves)


# --- in the engine (the app's review: engine.ReviewRequest) ----------------------------

def test_a_review_in_the_engine_gives_the_review_of_the_core_with_its_progress():
    from plyground.core.play.worker import Engine, ReviewRequest
    from plyground.core.study.review import ReviewProgress

    start = CONNECT4.parse_position("5554224333234511764415115")
    moves, state = [], start
    for text in "1222":
        moves.append(CONNECT4.parse_move(text, state))
        state = state.play(moves[-1])
    events = []
    with Engine() as engine:
        done = engine.run(ReviewRequest("connect4", "5554224333234511764415115",
                                        tuple("1222")), events.extend)
    direct = review((CONNECT4, start, moves))
    assert [move.label for move in done.result.moves] == \
        [move.label for move in direct.moves]
    assert done.result.values == direct.values
    progress = [event for event in events if isinstance(event, ReviewProgress)]
    assert state.outcome() is None  # every position of the line is open: all analysed
    assert progress[0] == ReviewProgress(0, len(moves) + 1)
    assert progress[-1] == ReviewProgress(len(moves) + 1, len(moves) + 1)


def test_a_review_request_with_an_illegal_move_fails_with_the_rules_reason():
    from plyground.core.play.worker import Engine, EngineError, ReviewRequest

    with Engine() as engine, pytest.raises(EngineError, match="full"):
        engine.run(ReviewRequest("connect4", "111111", ("1",)))
