"""Desconecta-4 BOOM alpha-beta kernel: the reference search of `search/alphabeta.py`,
compiled, on the rules of `games/boom.py`.

A position is `own` and `other` (the side to move's pieces and the other side's, uint64
bitboards in the layout of `games/gravity.py`, bombs included), each side's bomb bit (0
for none) and the ply, which fixes each side's turn count and the 300-ply cap. Every
mask stays np.uint64 (numba turns uint64/int64 mixes into floats); shift amounts are
int64, which numba allows.

The kernel mirrors `AlphaBeta.negamax` line by line (fail-soft negamax, the node count,
the table rules, the move order: the table's move, then BOOM, then the columns left to
right), so it returns the values the Python search would; the differential tests in
tests/core/test_fast_boom.py hold it to that.

The table key is exact although the position needs 77 bits: the pieces pack into 56
(`own + occupied`, one value per column since pieces always stand on the floor), the
ply and both bombs into 21 more. The 56 bits, XORed with a hash of the other 21, go
through a bijective mixer; the table key is the top KEY_BITS bits of the result, and
the check array holds the 15 bits left plus the 21, so two positions with the same key
and check are the same position.

A position the game has already had (`seen`: sorted 64-bit hashes of the positions up
to the root, by `repetition_hash`) scores REPEAT_CONTEMPT against the root's side
(`seen_by`, the root's ply parity), as `TreeSearch.enter` scores it.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..games.boom import (BOARD, BOMB_BONUS, BOMB_EVERY, BOOM, GAME, MAX_PLIES,
                          PIECE_COST, POISON_COST, REPEAT_CONTEMPT, SAFE_COLUMN_BONUS)
from ..search.control import Budget, SearchControl
from ..values import INFINITY, WIN
from . import bits
from .bits import mix, popcount
from .table import (KEY_BITS, TableBackend, checked_move, lookup, store,
                    thread_backend)

WIDTH, HEIGHT, STRIDE = BOARD.width, BOARD.height, BOARD.stride
BOTTOM, TOP, COLUMN, BOTTOM_ROW, FULL, DIRECTIONS = bits.gravity_arrays(BOARD)
ORDER = np.array(GAME.order_moves(None, [*range(WIDTH), BOOM]), np.int64)
REST_BITS = 64 - KEY_BITS  # the mixed word's bits that go to the check array

ZERO = np.uint64(0)
ONE = np.uint64(1)
REST_MASK = np.uint64((1 << REST_BITS) - 1)
NOTHING_SEEN = np.zeros(0, np.uint64)


@njit(cache=True, nogil=True)
def has_four(pieces):
    return bits.has_four(pieces, DIRECTIONS)


@njit(cache=True, nogil=True)
def completing_cells(pieces):
    return bits.completing_cells(pieces, DIRECTIONS, FULL)


@njit(cache=True, nogil=True)
def gets_bomb(own_bomb, ply):
    """Whether the mover's piece at `ply` is its bomb (its 5th, 10th ... turn, no bomb
    down)."""
    return own_bomb == ZERO and (ply // 2 + 1) % BOMB_EVERY == 0


@njit(cache=True, nogil=True)
def fall(board, bit):
    """`board` with the cell `bit` emptied and what stood above it fallen by one."""
    column = COLUMN[popcount(bit - ONE) // STRIDE]
    above = column & ~((bit << 1) - ONE)
    return (board & ~(above | bit)) | ((board & above) >> 1)


@njit(cache=True, nogil=True)
def play(own, other, own_bomb, other_bomb, ply, move):
    """(own, other, own bomb, other bomb, ply) after the side to move plays `move`
    (a column, or BOOM); the roles swap."""
    if move == BOOM:
        row = popcount(own_bomb - ONE) % STRIDE
        removed = own & (BOTTOM_ROW << row)
        for c in range(WIDTH):
            bit = removed & COLUMN[c]
            if bit:
                own, other = fall(own, bit), fall(other, bit)
                own_bomb, other_bomb = fall(own_bomb, bit), fall(other_bomb, bit)
        return other, own, other_bomb, own_bomb, ply + 1
    new = ((own | other) + BOTTOM[move]) & COLUMN[move]
    if gets_bomb(own_bomb, ply):
        own_bomb = new
    return other, own | new, other_bomb, own_bomb, ply + 1


@njit(cache=True, nogil=True)
def end_value(own, other, ply):
    """(over, value): the game's end as `outcome` and `terminal_value` see it. `other`
    has just acted: if both sides hold a line (after a BOOM), it loses."""
    own_line, other_line = has_four(own), has_four(other)
    if other_line:
        return True, np.int64(WIN - ply)
    if own_line:
        return True, np.int64(-(WIN - ply))
    if (own | other) == FULL or ply >= MAX_PLIES:
        return True, np.int64(0)
    return False, np.int64(0)


@njit(cache=True, nogil=True)
def evaluate(own, other, own_bomb, other_bomb, ply):
    """Boom.evaluate, for the side to move (a finished game: its end's value)."""
    over, value = end_value(own, other, ply)
    if over:
        return value
    value = PIECE_COST * (popcount(other) - popcount(own))
    if own_bomb:
        value += BOMB_BONUS
    if other_bomb:
        value -= BOMB_BONUS
    occupied = own | other
    empty = FULL & ~occupied
    playable = (occupied + BOTTOM_ROW) & FULL
    own_poison = completing_cells(own) & empty
    other_poison = completing_cells(other) & empty
    own_safe = popcount(playable & ~own_poison)
    other_safe = popcount(playable & ~other_poison)
    if own_safe == 0 and own_bomb == ZERO:
        return np.int64(-(WIN - (ply + 1)))
    return (value + POISON_COST * (popcount(other_poison) - popcount(own_poison))
            + SAFE_COLUMN_BONUS * (own_safe - other_safe))


@njit(cache=True, nogil=True)
def bomb_code(bomb):
    """0 for no bomb, else the bomb's bit index plus one (6 bits)."""
    if bomb == ZERO:
        return ZERO
    return np.uint64(popcount(bomb - ONE) + 1)


@njit(cache=True, nogil=True)
def packed(own, other, own_bomb, other_bomb, ply):
    """(high, hashed): the ply and bombs in 21 bits, and them with the pieces' 56
    through the mixer (see the module's doc)."""
    low = own + (own | other)
    high = (np.uint64(ply) | (bomb_code(own_bomb) << np.uint64(9))
            | (bomb_code(other_bomb) << np.uint64(15)))
    return high, mix(low ^ mix(high + ONE))


@njit(cache=True, nogil=True)
def table_key(own, other, own_bomb, other_bomb, ply):
    """(key, check): together, the whole position, exactly (see the module's doc)."""
    high, hashed = packed(own, other, own_bomb, other_bomb, ply)
    rest = np.uint64(REST_BITS)
    return hashed >> rest, (hashed & REST_MASK) | (high << rest)


@njit(cache=True, nogil=True)
def repetition_hash(own, other, own_bomb, other_bomb, ply):
    """Boom.repetition_key in 64 bits: the position with its ply modulo ten."""
    return packed(own, other, own_bomb, other_bomb, ply % (2 * BOMB_EVERY))[1]


@njit(cache=True, nogil=True)
def repeated(own, other, own_bomb, other_bomb, ply, seen):
    """Whether the position is one of `seen` (sorted repetition hashes)."""
    if len(seen) == 0:
        return False
    hashed = repetition_hash(own, other, own_bomb, other_bomb, ply)
    index = np.searchsorted(seen, hashed)
    return index < len(seen) and seen[index] == hashed


@njit(cache=True, nogil=True)
def legal(own, other, own_bomb, move):
    if move == BOOM:
        return own_bomb != ZERO
    return ((own | other) & TOP[move]) == ZERO


@njit(cache=True, nogil=True)
def negamax(own, other, own_bomb, other_bomb, ply, depth, alpha, beta, keys, checks,
            values, depths, flags, moves, stamp, seen, seen_by, stop, counters):
    """AlphaBeta.negamax below the live plies. `counters` holds [nodes, node limit,
    stopped]; once stopped, every caller returns at once and stores nothing."""
    nodes = counters[0] + 1
    counters[0] = nodes
    if nodes >= counters[1] or ((nodes & 1023) == 0 and stop[0] != 0):
        counters[2] = 1
        return np.int64(0)
    over, value = end_value(own, other, ply)
    if over:
        return value
    if repeated(own, other, own_bomb, other_bomb, ply, seen):
        return np.int64(REPEAT_CONTEMPT if (ply & 1) != seen_by else -REPEAT_CONTEMPT)
    if depth == 0:
        return evaluate(own, other, own_bomb, other_bomb, ply)
    key, check = table_key(own, other, own_bomb, other_bomb, ply)
    table_move, settles, value = lookup(keys, checks, values, depths, flags, moves, key,
                                        check, stamp, ply, depth, alpha, beta)
    if settles:
        return value
    alpha0 = alpha
    best, best_move = -INFINITY, -1
    for index in range(-1, WIDTH + 1):  # -1: the table's move, then the usual order
        move = table_move if index < 0 else ORDER[index]
        if move < 0 or (index >= 0 and move == table_move) or \
                not legal(own, other, own_bomb, move):
            continue
        c_own, c_other, c_own_bomb, c_other_bomb, c_ply = play(own, other, own_bomb,
                                                               other_bomb, ply, move)
        value = -negamax(c_own, c_other, c_own_bomb, c_other_bomb, c_ply, depth - 1,
                         -beta, -alpha, keys, checks, values, depths, flags, moves, stamp,
                         seen, seen_by, stop, counters)
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
def search(own, other, own_bomb, other_bomb, ply, depth, alpha, beta, keys, checks,
           values, depths, flags, moves, stamp, seen, seen_by, stop, limit):
    """(value, nodes, stopped) of one subtree search under a node limit."""
    counters = np.zeros(3, np.int64)
    counters[1] = limit
    value = negamax(own, other, own_bomb, other_bomb, ply, depth, alpha, beta, keys,
                    checks, values, depths, flags, moves, stamp, seen, seen_by, stop,
                    counters)
    return value, counters[0], counters[2] != 0


@njit(cache=True, nogil=True)
def probe(own, other, own_bomb, other_bomb, ply, keys, checks, moves, stamp):
    """The table's move for the position, or -1."""
    key, check = table_key(own, other, own_bomb, other_bomb, ply)
    return checked_move(keys, checks, moves, key, check, stamp)


def kernel_position(state) -> tuple:
    """(own, other, own bomb, other bomb, ply): the side to move's first."""
    side = state.to_move
    return (np.uint64(state.pieces[side]), np.uint64(state.pieces[1 - side]),
            np.uint64(state.bombs[side]), np.uint64(state.bombs[1 - side]), state.ply)


class BoomBackend(TableBackend):
    """The alpha-beta TreeBackend for Desconecta-4 BOOM: the kernel and its table."""

    def __init__(self) -> None:
        super().__init__()
        self.checks = np.zeros(len(self.keys), np.uint64)

    def reset(self) -> None:
        super().reset()
        self.seen, self.seen_by = NOTHING_SEEN, 0

    def avoid(self, states) -> None:
        self.seen = np.unique(np.array(
            [repetition_hash(*kernel_position(state)) for state in states], np.uint64))
        self.seen_by = states[-1].ply & 1  # the root's side: its returns are disliked

    def negamax(self, state, depth: int, alpha: int, beta: int, control: SearchControl,
                nodes_so_far: int) -> tuple[int, int]:
        position = kernel_position(state)
        value, nodes = self.within_budget(control, nodes_so_far, lambda limit: search(
            *position, depth, int(alpha), int(beta), self.keys, self.checks, self.values,
            self.depths, self.flags, self.moves, self.stamp, self.seen, self.seen_by,
            control.stop.array(), limit))
        return int(value), int(nodes)

    def best_move(self, state) -> int | None:
        move = probe(*kernel_position(state), self.keys, self.checks, self.moves,
                     self.stamp)
        return None if move < 0 else int(move)


def warm_up() -> None:
    """Compile the kernels (or load them from numba's cache) on a small search, after
    the positions to avoid repeating are hashed, as a game's search hashes them."""
    state = GAME.parse_position("1234567123")  # both sides hold a bomb
    backend = thread_backend(BoomBackend)
    backend.avoid([state])
    backend.negamax(state, 3, -INFINITY, INFINITY, SearchControl(Budget()), 0)
    backend.best_move(state)
