"""Connect 4 alpha-beta kernel: the reference search of `search/alphabeta.py`, compiled.

A position is two uint64 bitboards in the layout of `games/gravity.py`: `own` for the
side to move and `other` for the side that moved last. Every mask stays np.uint64 (numba
turns uint64/int64 mixes into floats); shift amounts are int64, which numba allows.

The kernel mirrors `AlphaBeta.negamax` line by line (fail-soft negamax, the node count,
the table rules, the move order), so it returns the values the Python search would; the
differential tests in tests/core/test_fast_connect4.py hold it to that.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..games.connect4 import BOARD, CENTRE_BONUS, GAME, WINDOW_SCORES
from ..search.alphabeta import EXACT, LOWER, UPPER
from ..search.control import Budget, SearchControl
from ..values import INFINITY, WIN
from . import bits
from .bits import popcount
from .table import TableBackend, find, from_table, store, thread_backend

WIDTH, CELLS = BOARD.width, BOARD.cells
BOTTOM, TOP, COLUMN, BOTTOM_ROW, FULL, DIRECTIONS = bits.gravity_arrays(BOARD)
ORDER = np.array(GAME.order_moves(None, range(WIDTH)), np.int64)
WEIGHTS = np.array(WINDOW_SCORES, np.int64)
CENTRE = np.array(CENTRE_BONUS, np.int64)


def _window_starts() -> np.ndarray:
    """Per direction, the lowest cell of every window of four, read off BOARD.windows."""
    starts = dict.fromkeys(BOARD.directions, 0)
    for window in BOARD.windows:
        low = (window & -window).bit_length() - 1
        rest = window & (window - 1)
        step = (rest & -rest).bit_length() - 1 - low
        starts[step] |= 1 << low
    return np.array([starts[d] for d in BOARD.directions], np.uint64)


STARTS = _window_starts()




@njit(cache=True, nogil=True)
def has_four(pieces):
    return bits.has_four(pieces, DIRECTIONS)


@njit(cache=True, nogil=True)
def completing_cells(pieces):
    return bits.completing_cells(pieces, DIRECTIONS, FULL)


@njit(cache=True, nogil=True)
def play(own, other, column):
    """The position after the side to move drops a piece in `column` (roles swap)."""
    occupied = own | other
    new = (occupied + BOTTOM[column]) & COLUMN[column]
    return other, own | new


@njit(cache=True, nogil=True)
def end_value(own, other):
    """(over, value): the game's end as `outcome` and `terminal_value` see it."""
    ply = popcount(own | other)
    if has_four(other):
        return True, -(WIN - ply)
    if ply == CELLS:
        return True, np.int64(0)
    return False, np.int64(0)


@njit(cache=True, nogil=True)
def window_score(own, other):
    """connect4.window_score, a direction at a time on bit-sliced counts.

    Bit s of `b[i]` says whether cell i of the window starting at s is `own`'s; adding
    the four planes bit-wise gives every window's count at once.
    """
    total = np.int64(0)
    for i in range(4):
        d = DIRECTIONS[i]
        free = STARTS[i] & ~(other | (other >> d) | (other >> (2 * d)) | (other >> (3 * d)))
        b0, b1 = own & free, (own >> d) & free
        b2, b3 = (own >> (2 * d)) & free, (own >> (3 * d)) & free
        low01, high01 = b0 ^ b1, b0 & b1
        low23, high23 = b2 ^ b3, b2 & b3
        ones = low01 ^ low23
        twos = high01 ^ high23 ^ (low01 & low23)
        fours = high01 & high23
        total += (WEIGHTS[1] * popcount(ones & ~twos) + WEIGHTS[2] * popcount(twos & ~ones)
                  + WEIGHTS[3] * popcount(ones & twos) + WEIGHTS[4] * popcount(fours))
    return total


@njit(cache=True, nogil=True)
def centre_score(pieces):
    total = np.int64(0)
    for c in range(WIDTH):
        total += CENTRE[c] * popcount(pieces & COLUMN[c])
    return total


