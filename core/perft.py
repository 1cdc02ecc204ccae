"""Counting positions: move sequences per ply (perft) and distinct positions per ply.

Both work on any game through the State contract and are checked against published
tables. Move sequences are counted with memoisation on (position, plies left), so the
count costs one visit per distinct position rather than one per sequence.
"""
from __future__ import annotations

from functools import lru_cache

from .game import Game, State


def perft(game: Game, max_depth: int, start: State | None = None) -> list[int]:
    """Sequences of exactly n moves from `start`, n = 0..max_depth; no move before the
    last may end the game (a sequence whose last move ends it counts)."""

    @lru_cache(maxsize=None)
    def sequences(state: State, depth: int) -> int:
        if depth == 0:
            return 1
        return sum(sequences(state.play(move), depth - 1) for move in state.moves())

    root = start if start is not None else game.start()
    counts = [sequences(root, depth) for depth in range(max_depth + 1)]
    sequences.cache_clear()
    return counts


def distinct_positions(game: Game, max_depth: int, start: State | None = None) -> list[int]:
    """Distinct positions after exactly n plies; a finished game is counted at its ply
    and not expanded."""
    level = {start if start is not None else game.start()}
    counts = [1]
    for _ in range(max_depth):
        level = {state.play(move) for state in level for move in state.moves()}
        counts.append(len(level))
    return counts
