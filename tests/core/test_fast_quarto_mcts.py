"""The Quarto MCTS kernel against the reference rules and the tree it replaces.

Every comparison is exact: the kernel must make the reference's decisions, not just good
ones. Positions come from seeded random play in both variants: the start, the first
give, mid-games and near-ends (where the tree reaches the end of the game and selects
finished nodes again).
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from plyground.core import get_game
from plyground.core.fast import mcts_tree_factory, warm_up
from plyground.core.fast.quarto_mcts import (MAX_MOVES, QuartoTree, decode, lines_through,
                                             list_moves)
from plyground.core.search.mcts import PythonTree
from tests.core.positions import (assert_kernel_search_is_the_reference,
                                  assert_same_decisions, random_games)

GAMES = {"standard": get_game("quarto"), "2x2": get_game("quarto", squares=True)}
by_variant = pytest.mark.parametrize("variant", list(GAMES))
# mid-games and near-ends: (pieces placed, iterations of each run())
RUNNING = ((6, (1, 2, 37, 1000)), (9, (1, 2, 37, 1000)), (11, (1, 2, 37, 1000)),
           (13, (1, 2, 37, 400, 1000)))


@pytest.fixture(scope="module", autouse=True)
def compiled():
    warm_up("quarto")


def kernel_moves(state, through, listed) -> list:
    hand = -1 if state.hand is None else state.hand
    pool = sum(1 << piece for piece in state.pool())
    count = list_moves(np.array(state.board, np.int64), hand, pool, through, listed)
    return [decode(code) for code in listed[:count]]


def running_position(game, rng: random.Random, placed: int):
    """A running game with `placed` pieces on the board (a piece in hand), after
    random moves; its side to move may have a winning placement."""
    while True:
        state = game.start().play(rng.choice(game.start().moves()))
        while state.placed < placed and state.outcome() is None:
            state = state.play(rng.choice(state.moves()))
        if state.outcome() is None:
            return state


@by_variant
def test_the_kernel_lists_the_moves_of_the_rules_in_their_order(variant):
    """Random games reach every kind of move: the first give, placements that win
    with pieces left, the last placement, and placements followed by a give."""
    game = GAMES[variant]
    through, listed = lines_through(game), np.empty(MAX_MOVES, np.int64)
    kinds = set()
    for state in random_games(game, 5, 60):
        moves = kernel_moves(state, through, listed)
        assert moves == state.moves(), game.format_position(state)
        kinds.update((m.square is None, m.give is None, not state.pool()) for m in moves)
    assert kinds == {(True, False, False), (False, True, False), (False, True, True),
                     (False, False, False)}


@by_variant
def test_the_mcts_kernel_makes_the_reference_decisions(variant):
    """From the start, the first give, mid-games and near-ends, with several seeds and
    explorations and, with a tiny start, several array growths."""
    game, rng = GAMES[variant], random.Random(variant)
    first_give = game.start().play(rng.choice(game.start().moves()))  # 240 moves
    states = [(game.start(), (1, 2, 37, 500)), (first_give, (1, 2, 37, 600))]
    states += [(running_position(game, rng, placed), runs) for placed, runs in RUNNING]
    for seed, (state, runs) in enumerate(states, start=1):
        reference = PythonTree(state, seed, exploration=0.6 * seed)
        fast = QuartoTree(state, seed, exploration=0.6 * seed, capacity=4)
        assert_same_decisions(reference, fast, runs)
        assert len(fast.visits) > 4
        assert (fast.visits[0], fast.wins[0]) == (reference.root.visits,
                                                  reference.root.wins)


@by_variant
def test_mcts_search_with_the_kernel_equals_mcts_search_without(variant):
    game = GAMES[variant]
    assert mcts_tree_factory(game) is QuartoTree
    rng = random.Random(30)
    for state in (game.start(), running_position(game, rng, 8)):
        assert_kernel_search_is_the_reference(game, state, 600, seed=7)


def a_drawn_game(game):
    """A full board with no line, from seeded random games."""
    return next(state for state in random_games(game, 3, 1000)
                if state.placed == 16 and state.outcome().winner is None)


@pytest.mark.parametrize("variant, position", [
    ("standard", "0123/..../..../.... -"),  # a row of short light pieces
    ("2x2", "01../23../..../.... -"),  # the same in a block, which wins with 2 x 2 only
    ("standard", None),  # drawn
    ("2x2", None),
], ids=["row", "block", "draw", "draw-2x2"])
def test_the_mcts_kernel_on_a_finished_game_backs_up_its_end(variant, position):
    game = GAMES[variant]
    state = game.parse_position(position) if position else a_drawn_game(game)
    tree, reference = QuartoTree(state, 1), PythonTree(state, 1)
    tree.run(10)
    reference.run(10)
    assert tree.root_children() == [] and tree.principal_variation() == ()
    assert (tree.visits[0], tree.wins[0]) == (reference.root.visits, reference.root.wins)
    assert reference.root.wins == (5.0 if position is None else 10.0)  # the last mover won
