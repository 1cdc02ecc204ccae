"""Cephalopod MCTS kernel: `PythonTree` of `search/mcts.py`, compiled, for every size.

It makes exactly the reference's decisions from the same seed: the same SplitMix64
stream, moves listed in the order `CephalopodState.moves()` lists them (cells in index
order, on each the capture subsets in CAPTURE_MASKS order, else a plain placement),
untried moves expanded in that order, the first child with the best UCT score selected,
playout moves drawn over that whole list, and the same floating-point arithmetic.
tests/core/test_fast_cephalopod.py holds it to that.

A position is an int64 array of cells (+pips Red, -pips Blue, 0 empty) with the board's
neighbour table (cells x [up, right, down, left], -1 off the board), so one compiled
kernel serves every board size. A move is `cell * 16 + mask`, the mask holding the
directions of the captured neighbours (0 for a plain placement).

The tree is mcts_tree.py's; a node also keeps how many moves it has: its untried moves
are its list's moves past the children, listed again from the position when the next
one is expanded.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..games.cephalopod import CAPTURE_MASKS, MAX_SUM, CephalopodMove
from ..search.mcts import DEFAULT_EXPLORATION
from .mcts_tree import START_CAPACITY, KernelTree, add_child, backup, select_child
from .random import next_random

MASKS = np.array(CAPTURE_MASKS, np.int64)
MOVES_PER_CELL = len(CAPTURE_MASKS)  # at most, on one empty cell


@njit(cache=True, nogil=True)
def list_moves(cells, neighbours, out):
    """Write the position's moves into `out` in the rules' order; return how many (0
    once the board is full, which is the end of the game)."""
    count = 0
    for cell in range(cells.size):
        if cells[cell] != 0:
            continue
        occupied = 0
        for d in range(4):
            n = neighbours[cell, d]
            if n >= 0 and cells[n] != 0:
                occupied |= 1 << d
        first = count
        for mask in MASKS:
            if mask & occupied == mask:
                pips = 0
                for d in range(4):
                    if mask >> d & 1:
                        pips += abs(cells[neighbours[cell, d]])
                if pips <= MAX_SUM:
                    out[count] = cell * 16 + mask
                    count += 1
        if count == first:
            out[count] = cell * 16
            count += 1
    return count


@njit(cache=True, nogil=True)
def play(cells, neighbours, move, side):
    """Play `move` for `side` in place: remove the captured dice, place their sum or 1."""
    cell, mask = move >> 4, move & 15
    pips = 0
    for d in range(4):
        if mask >> d & 1:
            n = neighbours[cell, d]
            pips += abs(cells[n])
            cells[n] = 0
    if pips == 0:
        pips = 1
    cells[cell] = pips if side == 0 else -pips


@njit(cache=True, nogil=True)
def run(count, root_cells, neighbours, to_move, exploration, nodes, child_count,
        moves, move_count, size, rng):
    """`count` iterations of PythonTree.iterate. `size[0]` is the number of nodes; the
    arrays must have room for `count` more. `move_count[n]` is node n's number of moves."""
    cells = np.empty_like(root_cells)
    listed = np.empty(root_cells.size * MOVES_PER_CELL, np.int64)
    # a game lasts at most 2 * MAX_SUM plies a cell: a placement adds a pip to the
    # board's total (at most MAX_SUM a cell), a capture keeps it and removes a die
    path = np.empty(2 * MAX_SUM * root_cells.size + 1, np.int64)
    for _ in range(count):
        cells[:] = root_cells
        node, depth, side = 0, 0, to_move  # side: the side to move
        path[0] = 0
        # selection: while the node has children and no untried move
        while 0 < child_count[node] == move_count[node]:
            node = select_child(node, nodes, exploration)
            play(cells, neighbours, moves[node], side)
            side = 1 - side
            depth += 1
            path[depth] = node
        # expansion: the first untried move, appended to the children
        expanded = child_count[node] < move_count[node]
        if expanded:
            list_moves(cells, neighbours, listed)
            move = listed[child_count[node]]
            play(cells, neighbours, move, side)
            side = 1 - side
            node = add_child(node, move, nodes, child_count, moves, size)
            depth += 1
            path[depth] = node
        # playout: uniformly random moves to the full board
        legal = list_moves(cells, neighbours, listed)
        if expanded:
            move_count[node] = legal
        while legal > 0:
            pick = np.int64(next_random(rng) % np.uint64(legal))
            play(cells, neighbours, listed[pick], side)
            side = 1 - side
            legal = list_moves(cells, neighbours, listed)
        red, blue = 0, 0
        for value in cells:
            red += value > 0
            blue += value < 0
        backup(path, depth, to_move, 0 if red > blue else 1, nodes)  # no draws


def decode(code: int, neighbours) -> CephalopodMove:
    """The rules' move for a kernel move code (`cell * 16 + mask`), given the game's
    neighbour table."""
    cell, mask = divmod(int(code), 16)
    around = neighbours[cell]
    return CephalopodMove(cell, tuple(around[d] for d in range(4) if mask >> d & 1))


class CephalopodTree(KernelTree):
    """The MctsTree for Cephalopod of any size, made by `(state, seed, exploration)`."""

    EXTRA_FIELDS = {"move_count": np.int16}

    def __init__(self, state, seed: int, exploration: float = DEFAULT_EXPLORATION,
                 capacity: int = START_CAPACITY) -> None:
        super().__init__(state.to_move, seed, exploration, capacity)
        self.table = state.game.neighbours  # as tuples, to decode moves in Python
        self.cells = np.array(state.cells, np.int64)
        self.neighbours = np.array(self.table, np.int64)
        listed = np.empty(self.cells.size * MOVES_PER_CELL, np.int64)
        self.move_count[0] = list_moves(self.cells, self.neighbours, listed)

    def kernel(self, count: int) -> int:
        run(count, self.cells, self.neighbours, self.to_move, self.exploration,
            self.nodes, self.child_count, self.moves, self.move_count, self.size, self.rng)
        return count

    def move_of(self, code) -> CephalopodMove:
        return decode(code, self.table)


def warm_up() -> None:
    """Compile the kernels (or load them from numba's cache) on a few iterations and a renumbering."""
    from ..games.cephalopod import Cephalopod

    CephalopodTree(Cephalopod().start(), 0).warm_up()
