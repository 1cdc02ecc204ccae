"""The Connect 4 solver against the published scores (../shared/data/connect4) and
against plain minimax over the rules; its move generation against the rules."""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from plyground.core import get_game
from plyground.core.fast import c4solver
from plyground.core.connect4.book import default_book
from plyground.core.fast.c4solver import INVALID, Solver
from tests.core.positions import connect4_endgames as endgames
from tests.core.positions import random_position

GAME = get_game("connect4")
DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "connect4"
SAMPLE = {"Test_L2_R2": 40, "Test_L1_R1": 100, "Test_L1_R2": 6, "Test_L1_R3": 1}


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(default_book())


def published(name: str) -> list[tuple[str, int]]:
    path = DATA / name
    assert path.exists(), f"reference data missing: {path}"
    lines = [line.split() for line in path.read_text().splitlines() if line.strip()]
    assert len(lines) == 1000
    return [(moves, int(score)) for moves, score in lines]


@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1"])
def test_every_published_score_of_the_easy_sets(solver, name):
    wrong = [(moves, score) for moves, score in published(name)
             if solver.solve(GAME.parse_position(moves)) != score]
    assert wrong == []


@pytest.mark.parametrize("name, published_mean", [("Test_L3_R1", 51), ("Test_L2_R1", 450)])
def test_the_easy_sets_take_no_more_nodes_than_the_published_solver(name, published_mean):
    # The published means are the reference C++ solver's (rules/connect4.md). Ours
    # orders moves differently (the table's best move first, enhanced transposition
    # cut-offs), so its counts differ: the test asks for no more (rounded to the unit,
    # as published; L3_R1 is 51.1 both ways), on a fresh table.
    solver = Solver()
    for moves, _ in published(name):
        solver.solve(GAME.parse_position(moves))
    assert round(solver.nodes / 1000) <= published_mean


@pytest.mark.parametrize("name", sorted(SAMPLE))
def test_a_seeded_sample_of_the_harder_sets(solver, name):
    sample = random.Random(name).sample(published(name), SAMPLE[name])
    for moves, score in sample:
        assert solver.solve(GAME.parse_position(moves)) == score, moves
        assert solver.solve(GAME.parse_position(moves), weak=True) == np.sign(score)


def rules_score(state, memo: dict | None = None) -> int:
    """Plain negamax over the rules, in the score convention of rules/connect4.md."""
    memo = {} if memo is None else memo
    if state not in memo:
        best = None
        for move in state.moves():
            child = state.play(move)
            outcome = child.outcome()
            if outcome is None:
                value = -rules_score(child, memo)
            elif outcome.winner is None:
                value = 0
            else:  # the mover's winning stone is its (ply // 2 + 1)-th
                value = 22 - (state.ply // 2 + 1)
            best = value if best is None else max(best, value)
        memo[state] = best
    return memo[state]


def test_endgames_score_as_plain_minimax_over_the_rules(solver):
    for state in endgames(3, 60, 10):
        assert solver.solve(state) == rules_score(state), GAME.format_position(state)
        assert solver.solve(state, weak=True) == np.sign(rules_score(state))


def test_each_columns_score_is_the_score_after_it(solver):
    for state in endgames(4, 20, 9):
        scores = solver.analyze(state)
        for column, score in enumerate(scores):
            if column not in state.moves():
                assert score == INVALID
                continue
            child = state.play(column)
            outcome = child.outcome()
            if outcome is None:
                assert score == -rules_score(child)
            else:
                assert score == (0 if outcome.winner is None else 22 - (state.ply // 2 + 1))
        assert max(scores) == solver.solve(state)


def test_move_generation_follows_the_rules():
    rng = random.Random(5)
    for _ in range(300):
        state = random_position(rng, rng.randrange(0, 36))
        if state is None or state.outcome() is not None:
            continue
        position, mask, _ = c4solver.kernel_position(state)
        wins = c4solver.winning_cells(position, mask) & c4solver.playable(mask)
        assert [c for c in state.moves() if state.play(c).outcome() is not None
                and state.play(c).outcome().winner == state.to_move] == \
            [c for c in range(7) if int(wins) & GAME.board.column_mask(c)]
        safe = int(c4solver.non_losing_moves(position, mask))
        for column in state.moves():
            if not safe & GAME.board.column_mask(column):
                continue
            child = state.play(column)  # after a safe move, no reply wins at once
            assert all(child.play(reply).outcome() is None
                       or child.play(reply).outcome().winner != child.to_move
                       for reply in child.moves())


def test_threads_sharing_the_table_give_the_published_scores():
    lines = random.Random(9).sample(published("Test_L2_R2"), 24) + \
        published("Test_L2_R1")[:200]
    states = [GAME.parse_position(moves) for moves, _ in lines]
    assert Solver(default_book()).solve_many(states, threads=2) == [score for _, score in lines]
    assert Solver(default_book()).solve_many(states[:30], weak=True, threads=3) == \
        [int(np.sign(score)) for _, score in lines[:30]]


def test_a_node_limit_stops_the_solve_and_leaves_the_table_sound():
    solver = Solver(default_book())
    moves, score = published("Test_L2_R2")[7]
    state = GAME.parse_position(moves)
    for limit in (1, 50, 500, 5000):
        assert solver.solve(state, nodes=limit) is None and solver.stopped
        assert solver.analyze(state, nodes=limit) is None
    assert solver.solve(state) == score and not solver.stopped  # what was stored holds
    assert solver.solve(state, nodes=10 ** 9) == score


def test_warming_up_compiles_every_kernel_without_a_large_search():
    """Every new engine process warms the solver up (the perfect agent, the analysis
    panel): it must cost compiling or loading the kernels, not a search of millions of
    nodes (it analysed 4455 once, 20M nodes)."""
    fresh = Solver()
    c4solver.warm_up(fresh)
    assert 0 < fresh.nodes < 100_000
