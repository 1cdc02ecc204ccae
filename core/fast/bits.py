"""Bit tricks the kernels share: population count, a 64-bit mixer for hashing, and the
four-in-a-line tests of the gravity boards (games/gravity.py's, on uint64 bitboards,
for any board size: the caller passes its shift per direction and its full mask)."""
from __future__ import annotations

import numpy as np
from numba import njit

M1 = np.uint64(0x5555555555555555)
M2 = np.uint64(0x3333333333333333)
M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
H01 = np.uint64(0x0101010101010101)
MIX = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, nogil=True)
def popcount(x):
    x = x - ((x >> 1) & M1)
    x = (x & M2) + ((x >> 2) & M2)
    x = (x + (x >> 4)) & M4
    return np.int64((x * H01) >> 56)


@njit(cache=True, nogil=True)
def nth_bit(mask, n):
    """The index of the `n`th (from 0) bit set in `mask`, lowest first (-1 if it has
    fewer): a kernel's n-th move of a move mask."""
    rest, index = np.int64(mask), 0
    while rest:
        if rest & 1:
            if n == 0:
                return index
            n -= 1
        rest >>= 1
        index += 1
    return -1


@njit(cache=True, nogil=True)
def mix(x):
    """SplitMix64's finaliser: a bijection spreading every input bit over the output."""
    x = (x ^ (x >> np.uint64(30))) * MIX
    x = (x ^ (x >> np.uint64(27))) * MIX2
    return x ^ (x >> np.uint64(31))


@njit(cache=True, nogil=True)
def has_four(pieces, directions):
    """GravityBoard.has_four."""
    for d in directions:
        pairs = pieces & (pieces >> d)
        if pairs & (pairs >> (2 * d)):
            return True
    return False


@njit(cache=True, nogil=True)
def completing_cells(pieces, directions, full):
    """GravityBoard.completing_cells: every cell that would give `pieces` a four."""
    found = np.uint64(0)
    for d in directions:
        pairs = (pieces << d) & (pieces << (2 * d))
        found |= pairs & (pieces << (3 * d))
        found |= pairs & (pieces >> d)
        pairs = (pieces >> d) & (pieces >> (2 * d))
        found |= pairs & (pieces >> (3 * d))
        found |= pairs & (pieces << d)
    return found & full


def gravity_arrays(board) -> tuple:
    """A GravityBoard's masks as kernel constants: (bottom bit per column, top bit per
    column, column masks, bottom row, full board, shift per direction)."""
    columns = range(board.width)
    return (np.array([board.bottom_bit(c) for c in columns], np.uint64),
            np.array([board.top_bit(c) for c in columns], np.uint64),
            np.array([board.column_mask(c) for c in columns], np.uint64),
            np.uint64(board.bottom_row), np.uint64(board.full_board),
            np.array(board.directions, np.int64))
