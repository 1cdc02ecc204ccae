"""Fast paths: numba kernels for hot loops, each tested against the reference rules.

A game names its kernels when it registers (`Kernels` in core/game.py). Nothing here is
imported until a search asks for it, so importing the core stays quick and numba is
only loaded where a kernel exists for the game.
"""
from __future__ import annotations

import importlib

from ..game import game_entry, load_ref


def tree_backend(game):
    """A fast alpha-beta backend for `game`, or None to search in Python."""
    from .table import thread_backend

    ref = game.entry.kernels.tree
    return None if ref is None else thread_backend(load_ref(ref))


def mcts_tree_factory(game):
    """A callable building a fast MCTS tree for `game`, or None to search in Python."""
    ref = game.entry.kernels.mcts
    return None if ref is None else load_ref(ref)


_warmed: set[str] = set()  # the games whose kernels this process has warmed up


def warm_up(game_id: str) -> None:
    """Compile a game's kernels, or load them from numba's on-disk cache, so that the
    first search does not pay for it: once a process (again, it costs nothing). Run
    it in the background when a game is chosen; it does nothing for a game without
    kernels. While another process compiles them (fast/cache.py), it waits for that
    one and loads what it wrote."""
    if game_id in _warmed:
        return
    modules = game_entry(game_id).kernels.modules()
    if modules:
        from .cache import compiling

        with compiling(game_id, modules):
            for module in modules:
                importlib.import_module(module).warm_up()
    _warmed.add(game_id)


def kernels_cached(game_id: str) -> bool:
    """Whether the game's kernels are in numba's cache (loading them takes a fraction
    of a second; compiling them, several seconds). True for a game without kernels."""
    modules = game_entry(game_id).kernels.modules()
    if not modules:
        return True
    from .cache import all_cached, kernels_of

    return all_cached(kernels_of(modules))
