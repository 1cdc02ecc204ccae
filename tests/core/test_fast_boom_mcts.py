"""The Desconecta-4 BOOM MCTS kernel against the reference rules and the tree it
replaces.

Every comparison is exact: the kernel must make the reference's decisions, not just good
ones. Positions come from seeded careful games (long, with bombs and BOOMs): the start,
mid-games with a bomb to set off, and near-ends where the tree reaches finished games.
"""
from __future__ import annotations

import random

import pytest

from plyground.core import get_game
from plyground.core.fast import boom, mcts_tree_factory, warm_up
from plyground.core.fast.bits import nth_bit
from plyground.core.fast.boom_mcts import BoomTree, legal_moves
from plyground.core.games.boom import BOOM
from plyground.core.search.mcts import PythonTree
from tests.core.positions import (assert_kernel_search_is_the_reference,
                                  assert_same_decisions, careful_boom_game)

GAME = get_game("boom")


@pytest.fixture(scope="module", autouse=True)
def compiled():
    warm_up("boom")


def kernel_moves(state) -> list[int]:
    own, other, own_bomb, _, ply = boom.kernel_position(state)
    mask = legal_moves(own, other, own_bomb, ply)
    return [nth_bit(mask, n) for n in range(bin(int(mask)).count("1"))]


def careful_states(seed: int, games: int) -> list:
    rng = random.Random(seed)
    return [state for _ in range(games) for state in careful_boom_game(rng)]


def test_the_kernel_lists_the_moves_of_the_rules_in_their_order():
    states = careful_states(1, 20)
    for state in states:
        assert kernel_moves(state) == state.moves(), GAME.format_position(state)
    assert sum(BOOM in state.moves() for state in states) > 100
    assert sum(state.outcome() is not None for state in states) == 20


def test_the_mcts_kernel_makes_the_reference_decisions():
    """From the start, mid-games (some with a bomb to set off) and near-ends, with
    several seeds and explorations and, with a tiny start, several array growths."""
    rng = random.Random(2)
    states = [GAME.start()]
    for state in careful_states(3, 12):
        if state.outcome() is None and rng.random() < 0.04:
            states.append(state)
    assert any(BOOM in state.moves() for state in states)
    assert max(state.ply for state in states) > 40
    for seed, state in enumerate(states, start=1):
        reference = PythonTree(state, seed, exploration=0.7 * seed)
        fast = BoomTree(state, seed, exploration=0.7 * seed, capacity=4)
        assert_same_decisions(reference, fast, (1, 2, 37, 300))
        assert (fast.visits[0], fast.wins[0]) == (reference.root.visits,
                                                  reference.root.wins)


def test_mcts_search_with_the_kernel_equals_mcts_search_without():
    assert mcts_tree_factory(GAME) is BoomTree
    for state in (GAME.start(), careful_states(4, 1)[30]):
        assert_kernel_search_is_the_reference(GAME, state, 400, seed=7)


def test_the_mcts_kernel_on_a_finished_game_backs_up_its_end():
    ended = [s for s in careful_states(5, 6) if s.outcome() is not None]
    for state in ended:
        tree, reference = BoomTree(state, 1), PythonTree(state, 1)
        tree.run(10)
        reference.run(10)
        assert tree.root_children() == [] and tree.principal_variation() == ()
        assert (tree.visits[0], tree.wins[0]) == (reference.root.visits,
                                                  reference.root.wins)
