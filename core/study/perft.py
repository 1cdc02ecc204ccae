"""Counting positions: move sequences per ply (perft) and distinct positions per ply.

Both work on any game through the State contract and are checked against published
tables. Move sequences are counted with memoisation on (position, plies left), so the
count costs one visit per distinct position rather than one per sequence.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterator

from ..game import Game, State


def perft(game: Game, max_depth: int, start: State | None = None) -> list[int]:
    """Sequences of exactly n moves from `start`, n = 0..max_depth; no move before the
    last may end the game (a sequence whose last move ends it counts)."""
    return list(perft_levels(game, max_depth, start))


def perft_levels(game: Game, max_depth: int, start: State | None = None) -> Iterator[int]:
    """perft's counts one at a time, each as soon as it is known (a deep count can take
    hours: the command prints the shallow ones meanwhile)."""

    @lru_cache(maxsize=None)
    def sequences(state: State, depth: int) -> int:
        if depth == 0:
            return 1
        return sum(sequences(state.play(move), depth - 1) for move in state.moves())

    root = start if start is not None else game.start()
    try:
        for depth in range(max_depth + 1):
            yield sequences(root, depth)
    finally:
        sequences.cache_clear()


def distinct_positions(game: Game, max_depth: int, start: State | None = None) -> list[int]:
    """Distinct positions after exactly n plies; a finished game is counted at its ply
    and not expanded."""
    return list(distinct_levels(game, max_depth, start))


def distinct_levels(game: Game, max_depth: int,
                    start: State | None = None) -> Iterator[int]:
    """distinct_positions's counts one at a time, each as soon as it is known."""
    level = {start if start is not None else game.start()}
    yield 1
    for _ in range(max_depth):
        level = {state.play(move) for state in level for move in state.moves()}
        yield len(level)
