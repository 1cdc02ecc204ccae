"""Desconecta-4 BOOM MCTS kernel: `PythonTree` of `search/mcts.py`, compiled.

It makes exactly the reference's decisions from the same seed: the same SplitMix64
stream, moves listed as `BoomState.moves()` lists them (the open columns left to right,
then BOOM while the mover has a bomb), untried moves expanded in that order, the first
child with the best UCT score selected, playout moves drawn over that list, and the same
floating-point arithmetic. tests/core/test_fast_boom_mcts.py holds it to that.

Positions, moves and the end of the game are the alpha-beta kernel's (boom.py): the side
to move's pieces and the other's, both bombs and the ply. The tree is mcts_tree.py's; a
node also keeps its moves as a bit mask (bit 7 is BOOM), so its untried moves are the
mask's moves past its children.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..games.boom import BOOM, GAME, MAX_PLIES
from ..search.mcts import DEFAULT_EXPLORATION
from .bits import nth_bit, popcount
from .boom import TOP, WIDTH, ZERO, end_value, kernel_position, play
from .mcts_tree import START_CAPACITY, KernelTree, add_child, backup, select_child
from .random import next_random

MAX_DEPTH = MAX_PLIES + 1  # nodes on a path from the root, root included


@njit(cache=True, nogil=True)
def legal_moves(own, other, own_bomb, ply):
    """The state's moves as a bit mask (columns, then bit BOOM): none once it is over."""
    over, _ = end_value(own, other, ply)
    if over:
        return np.uint8(0)
    occupied = own | other
    mask = 0
    for c in range(WIDTH):
        if (occupied & TOP[c]) == ZERO:
            mask |= 1 << c
    if own_bomb != ZERO:
        mask |= 1 << BOOM
    return np.uint8(mask)


@njit(cache=True, nogil=True)
def run(count, own, other, own_bomb, other_bomb, ply, to_move, exploration, nodes,
        child_count, moves, legal, size, rng):
    """`count` iterations of PythonTree.iterate. `size[0]` is the number of nodes; the
    arrays must have room for `count` more. `legal[n]` is node n's moves (a mask)."""
    path = np.empty(MAX_DEPTH, np.int64)
    for _ in range(count):
        node, depth, side = 0, 0, to_move  # side: the side to move
        o, t, ob, tb, p = own, other, own_bomb, other_bomb, ply
        path[0] = 0
        # selection: while the node has children and no untried move
        while 0 < child_count[node] == popcount(np.uint64(legal[node])):
            node = select_child(node, nodes, exploration)
            o, t, ob, tb, p = play(o, t, ob, tb, p, np.int64(moves[node]))
            side = 1 - side
            depth += 1
            path[depth] = node
        # expansion: the first untried move, appended to the children
        if child_count[node] < popcount(np.uint64(legal[node])):
            move = nth_bit(legal[node], child_count[node])
            o, t, ob, tb, p = play(o, t, ob, tb, p, move)
            side = 1 - side
            node = add_child(node, move, nodes, child_count, moves, size)
            legal[node] = legal_moves(o, t, ob, p)
            depth += 1
            path[depth] = node
        # playout: uniformly random moves to the end
        while True:
            mask = legal_moves(o, t, ob, p)
            if mask == 0:
                break
            n = np.uint64(popcount(np.uint64(mask)))
            move = nth_bit(mask, np.int64(next_random(rng) % n))
            o, t, ob, tb, p = play(o, t, ob, tb, p, move)
            side = 1 - side
        _, value = end_value(o, t, p)  # for the side to move
        winner = -1 if value == 0 else (side if value > 0 else 1 - side)
        backup(path, depth, to_move, winner, nodes)


class BoomTree(KernelTree):
    """The MctsTree for BOOM, made by `(state, seed, exploration)`."""

    EXTRA_FIELDS = {"legal": np.uint8}

    def __init__(self, state, seed: int, exploration: float = DEFAULT_EXPLORATION,
                 capacity: int = START_CAPACITY) -> None:
        super().__init__(state.to_move, seed, exploration, capacity)
        self.position = kernel_position(state)
        own, other, own_bomb, _, ply = self.position
        self.legal[0] = legal_moves(own, other, own_bomb, ply)

    def kernel(self, count: int) -> int:
        run(count, *self.position, self.to_move, self.exploration, self.nodes,
            self.child_count, self.moves,
            self.legal, self.size, self.rng)
        return count

    def move_of(self, code) -> int:
        return int(code)


def warm_up() -> None:
    """Compile the kernel (or load it from numba's cache) on a few iterations and a renumbering."""
    BoomTree(GAME.parse_position("1234567123"), 0).warm_up()
