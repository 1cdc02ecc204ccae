"""The shipped Connect 4 held-out positions (tests/bench/data/connect4_heldout.txt, made
by tests/bench/heldout.py) that the az bench grades agents on: each is what its header
says, the generator makes the same lines again, and their scores are the solver's
(each move solved on its own) and the published ones' where positions meet."""
from __future__ import annotations

import re

import pytest

from plyground.core.connect4.book import default_book
from plyground.core.fast.c4solver import Solver
from plyground.core.game import get_game
from plyground.core.rng import SplitMix64
from tests.bench import heldout
from tests.reference import read_scored_positions

GAME = get_game("connect4")
PUBLISHED = ("Test_L1_R1", "Test_L1_R2", "Test_L1_R3", "Test_L2_R1", "Test_L2_R2",
             "Test_L3_R1")


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(default_book())


@pytest.fixture(scope="module")
def positions() -> list[heldout.Position]:
    return heldout.load()


def made_by() -> tuple[int, int]:
    """(count, seed) of the command the file's header names."""
    text = heldout.DATA.read_text()
    found = re.search(r"^# made by: python -m tests\.bench\.heldout --count (\d+) "
                      r"--seed (\d+)$", text, re.M)
    assert found, "the header names the command that made the file"
    return int(found[1]), int(found[2])


def test_the_file_holds_what_its_header_says(positions):
    count, _ = made_by()
    assert len(positions) == count
    assert len({p.line for p in positions}) == count
    for position in positions:
        state = position.state()
        assert heldout.PLIES[0] <= state.ply <= heldout.PLIES[1]
        assert state.outcome() is None and not state.winning_moves()
        assert [s is not None for s in position.scores] == \
            [column in state.moves() for column in range(7)]


def test_the_generator_makes_the_files_first_lines_again(solver, positions):
    count, seed = made_by()
    again = heldout.make(5, seed, solver)
    assert [heldout.format_position(p) for p in again] == \
        [heldout.format_position(p) for p in positions[:5]]


def test_a_sample_agrees_with_the_solver_move_by_move(solver, positions):
    rng = SplitMix64(7)
    for position in (positions[rng.below(len(positions))] for _ in range(10)):
        state = position.state()
        for column, score in enumerate(position.scores):
            if score is not None:
                assert -solver.solve(state.play(column)) == score, position.line


def test_where_positions_meet_the_published_scores_agree(solver, positions):
    """A held-out position or one a move from it that a published set holds has its
    score there; random play seldom meets those sets, so the tool that scored the
    file is also held to a sample of them directly."""
    published = {}
    for name in PUBLISHED:
        for moves, score in read_scored_positions(f"connect4/{name}"):
            state = GAME.parse_position(moves)
            published[state.to_move, state.key()] = score
    for position in positions:
        state = position.state()
        if (state.to_move, state.key()) in published:
            assert max(position.legal()) == published[state.to_move, state.key()]
        for column, score in enumerate(position.scores):
            child = None if score is None else state.play(column)
            if child is not None and (child.to_move, child.key()) in published:
                assert -published[child.to_move, child.key()] == score
    sample = read_scored_positions("connect4/Test_L2_R1")[:20]
    for moves, score in sample:
        assert max(s for s in heldout.scored(GAME.parse_position(moves), solver)
                   if s is not None) == score, moves
