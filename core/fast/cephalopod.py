"""Cephalopod alpha-beta kernel: the reference search of `search/alphabeta.py`, compiled,
on the rules of `games/cephalopod.py`, for every board size.

A position is an int64 array of cells (+pips Red, -pips Blue, 0 empty), the side to
move and the ply, with the board's neighbour table; moves are `cell * 16 + mask` and are
listed and played as the MCTS kernel (cephalopod_mcts.py) does. The kernel mirrors
`AlphaBeta.negamax` line by line (fail-soft negamax, the node count, the table rules,
the move order: the table's move, then `Cephalopod.order_moves`: captures of the most
dice first, ties in the rules' order), so it returns the values the Python search
would; tests/core/test_fast_cephalopod_search.py holds it to that. Positions never
repeat (a move adds a pip or, capturing, keeps the pips on fewer dice), so there is no
repetition rule to mirror.

The table key is exact: each cell takes 4 bits (pips + 6); the first 16 cells fill a
64-bit word, the others (9 at most) and the side to move 37 bits more. The word, XORed
with a hash of the rest, goes through a bijective mixer; the key is its top KEY_BITS
bits, and the check array holds its other bits with the rest, as in the BOOM kernel.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..games.cephalopod import DIE_WEIGHT, MAX_SUM, SAFE_WEIGHT, Cephalopod
from ..search.alphabeta import MAX_DEPTH
from ..search.control import Budget, SearchControl
from ..values import INFINITY, WIN
from .bits import mix
from .cephalopod_mcts import MOVES_PER_CELL, decode, list_moves
from .table import (KEY_BITS, TableBackend, checked_move, lookup, store,
                    thread_backend)

REST_BITS = 64 - KEY_BITS
ONE = np.uint64(1)
REST_MASK = np.uint64((1 << REST_BITS) - 1)


@njit(cache=True, nogil=True)
def end_value(cells, side, ply):
    """(over, value): the board full, the side with more dice wins (`terminal_value`
    for the side to move); else not over."""
    red, blue = 0, 0
    for value in cells:
        if value == 0:
            return False, np.int64(0)
        if value > 0:
            red += 1
        else:
            blue += 1
    winner = 0 if red > blue else 1
    return True, np.int64(WIN - ply if winner == side else -(WIN - ply))


@njit(cache=True, nogil=True)
def evaluate(cells, neighbours, side):
    """Cephalopod.evaluate for the side to move: dice and uncapturable dice (6s and
    dice with no empty neighbour), its own minus the opponent's."""
    dice, safe = 0, 0
    for cell in range(cells.size):
        value = cells[cell]
        if value == 0:
            continue
        sign = 1 if (value > 0) == (side == 0) else -1
        dice += sign
        capturable = False
        if abs(value) != MAX_SUM:
            for d in range(4):
                n = neighbours[cell, d]
                if n >= 0 and cells[n] == 0:
                    capturable = True
                    break
        if not capturable:
            safe += sign
    return np.int64(DIE_WEIGHT * dice + SAFE_WEIGHT * safe)


@njit(cache=True, nogil=True)
def table_key(cells, side):
    """(key, check): together, the whole position, exactly (see the module's doc)."""
    low, high = np.uint64(0), np.uint64(0)
    for cell in range(cells.size):
        digit = np.uint64(cells[cell] + 6)
        if cell < 16:
            low = (low << np.uint64(4)) | digit
        else:
            high = (high << np.uint64(4)) | digit
    high = (high << ONE) | np.uint64(side)
    hashed = mix(low ^ mix(high + ONE))
    rest = np.uint64(REST_BITS)
    return hashed >> rest, (hashed & REST_MASK) | (high << rest)


@njit(cache=True, nogil=True)
def captures(move):
    """How many dice a move captures (its mask's bits)."""
    mask = move & 15
    return (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) + (mask >> 3 & 1)


@njit(cache=True, nogil=True)
def taken(cells, neighbours, cell, mask, d):
    """The value of the die the move takes in direction `d`, 0 for none."""
    return cells[neighbours[cell, d]] if mask >> d & 1 else np.int64(0)


@njit(cache=True, nogil=True)
def play(cells, neighbours, move, side):
    """Play `move` in place; returns the captured dice's values, for `undo`."""
    cell, mask = move >> 4, move & 15
    up = taken(cells, neighbours, cell, mask, 0)
    right = taken(cells, neighbours, cell, mask, 1)
    down = taken(cells, neighbours, cell, mask, 2)
    left = taken(cells, neighbours, cell, mask, 3)
    pips = abs(up) + abs(right) + abs(down) + abs(left)
    for d in range(4):
        if mask >> d & 1:
            cells[neighbours[cell, d]] = 0
    if pips == 0:
        pips = 1
    cells[cell] = pips if side == 0 else -pips
    return up, right, down, left


@njit(cache=True, nogil=True)
def undo(cells, neighbours, move, saved):
    """Take `move` back: `saved` is what `play` returned."""
    cell, mask = move >> 4, move & 15
    cells[cell] = 0
    for d in range(4):
        if mask >> d & 1:
            cells[neighbours[cell, d]] = saved[d]


