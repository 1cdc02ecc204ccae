"""What the MCTS kernels share: the tree in numpy arrays, and its selection, expansion
and backup steps, exactly as PythonTree in search/mcts.py takes them.

Node 0 is the root. A node's children form a list (`first_child`, then `next_sibling`)
in expansion order; a list rather than a row of slots per node keeps a node small, which
matters as a tree gains a node per iteration, up to a million a second. A game's kernel
supplies the rest: how to list and play its moves, and who won a playout.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..game import PlygroundError
from ..rng import MASK64

START_CAPACITY = 1 << 16
NODE_ARRAYS = {"first_child": np.int32, "next_sibling": np.int32, "child_count": np.int16,
               "moves": np.int16, "visits": np.int64, "wins": np.float64}


@njit(cache=True, nogil=True)
def select_child(node, first_child, next_sibling, visits, wins, exploration):
    """The first child with the highest UCT score, in expansion order."""
    best, best_score = first_child[node], -math.inf
    child = first_child[node]
    while child >= 0:
        score = wins[child] / visits[child] + exploration * math.sqrt(
            math.log(visits[node]) / visits[child])
        if score > best_score:
            best, best_score = child, score
        child = next_sibling[child]
    return best


@njit(cache=True, nogil=True)
def add_child(node, move, first_child, next_sibling, child_count, moves, visits, wins,
              size):
    """A new node for `move`, appended to `node`'s children; returns its index."""
    child = size[0]
    size[0] += 1
    first_child[child], next_sibling[child], child_count[child] = -1, -1, 0
    moves[child], visits[child], wins[child] = move, 0, 0.0
    if child_count[node] == 0:
        first_child[node] = child
    else:
        last = first_child[node]
        while next_sibling[last] >= 0:
            last = next_sibling[last]
        next_sibling[last] = child
    child_count[node] += 1
    return child


@njit(cache=True, nogil=True)
def backup(path, depth, to_move, winner, visits, wins):
    """Count a visit and the result (1 win, 0.5 draw, 0 loss; `winner` -1 for a draw)
    for the side that moved into each node of `path[0..depth]`."""
    for k in range(depth + 1):
        node = path[k]
        mover = (to_move + k + 1) & 1  # the root's "mover" is the side not to move
        visits[node] += 1
        wins[node] += 0.5 if winner < 0 else (1.0 if winner == mover else 0.0)


class KernelTree:
    """The Python side of a kernel tree (the MctsTree protocol of search/mcts.py):
    arrays sized for the search's iterations when it has a count, else grown by half
    when a run might not fit (running out of memory is said as such); the root's
    children, the principal variation. A game's tree adds its own per-node arrays
    (`EXTRA_ARRAYS`), runs its kernel (`kernel`) and turns a stored move code into a
    move (`move_of`)."""

    EXTRA_ARRAYS: dict = {}

    def __init__(self, to_move: int, seed: int, exploration: float,
                 capacity: int = START_CAPACITY) -> None:
        self.to_move = to_move
        self.exploration = float(exploration)
        self.rng = np.array([seed & MASK64], np.uint64)
        self.size = np.ones(1, np.int64)
        self.iterations = 0
        self.arrays = {**NODE_ARRAYS, **self.EXTRA_ARRAYS}
        for name, dtype in self.arrays.items():
            setattr(self, name, np.zeros(capacity, dtype))
        self.first_child[:] = -1
        self.next_sibling[:] = -1

    def run(self, count: int) -> None:
        needed = int(self.size[0]) + count  # an iteration adds at most one node
        if needed > len(self.visits):
            self.grow(max(needed, len(self.visits) * 3 // 2))
        self.kernel(count)
        self.iterations += count

    def grow(self, capacity: int) -> None:
        """Room for `capacity` nodes (new ones get their values as they are made)."""
        try:
            for name in self.arrays:
                setattr(self, name, np.resize(getattr(self, name), capacity))
        except MemoryError:
            raise PlygroundError(
                f"MCTS ran out of memory: its tree holds {int(self.size[0]):,} nodes after "
                f"{self.iterations:,} iterations (a node each); give it fewer iterations "
                "or less time") from None

    def kernel(self, count: int) -> None:
        raise NotImplementedError

    def move_of(self, code: int):
        raise NotImplementedError

    def children(self, node: int) -> list[int]:
        found, child = [], int(self.first_child[node])
        while child >= 0:
            found.append(child)
            child = int(self.next_sibling[child])
        return found

    def root_children(self) -> list[tuple]:
        return [(self.move_of(self.moves[c]), int(self.visits[c]), float(self.wins[c]))
                for c in self.children(0)]

    def principal_variation(self) -> tuple:
        line, node = [], 0
        while self.child_count[node]:
            node = max(self.children(node), key=lambda c: self.visits[c])
            line.append(self.move_of(self.moves[node]))
        return tuple(line)
