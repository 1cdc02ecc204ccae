"""The Cephalopod MCTS kernel against the reference rules and the tree it replaces.

Every comparison is exact: the kernel must make the reference's decisions, not just good
ones. Positions come from seeded random play on every board size.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from plyground.core import get_game
from plyground.core.fast import mcts_tree_factory, warm_up
from plyground.core.fast.cephalopod_mcts import (MOVES_PER_CELL, CephalopodTree, decode,
                                                 list_moves)
from plyground.core.games.cephalopod import CAPTURE_MASKS, SIZES
from plyground.core.search.mcts import PythonTree
from tests.core.positions import (assert_kernel_search_is_the_reference,
                                  assert_same_decisions, random_games)

GAMES = {size: get_game("cephalopod", rows=size[0], cols=size[1]) for size in SIZES}
# per size: the iterations of each run() (PythonTree is slow on the larger boards)
RUNS = {(5, 5): (1, 2, 37, 100), (3, 5): (1, 2, 37, 300), (3, 3): (1, 2, 37, 400, 1000)}
by_size = pytest.mark.parametrize("size", SIZES, ids=[f"{r}x{c}" for r, c in SIZES])


@pytest.fixture(scope="module", autouse=True)
def compiled():
    warm_up("cephalopod")


def positions(game, seed: int, count: int):
    """The start and `count - 1` running games after a random number of random moves."""
    rng, found = random.Random(seed), [game.start()]
    while len(found) < count:
        state = game.start()
        for _ in range(rng.randrange(1, len(state.cells) * 2)):
            state = state.play(rng.choice(state.moves()))
            if state.outcome() is not None:
                break
        else:
            found.append(state)
    return found


@by_size
def test_the_kernel_lists_the_moves_of_the_rules_in_their_order(size):
    """Random games reach every capture subset, four dice included."""
    game = GAMES[size]
    neighbours = np.array(game.neighbours, np.int64)
    listed = np.empty(len(game.neighbours) * MOVES_PER_CELL, np.int64)
    masks_seen = set()
    for state in random_games(game, sum(size), 40):
        count = list_moves(np.array(state.cells, np.int64), neighbours, listed)
        kernel_moves = [decode(code, game.neighbours) for code in listed[:count]]
        assert kernel_moves == state.moves(), game.format_position(state)
        masks_seen.update(int(code) % 16 for code in listed[:count])
    assert masks_seen == {0, *CAPTURE_MASKS}


@by_size
def test_the_mcts_kernel_makes_the_reference_decisions(size):
    """Across several runs and, with a tiny start, several array growths."""
    for seed, state in enumerate(positions(GAMES[size], 10 + sum(size), 3), start=1):
        reference = PythonTree(state, seed, exploration=1.1 * seed)
        fast = CephalopodTree(state, seed, exploration=1.1 * seed, capacity=4)
        assert_same_decisions(reference, fast, RUNS[size])
        assert len(fast.visits) > 4


@by_size
def test_mcts_search_with_the_kernel_equals_mcts_search_without(size):
    game = GAMES[size]
    assert mcts_tree_factory(game) is CephalopodTree
    for state in positions(game, 30 + sum(size), 2):
        assert_kernel_search_is_the_reference(game, state, RUNS[size][-1], seed=7)


def test_the_mcts_kernel_on_a_full_board_backs_up_its_end():
    game = GAMES[3, 3]
    state = game.parse_position("r1b1r1/b1r1b1/r1b1r1 b")  # Red has five dice of nine
    tree, reference = CephalopodTree(state, 1), PythonTree(state, 1)
    tree.run(10)
    reference.run(10)
    assert tree.root_children() == [] and tree.principal_variation() == ()
    assert (tree.visits[0], tree.wins[0]) == (reference.root.visits, reference.root.wins)
    assert reference.root.wins == 10.0  # won by Red, the side that moved last
