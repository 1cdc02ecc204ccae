"""Fast paths: numba kernels for hot loops, each tested against the reference rules.

Nothing here is imported until a search asks for it, so importing the core stays quick
and numba is only loaded where a kernel exists for the game.
"""
from __future__ import annotations


def tree_backend(game):
    """A fast alpha-beta backend for `game`, or None to search in Python."""
    return None


def mcts_tree_factory(game):
    """A callable building a fast MCTS tree for `game`, or None to search in Python."""
    return None
