"""Fast paths: numba kernels for hot loops, each tested against the reference rules.

Nothing here is imported until a search asks for it, so importing the core stays quick
and numba is only loaded where a kernel exists for the game.
"""
from __future__ import annotations


def tree_backend(game):
    """A fast alpha-beta backend for `game`, or None to search in Python."""
    from .table import thread_backend

    if game.id == "connect4":
        from .connect4 import Connect4Backend

        return thread_backend(Connect4Backend)
    if game.id == "quarto":
        from .quarto import QuartoBackend

        return thread_backend(QuartoBackend)
    if game.id == "boom":
        from .boom import BoomBackend

        return thread_backend(BoomBackend)
    return None


def mcts_tree_factory(game):
    """A callable building a fast MCTS tree for `game`, or None to search in Python."""
    if game.id == "connect4":
        from .connect4_mcts import Connect4Tree

        return Connect4Tree
    if game.id == "cephalopod":  # one kernel for every board size
        from .cephalopod_mcts import CephalopodTree

        return CephalopodTree
    if game.id == "quarto":  # one kernel for both variants
        from .quarto_mcts import QuartoTree

        return QuartoTree
    return None


def warm_up(game_id: str) -> None:
    """Compile a game's kernels, or load them from numba's on-disk cache, so that the
    first search does not pay for it. Run it in the background when a game is chosen;
    it does nothing for a game without kernels."""
    if game_id == "connect4":
        from . import connect4, connect4_mcts

        connect4.warm_up()
        connect4_mcts.warm_up()
    elif game_id == "cephalopod":
        from . import cephalopod_mcts

        cephalopod_mcts.warm_up()
    elif game_id == "boom":
        from . import boom

        boom.warm_up()
    elif game_id == "quarto":
        from . import quarto, quarto_mcts

        quarto.warm_up()
        quarto_mcts.warm_up()
