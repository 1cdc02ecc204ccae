"""Connect 4 MCTS kernel: `PythonTree` of `search/mcts.py`, compiled.

It makes exactly the reference's decisions from the same seed: the same SplitMix64
stream, untried moves expanded in ascending column order, the first child with the best
UCT score selected, playout moves drawn from the legal columns in ascending order, and
the same floating-point arithmetic. tests/core/test_fast_connect4.py holds it to that.

The tree is mcts_tree.py's; a node also keeps its legal columns, and its untried moves
are the legal columns after the ones already expanded (children come in ascending column
order).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..games.connect4 import GAME, WIDTH
from ..search.mcts import DEFAULT_EXPLORATION
from .connect4 import TOP, bitboards, has_four, play, popcount
from .mcts_tree import START_CAPACITY, KernelTree, add_child, backup, select_child
from .random import next_random

MAX_DEPTH = GAME.board.cells + 1  # nodes on a path from the root, root included


@njit(cache=True, nogil=True)
def legal_columns(own, other):
    """The state's moves as a column bit mask: none once the game is over (so an
    empty mask is the end: a running game always has a free column)."""
    occupied = own | other
    if has_four(other):
        return np.uint8(0)
    mask = 0
    for c in range(WIDTH):
        if not occupied & TOP[c]:
            mask |= 1 << c
    return np.uint8(mask)


@njit(cache=True, nogil=True)
def nth_column(mask, n):
    """The n-th (from 0) column set in `mask`, in ascending order."""
    for c in range(WIDTH):
        if mask & (1 << c):
            if n == 0:
                return c
            n -= 1
    return -1


@njit(cache=True, nogil=True)
def run(count, own, other, to_move, exploration, first_child, next_sibling, child_count,
        moves, visits, wins, legal, size, rng):
    """`count` iterations of PythonTree.iterate. `size[0]` is the number of nodes; the
    arrays must have room for `count` more. `legal[n]` is node n's legal columns."""
    path = np.empty(MAX_DEPTH, np.int64)
    for _ in range(count):
        node, depth = 0, 0
        node_own, node_other, side = own, other, to_move  # side: the side to move
        path[0] = 0
        # selection: while the node has children and no untried move
        while 0 < child_count[node] == popcount(np.uint64(legal[node])):
            node = select_child(node, first_child, next_sibling, visits, wins, exploration)
            node_own, node_other = play(node_own, node_other, moves[node])
            side = 1 - side
            depth += 1
            path[depth] = node
        # expansion: the first untried move, appended to the children
        if child_count[node] < popcount(np.uint64(legal[node])):
            column = nth_column(legal[node], child_count[node])
            node_own, node_other = play(node_own, node_other, column)
            side = 1 - side
            node = add_child(node, column, first_child, next_sibling, child_count, moves,
                             visits, wins, size)
            legal[node] = legal_columns(node_own, node_other)
            depth += 1
            path[depth] = node
        # playout: uniformly random legal columns to the end
        while True:
            mask = legal_columns(node_own, node_other)
            if mask == 0:
                break
            n = np.uint64(popcount(np.uint64(mask)))
            column = nth_column(mask, np.int64(next_random(rng) % n))
            node_own, node_other = play(node_own, node_other, column)
            side = 1 - side
        winner = 1 - side if has_four(node_other) else -1  # only the last mover can win
        backup(path, depth, to_move, winner, visits, wins)


class Connect4Tree(KernelTree):
    """The MctsTree for Connect 4, made by `(state, seed, exploration)`."""

    EXTRA_ARRAYS = {"legal": np.uint8}

    def __init__(self, state, seed: int, exploration: float = DEFAULT_EXPLORATION,
                 capacity: int = START_CAPACITY) -> None:
        super().__init__(state.to_move, seed, exploration, capacity)
        self.own, self.other = bitboards(state)
        self.legal[0] = sum(1 << c for c in state.moves())

    def kernel(self, count: int) -> None:
        run(count, self.own, self.other, self.to_move, self.exploration, self.first_child,
            self.next_sibling, self.child_count, self.moves, self.visits, self.wins,
            self.legal, self.size, self.rng)

    def move_of(self, code) -> int:
        return int(code)


def warm_up() -> None:
    """Compile the kernel (or load it from numba's cache) on a few iterations."""
    Connect4Tree(GAME.start(), 0).run(2)