@njit(cache=True, nogil=True)
def evaluate(own, other):
    """Connect4.evaluate, for the side to move."""
    occupied = own | other
    if completing_cells(own) & ((occupied + BOTTOM_ROW) & FULL):
        return WIN - (popcount(occupied) + 1)
    return (window_score(own, other) - window_score(other, own)
            + centre_score(own) - centre_score(other))


@njit(cache=True, nogil=True)
def negamax(own, other, depth, alpha, beta, keys, values, depths, flags, moves, stamp,
            stop, counters):
    """AlphaBeta.negamax below the live plies. `counters` holds [nodes, node limit,
    stopped]; once stopped, every caller returns at once and stores nothing."""
    nodes = counters[0] + 1
    counters[0] = nodes
    if nodes >= counters[1] or ((nodes & 1023) == 0 and stop[0] != 0):
        counters[2] = 1
        return np.int64(0)
    over, value = end_value(own, other)
    if over:
        return value
    if depth == 0:
        return evaluate(own, other)
    occupied = own | other
    ply = popcount(occupied)
    key = own + occupied
    slot = find(keys, key, stamp)
    table_move = -1
    if slot >= 0:
        table_move = np.int64(moves[slot])
        if depths[slot] >= depth:
            value = from_table(np.int64(values[slot]), ply)
            flag = flags[slot]
            if (flag == EXACT or (flag == LOWER and value >= beta)
                    or (flag == UPPER and value <= alpha)):
                return value
    alpha0 = alpha
    best, best_move = -INFINITY, -1
    for index in range(-1, WIDTH):  # -1: the table's move, then the usual order
        column = table_move if index < 0 else ORDER[index]
        if column < 0 or (index >= 0 and column == table_move) or occupied & TOP[column]:
            continue
        child_own, child_other = play(own, other, column)
        value = -negamax(child_own, child_other, depth - 1, -beta, -alpha, keys, values,
                         depths, flags, moves, stamp, stop, counters)
        if counters[2]:
            return np.int64(0)
        if value > best:
            best, best_move = value, column
        if value > alpha:
            alpha = value
        if alpha >= beta:
            break
    store(keys, values, depths, flags, moves, key, stamp, ply, depth, best, alpha0, beta,
          best_move)
    return best


@njit(cache=True, nogil=True)
def search(own, other, depth, alpha, beta, keys, values, depths, flags, moves, stamp,
           stop, limit):
    """(value, nodes, stopped) of one subtree search under a node limit."""
    counters = np.zeros(3, np.int64)
    counters[1] = limit
    value = negamax(own, other, depth, alpha, beta, keys, values, depths, flags, moves,
                    stamp, stop, counters)
    return value, counters[0], counters[2] != 0


@njit(cache=True, nogil=True)
def probe(own, other, keys, moves, stamp):
    """The table's move for the position, or -1."""
    slot = find(keys, own + (own | other), stamp)
    return np.int64(moves[slot]) if slot >= 0 else -1


def bitboards(state) -> tuple[np.uint64, np.uint64]:
    """(own, other): the side to move's pieces and the other side's."""
    return (np.uint64(state.pieces[state.to_move]),
            np.uint64(state.pieces[1 - state.to_move]))


class Connect4Backend(TableBackend):
    """The alpha-beta TreeBackend for Connect 4: the kernel and its table."""

    def negamax(self, state, depth: int, alpha: int, beta: int, control: SearchControl,
                nodes_so_far: int) -> tuple[int, int]:
        own, other = bitboards(state)
        value, nodes = self.within_budget(control, nodes_so_far, lambda limit: search(
            own, other, depth, int(alpha), int(beta), self.keys, self.values,
            self.depths, self.flags, self.moves, self.stamp, control.stop.array(),
            limit))
        return int(value), int(nodes)

    def best_move(self, state) -> int | None:
        move = probe(*bitboards(state), self.keys, self.moves, self.stamp)
        return None if move < 0 else int(move)


def warm_up() -> None:
    """Compile the kernels (or load them from numba's cache) on a tiny search."""
    backend = thread_backend(Connect4Backend)
    backend.negamax(GAME.start(), 2, -INFINITY, INFINITY, SearchControl(Budget()), 0)
    backend.best_move(GAME.start())
