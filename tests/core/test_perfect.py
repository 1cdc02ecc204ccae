"""The perfect agent: solver scores as search values, best-scoring moves, and the
Alpha-Beta fallback marked as an estimate."""
from __future__ import annotations

import pytest

from plyground.core.search.control import Budget
from plyground.core import PlygroundError, get_game
from plyground.core.catalogue import make_agent
from plyground.core.connect4.book import default_book
from plyground.core.fast.c4solver import Solver
from plyground.core.connect4.solver import ESTIMATE_NOTE, EXACT_NOTE, value_of
from plyground.core.search.alphabeta import alphabeta_search
from tests.core.positions import connect4_endgames as endgames

GAME = get_game("connect4")


def test_solver_scores_convert_to_the_values_of_a_search_to_the_end():
    solver = Solver(default_book())
    decisive = 0
    for state in endgames(11, 40, 9):
        exact = alphabeta_search(GAME, state, Budget(depth=42 - state.ply))
        assert value_of(solver.solve(state), state.ply) == exact.value, \
            GAME.format_position(state)
        decisive += exact.value != 0
    assert decisive > 10


def test_perfect_plays_a_best_scoring_move_with_exact_values():
    agent = make_agent("perfect", time=5)
    for state in endgames(12, 15, 14):
        done = agent.decide(state)
        assert done.note == EXACT_NOTE
        values = {mv.move: mv.value for mv in done.move_values}
        assert set(values) == set(state.moves())
        assert values[done.best_move] == max(values.values()) == done.value
        assert done.depth == 42 - state.ply


def test_without_time_to_solve_it_falls_back_to_alpha_beta_as_an_estimate():
    # a stone past the opening book, so its moves' positions are not in it either:
    # seconds to solve
    book = default_book()
    early = GAME.parse_position("2112121"[:book.depth + 1])
    done = make_agent("perfect", time=0.05).decide(early)
    assert done.note.startswith(ESTIMATE_NOTE)
    assert done.best_move in early.moves()


def test_the_opening_book_solves_the_empty_board_at_once():
    done = make_agent("perfect", time=0.05).decide(GAME.start())
    assert done.note == EXACT_NOTE and done.best_move == 3  # the centre column


def test_perfect_plays_connect4_only():
    with pytest.raises(PlygroundError, match="cannot play"):
        make_agent("perfect").decide(get_game("quarto").start())
