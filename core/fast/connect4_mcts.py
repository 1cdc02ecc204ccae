"""Connect 4 MCTS kernel: `PythonTree` of `search/mcts.py`, compiled.

It makes exactly the reference's decisions from the same seed: the same SplitMix64
stream, untried moves expanded in ascending column order, the first child with the best
UCT score selected, playout moves drawn from the legal columns in ascending order, and
the same floating-point arithmetic. tests/core/test_fast_connect4.py holds it to that.

The tree lives in numpy arrays, node 0 being the root. A node's children form a list
(`first_child`, then `next_sibling`) in expansion order, which is ascending column
order; its untried moves are the legal columns after the ones already expanded. A list
rather than a row of seven slots per node halves the memory, which matters as a tree
gains a node per iteration, about a million a second.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..games.connect4 import GAME, WIDTH
from ..rng import GOLDEN, MASK64
from ..search.mcts import DEFAULT_EXPLORATION
from .connect4 import TOP, bitboards, has_four, play, popcount

GOLDEN64 = np.uint64(GOLDEN)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
MAX_DEPTH = GAME.board.cells + 1  # nodes on a path from the root, root included
START_CAPACITY = 1 << 16
ARRAYS = ("first_child", "next_sibling", "child_count", "legal", "moves", "visits", "wins")


@njit(cache=True, nogil=True)
def next_random(rng):
    """SplitMix64.next on the one-element state array `rng`."""
    z = rng[0] + GOLDEN64
    rng[0] = z
    z = (z ^ (z >> 30)) * MIX1
    z = (z ^ (z >> 27)) * MIX2
    return z ^ (z >> 31)


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
        legal, moves, visits, wins, size, rng):
    """`count` iterations of PythonTree.iterate. `size[0]` is the number of nodes; the
    arrays must have room for `count` more."""
    path = np.empty(MAX_DEPTH, np.int64)
    for _ in range(count):
        node, depth = 0, 0
        node_own, node_other, side = own, other, to_move  # side: the side to move
        path[0] = 0
        # selection: while the node has children and no untried move
        while 0 < child_count[node] == popcount(np.uint64(legal[node])):
            best, best_score = first_child[node], -math.inf
            child = first_child[node]
            while child >= 0:
                score = wins[child] / visits[child] + exploration * math.sqrt(
                    math.log(visits[node]) / visits[child])
                if score > best_score:
                    best, best_score = child, score
                child = next_sibling[child]
            node = best
            node_own, node_other = play(node_own, node_other, moves[node])
            side = 1 - side
            depth += 1
            path[depth] = node
        # expansion: the first untried move, appended to the children
        if child_count[node] < popcount(np.uint64(legal[node])):
            column = nth_column(legal[node], child_count[node])
            node_own, node_other = play(node_own, node_other, column)
            side = 1 - side
            child = size[0]
            size[0] += 1
            first_child[child], next_sibling[child], child_count[child] = -1, -1, 0
            legal[child] = legal_columns(node_own, node_other)
            moves[child], visits[child], wins[child] = column, 0, 0.0
            if child_count[node] == 0:
                first_child[node] = child
            else:
                last = first_child[node]
                while next_sibling[last] >= 0:
                    last = next_sibling[last]
                next_sibling[last] = child
            child_count[node] += 1
            node = child
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
        # backup: the result for the side that moved into each node
        for k in range(depth + 1):
            node = path[k]
            mover = (to_move + k + 1) & 1  # the root's "mover" is the side not to move
            visits[node] += 1
            wins[node] += 0.5 if winner < 0 else (1.0 if winner == mover else 0.0)


class Connect4Tree:
    """The MctsTree for Connect 4 (see search/mcts.py), made by `(state, seed,
    exploration)`. The arrays grow by half when a run might not fit."""

    def __init__(self, state, seed: int, exploration: float = DEFAULT_EXPLORATION,
                 capacity: int = START_CAPACITY) -> None:
        self.own, self.other = bitboards(state)
        self.to_move = state.to_move
        self.exploration = float(exploration)
        self.rng = np.array([seed & MASK64], np.uint64)
        self.size = np.ones(1, np.int64)
        self.iterations = 0
        self.first_child = np.full(capacity, -1, np.int32)
        self.next_sibling = np.full(capacity, -1, np.int32)
        self.child_count = np.zeros(capacity, np.int8)
        self.legal = np.zeros(capacity, np.uint8)
        self.moves = np.zeros(capacity, np.int8)
        self.visits = np.zeros(capacity, np.int64)
        self.wins = np.zeros(capacity, np.float64)
        self.legal[0] = sum(1 << c for c in state.moves())

    def run(self, count: int) -> None:
        needed = int(self.size[0]) + count  # an iteration adds at most one node
        if needed > len(self.visits):
            capacity = max(needed, len(self.visits) * 3 // 2)
            for name in ARRAYS:
                old = getattr(self, name)
                setattr(self, name, np.resize(old, capacity))  # new nodes get set as made
        run(count, self.own, self.other, self.to_move, self.exploration, self.first_child,
            self.next_sibling, self.child_count, self.legal, self.moves, self.visits,
            self.wins, self.size, self.rng)
        self.iterations += count

    def children(self, node: int) -> list[int]:
        found, child = [], int(self.first_child[node])
        while child >= 0:
            found.append(child)
            child = int(self.next_sibling[child])
        return found

    def root_children(self) -> list[tuple[int, int, float]]:
        return [(int(self.moves[c]), int(self.visits[c]), float(self.wins[c]))
                for c in self.children(0)]

    def principal_variation(self) -> tuple:
        line, node = [], 0
        while self.child_count[node]:
            node = max(self.children(node), key=lambda c: self.visits[c])
            line.append(int(self.moves[node]))
        return tuple(line)


def warm_up() -> None:
    """Compile the kernel (or load it from numba's cache) on a few iterations."""
    Connect4Tree(GAME.start(), 0).run(2)