@njit(cache=True, nogil=True)
def ordered_moves(cells, neighbours, scratch):
    """Cephalopod.order_moves of the position's moves, in `scratch[1]`: the most
    captures first, ties in the rules' order (listed in `scratch[0]`); returns how many."""
    listed, ordered = scratch[0], scratch[1]
    count = list_moves(cells, neighbours, listed)
    placed = 0
    for wanted in range(4, -1, -1):
        for index in range(count):
            if captures(listed[index]) == wanted:
                ordered[placed] = listed[index]
                placed += 1
    return count


@njit(cache=True, nogil=True)
def negamax(cells, neighbours, side, ply, depth, alpha, beta, keys, checks, values,
            depths, flags, moves, stamp, stop, counters, scratch, level):
    """AlphaBeta.negamax below the live plies. `counters` holds [nodes, node limit,
    stopped]; once stopped, every caller returns at once and stores nothing. `scratch`
    holds each level of the subtree's moves (ordered_moves)."""
    nodes = counters[0] + 1
    counters[0] = nodes
    if nodes >= counters[1] or ((nodes & 1023) == 0 and stop[0] != 0):
        counters[2] = 1
        return np.int64(0)
    over, value = end_value(cells, side, ply)
    if over:
        return value
    if depth == 0:
        return evaluate(cells, neighbours, side)
    key, check = table_key(cells, side)
    table_move, settles, value = lookup(keys, checks, values, depths, flags, moves, key,
                                        check, stamp, ply, depth, alpha, beta)
    if settles:
        return value
    count = ordered_moves(cells, neighbours, scratch[level])
    row = scratch[level, 1]
    alpha0 = alpha
    best, best_move = -INFINITY, -1
    for index in range(-1, count):  # -1: the table's move, then the game's order
        move = table_move if index < 0 else row[index]
        if move < 0 or (index >= 0 and move == table_move):
            continue
        saved = play(cells, neighbours, move, side)
        value = -negamax(cells, neighbours, 1 - side, ply + 1, depth - 1, -beta, -alpha,
                         keys, checks, values, depths, flags, moves, stamp, stop, counters,
                         scratch, level + 1)
        undo(cells, neighbours, move, saved)
        if counters[2]:
            return np.int64(0)
        if value > best:
            best, best_move = value, move
        if value > alpha:
            alpha = value
        if alpha >= beta:
            break
    slot = store(keys, values, depths, flags, moves, key, stamp, ply, depth, best, alpha0,
                 beta, best_move)
    checks[slot] = check
    return best


@njit(cache=True, nogil=True)
def search(cells, neighbours, side, ply, depth, alpha, beta, keys, checks, values,
           depths, flags, moves, stamp, stop, limit):
    """(value, nodes, stopped) of one subtree search under a node limit."""
    counters = np.zeros(3, np.int64)
    counters[1] = limit
    scratch = np.empty((MAX_DEPTH + 1, 2, cells.size * MOVES_PER_CELL), np.int64)
    board = cells.copy()
    value = negamax(board, neighbours, side, ply, depth, alpha, beta, keys, checks,
                    values, depths, flags, moves, stamp, stop, counters, scratch,
                    np.int64(0))  # not a literal: one compiled signature, as cached
    return value, counters[0], counters[2] != 0


@njit(cache=True, nogil=True)
def probe(cells, side, keys, checks, moves, stamp):
    """The table's move code for the position, or -1."""
    key, check = table_key(cells, side)
    return checked_move(keys, checks, moves, key, check, stamp)


class CephalopodBackend(TableBackend):
    """The alpha-beta TreeBackend for Cephalopod of any size: the kernel and its table."""

    move_type = np.int16  # cell * 16 + mask: up to 399

    def __init__(self) -> None:
        super().__init__()
        self.checks = np.zeros(len(self.keys), np.uint64)
        self.neighbours: dict[str, np.ndarray] = {}

    def neighbour_table(self, game) -> np.ndarray:
        if game.spec not in self.neighbours:
            self.neighbours[game.spec] = np.array(game.neighbours, np.int64)
        return self.neighbours[game.spec]

    def negamax(self, state, depth: int, alpha: int, beta: int, control: SearchControl,
                nodes_so_far: int) -> tuple[int, int]:
        cells, neighbours = np.array(state.cells, np.int64), self.neighbour_table(state.game)
        value, nodes = self.within_budget(control, nodes_so_far, lambda limit: search(
            cells, neighbours, state.to_move, state.ply, depth, int(alpha), int(beta),
            self.keys, self.checks, self.values, self.depths, self.flags, self.moves,
            self.stamp, control.stop.array(), limit))
        return int(value), int(nodes)

    def best_move(self, state):
        code = probe(np.array(state.cells, np.int64), state.to_move, self.keys,
                     self.checks, self.moves, self.stamp)
        return None if code < 0 else decode(code, state.game.neighbours)


def warm_up() -> None:
    """Compile the kernels (or load them from numba's cache) on a small search."""
    game = Cephalopod()
    state = game.parse_position("r1..../.b1.../...../...../..... r")
    backend = thread_backend(CephalopodBackend)
    backend.negamax(state, 3, -INFINITY, INFINITY, SearchControl(Budget()), 0)
    backend.best_move(state)
