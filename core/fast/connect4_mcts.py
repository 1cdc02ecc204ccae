"""Connect 4 MCTS kernel: `PythonTree` of `search/mcts.py`, compiled.

It makes exactly the reference's decisions from the same seed: the same SplitMix64
stream, untried moves expanded in ascending column order, the first child with the best
UCT score selected, playout moves drawn from the legal columns in ascending order, and
the same floating-point arithmetic. tests/core/test_fast_connect4.py holds it to that.

With the solver variant it proves nodes and plays decisive playouts as the reference
does: a column that wins at once (the lowest), else a random one of the columns after
which the opponent cannot win at once, else any.

The tree is mcts_tree.py's; a node also keeps its legal columns and their number, and
its untried moves are the legal columns after the ones already expanded (children come
in ascending column order).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..games.connect4 import GAME, WIDTH
from ..search.mcts import DEFAULT_EXPLORATION
from .bits import nth_bit
from .connect4 import (BOTTOM, BOTTOM_ROW, COLUMN, FULL, TOP, bitboards, completing_cells,
                       has_four, play, popcount)
from .mcts_tree import (DRAWN, START_CAPACITY, UNPROVEN, WON, KernelTree, add_child,
                        backup, mover_at, prove_path, select_child, winner_of)
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
def random_column(mask, rng):
    """A uniformly random column of `mask`."""
    n = np.uint64(popcount(np.uint64(mask)))
    return nth_bit(mask, np.int64(next_random(rng) % n))


@njit(cache=True, nogil=True)
def decisive_column(own, other, mask, rng):
    """search/mcts.decisive_move: the lowest column that wins at once, else a random
    column (of `mask`, the legal ones) after which the other side has no win at once,
    else a random legal column."""
    occupied = own | other
    winning = completing_cells(own) & (occupied + BOTTOM_ROW) & FULL
    if winning:
        for c in range(WIDTH):
            if winning & COLUMN[c]:
                return c
    threats = completing_cells(other)
    safe = 0
    for c in range(WIDTH):
        if mask & (1 << c):
            after = occupied | ((occupied + BOTTOM[c]) & COLUMN[c])
            if not threats & (after + BOTTOM_ROW) & FULL:
                safe |= 1 << c
    return random_column(safe if safe else mask, rng)


@njit(cache=True, nogil=True)
def run(count, own, other, to_move, exploration, solver, nodes, child_count, moves,
        proof, proof_plies, legal, move_count, size, rng):
    """Up to `count` iterations of PythonTree.iterate (plain, or with the solver);
    returns how many ran (fewer once the root is proven). `size[0]` is the number of
    nodes; the arrays must have room for `count` more. `legal[n]` is node n's legal
    columns, `move_count[n]` how many."""
    path = np.empty(MAX_DEPTH, np.int64)
    for iteration in range(count):
        if proof[0] != UNPROVEN:
            return iteration
        node, depth = 0, 0
        node_own, node_other, side = own, other, to_move  # side: the side to move
        path[0] = 0
        # selection: while the node is unproven with children and no untried move
        while proof[node] == UNPROVEN and 0 < child_count[node] == move_count[node]:
            node = select_child(node, nodes, exploration)
            node_own, node_other = play(node_own, node_other, moves[node])
            side = 1 - side
            depth += 1
            path[depth] = node
        # expansion: the first untried move, appended to the children
        if proof[node] == UNPROVEN and child_count[node] < move_count[node]:
            column = nth_bit(legal[node], child_count[node])
            node_own, node_other = play(node_own, node_other, column)
            side = 1 - side
            node = add_child(node, column, nodes, child_count, moves, size)
            legal[node] = legal_columns(node_own, node_other)
            move_count[node] = popcount(np.uint64(legal[node]))
            depth += 1
            path[depth] = node
            if solver and legal[node] == 0:  # the game is over: proven
                proof[node] = WON if has_four(node_other) else DRAWN
        if proof[node] != UNPROVEN:  # proven: its result, no playout
            winner = winner_of(proof[node], mover_at(depth, to_move))
        else:
            # playout: random (or decisive) legal columns to the end
            while True:
                mask = legal_columns(node_own, node_other)
                if mask == 0:
                    break
                if solver:
                    column = decisive_column(node_own, node_other, mask, rng)
                else:
                    column = random_column(mask, rng)
                node_own, node_other = play(node_own, node_other, column)
                side = 1 - side
            winner = 1 - side if has_four(node_other) else -1  # only the last mover wins
        backup(path, depth, to_move, winner, nodes)
        if proof[node] != UNPROVEN:
            prove_path(path, depth, move_count, child_count, nodes, proof,
                       proof_plies)
    return count


class Connect4Tree(KernelTree):
    """The MctsTree for Connect 4, made by `(state, seed, exploration)`."""

    EXTRA_FIELDS = {"legal": np.uint8, "move_count": np.int8}
    solves = True

    def __init__(self, state, seed: int, exploration: float = DEFAULT_EXPLORATION,
                 capacity: int = START_CAPACITY, solver: bool = False) -> None:
        super().__init__(state.to_move, seed, exploration, capacity, solver)
        self.own, self.other = bitboards(state)
        self.legal[0] = sum(1 << c for c in state.moves())
        self.move_count[0] = len(state.moves())

    def kernel(self, count: int) -> int:
        return run(count, self.own, self.other, self.to_move, self.exploration,
                   self.solver, self.nodes, self.child_count, self.moves, self.proof,
                   self.proof_plies,
                   self.legal, self.move_count, self.size, self.rng)

    def move_of(self, code) -> int:
        return int(code)


def warm_up() -> None:
    """Compile the kernel (or load it from numba's cache) on a few iterations and a renumbering."""
    for solver in (False, True):
        Connect4Tree(GAME.start(), 0, solver=solver).warm_up()
