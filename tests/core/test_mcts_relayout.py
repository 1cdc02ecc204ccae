"""The kernel trees' relayout (fast/mcts_tree.py): renumbering the nodes breadth first
puts every node's children side by side, and a search with many relayouts still makes
the Python reference's decisions, in every game, plain and with the solver."""
from __future__ import annotations

import random

import pytest

from plyground.core import get_game
from plyground.core.fast import mcts_tree_factory
from plyground.core.fast.mcts_tree import KernelTree
from plyground.core.search.mcts import DEFAULT_EXPLORATION, PythonTree
from tests.core.positions import assert_same_decisions, play_randomly

GAMES = ("connect4", "quarto", "cephalopod", "boom")
# the decisions test's boards: Cephalopod's smallest, whose Python reference is quick
# (the relayout is the same code on every board)
OPTIONS = {"cephalopod": {"rows": 3, "cols": 3}}


def a_position(game, plies: int, seed: int):
    return play_randomly(random.Random(seed), game, plies)


def variants(game_id: str):
    tree = mcts_tree_factory(get_game(game_id))
    return [False, True] if tree.solves else [False]


@pytest.fixture
def relayout_often(monkeypatch):
    """Renumber from 8 nodes on, so that a short search is renumbered many times."""
    monkeypatch.setattr(KernelTree, "RELAYOUT_FROM", 8)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_nodes_children_are_neighbours_after_a_relayout(game_id, relayout_often):
    game = get_game(game_id)
    tree = mcts_tree_factory(game)(a_position(game, 4, 1), 3, DEFAULT_EXPLORATION)
    tree.run(3000)
    before = sorted(zip(tree.visits[:int(tree.size[0])], tree.wins[:int(tree.size[0])]))
    tree.relayout()
    size = int(tree.size[0])
    assert sorted(zip(tree.visits[:size], tree.wins[:size])) == before
    scattered = 0
    for node in range(size):
        children = tree.children(node)
        scattered += children != list(range(children[0], children[0] + len(children))) \
            if children else 0
        assert all(child > node for child in children)
    assert scattered == 0


@pytest.mark.parametrize("game_id", GAMES)
def test_a_search_renumbered_many_times_makes_the_references_decisions(game_id,
                                                                       relayout_often):
    game = get_game(game_id, **OPTIONS.get(game_id, {}))
    factory = mcts_tree_factory(game)
    for solver in variants(game_id):
        renumbered = 0
        for plies, seed in ((0, 1), (6, 2), (12, 3)):
            state = a_position(game, plies, seed)
            if state.outcome() is not None:
                continue
            reference = PythonTree(state, seed, solver=solver)
            fast = factory(state, seed, DEFAULT_EXPLORATION, capacity=4,
                           **({"solver": True} if solver else {}))
            assert_same_decisions(reference, fast, (1, 2, 37, 300))  # 6 relayouts by 300
            renumbered += fast.laid_out > 1
        assert renumbered  # the relayouts were exercised
