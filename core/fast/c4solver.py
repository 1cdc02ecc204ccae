"""Connect 4 exact solver: negamax with alpha-beta on bitboards, null-window searches
narrowing the score, a transposition table of bounds, and moves ordered by the threats
they make (the well-known public solver's method, compiled with numba).

Scores follow rules/connect4.md: for the side to move, a win with its k-th stone
scores 22 - k, a loss k - 22, a draw 0; with n stones down, a win on the next move
scores (43 - n) // 2.

A position is `position` (the side to move's stones) and `mask` (all stones), uint64
bitboards in the layout of `games/gravity.py` (column-major, 7 bits a column, the top
one a guard), and `moves`, the stones down. The search keeps one invariant: `negamax`
is never called on a position whose side to move can win at once (the caller checks
first, and every move tried blocks the opponent's immediate wins).

The table has a prime number of buckets of two entries; an entry holds the key's low 32
bits, which with the bucket number (the key modulo the prime) pin the 49-bit key
exactly, above one byte: an upper bound (1..37) or a lower bound (38..74) on the
position's score; 0 is empty. Bits 40-42 hold 1 + the column that last proved a lower
bound there (0: none), tried first the next time, before the other moves are even
ordered; bits 44-49 the position's stones: a bucket's first entry keeps the position
with fewer stones (more work saved), its second the latest other. Bounds hold for
good, so the table serves every later position too. Before searching its moves, a
node with fewer than ETC_PLIES stones looks up its children's entries: one whose upper
bound already proves the node's beta ends the node at once (enhanced transposition
cut-off).
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from ..games.connect4 import BOARD, HEIGHT, WIDTH
from . import bits
from .bits import popcount

BOTTOM, TOP, COLUMN, BOTTOM_ROW, FULL, DIRECTIONS = bits.gravity_arrays(BOARD)
CELLS = WIDTH * HEIGHT
MIN_SCORE = -(CELLS // 2) + 3  # -18: the fastest possible loss
MAX_SCORE = (CELLS + 1) // 2 - 3  # 18: the fastest possible win
ORDER = np.array([3, 2, 4, 1, 5, 0, 6], np.int64)  # centre columns first
BUCKETS = 8388617  # the first prime above 2 ** 23: the table's buckets of two entries
TABLE_SIZE = 2 * BUCKETS
LOWER_OFFSET = MAX_SCORE - 2 * MIN_SCORE + 2  # lower bounds are stored above the uppers
INVALID = -1000  # the public solver's score for a full column

ZERO = np.uint64(0)
ONE, TWO, THREE, EIGHT = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(8)
STRIDE = np.uint64(BOARD.stride)
LOW32 = np.uint64(0xFFFFFFFF)
BYTE = np.uint64(0xFF)
BUCKET_COUNT = np.uint64(BUCKETS)
TAG = LOW32 << EIGHT
MOVE_SHIFT = np.uint64(40)  # an entry's bits 40-42: 1 + the column that cut off, or 0
PLY_SHIFT = np.uint64(44)  # bits 44-49: the stones of the position
SEVEN = np.uint64(7)
PLY_BITS = np.uint64(63) << PLY_SHIFT
ETC_PLIES = 32  # check the children's entries before searching, above this many stones


@njit(cache=True, nogil=True)
def winning_cells(position, mask):
    """The empty cells where `position` would complete a four (bits.completing_cells
    with the 7 x 6 board's shifts written out: this is the solver's hot spot)."""
    found = (position << ONE) & (position << TWO) & (position << THREE)  # vertical
    for d in (STRIDE, STRIDE - ONE, STRIDE + ONE):  # horizontal, both diagonals
        pairs = (position << d) & (position << (d + d))
        found |= pairs & (position << (d + d + d))
        found |= pairs & (position >> d)
        pairs = (position >> d) & (position >> (d + d))
        found |= pairs & (position >> (d + d + d))
        found |= pairs & (position << d)
    return found & (FULL ^ mask)


@njit(cache=True, nogil=True)
def playable(mask):
    return (mask + BOTTOM_ROW) & FULL


@njit(cache=True, nogil=True)
def non_losing_moves(position, mask):
    """The playable cells after which the opponent cannot win at once: the one that
    blocks its only immediate win if it has one (none if it has two), never the cell
    under one of its winning cells."""
    moves = playable(mask)
    threats = winning_cells(position ^ mask, mask)
    forced = moves & threats
    if forced:
        if forced & (forced - ONE):
            return ZERO
        moves = forced
    return moves & ~(threats >> ONE)


@njit(cache=True, nogil=True)
def probe(table, key):
    """The table's entry for `key`, 0 if it has none."""
    at = (key % BUCKET_COUNT) << ONE
    tag = (key & LOW32) << EIGHT
    entry = table[at]
    if entry & BYTE and (entry & TAG) == tag:
        return entry
    entry = table[at + ONE]
    if entry & BYTE and (entry & TAG) == tag:
        return entry
    return ZERO


@njit(cache=True, nogil=True)
def store(table, key, value, best, moves):
    """Keep the score byte `value` and the move `best` (-1: none) for `key`, a position
    with `moves` stones: in its bucket's first entry if that entry is the key's, empty
    or for a position with as many stones or more (less work below it), moving the
    entry there to the second; else in the second."""
    at = (key % BUCKET_COUNT) << ONE
    tag = (key & LOW32) << EIGHT
    new = tag | np.uint64(value) | (np.uint64(best + 1) << MOVE_SHIFT) | \
        (np.uint64(moves) << PLY_SHIFT)
    first = table[at]
    if first == ZERO or (first & TAG) == tag:
        table[at] = new
    elif np.int64((first & PLY_BITS) >> PLY_SHIFT) >= moves:
        table[at + ONE] = first
        table[at] = new
    else:
        table[at + ONE] = new


@njit(cache=True, nogil=True)
def negamax(position, mask, moves, alpha, beta, table, scratch):
    """The score if it lies in (alpha, beta); else a bound on the side it fell.

    `table` holds bounds by key (see the module's doc); `scratch[moves]` holds this
    node's ordered moves as score * 8 + column;
    `scratch[CELLS + 1]` holds the node count, the node limit (0: none) and a stopped
    flag: once the limit is reached every caller returns at once, storing nothing."""
    nodes = scratch[CELLS + 1, 0] + 1
    scratch[CELLS + 1, 0] = nodes
    if scratch[CELLS + 1, 1] and nodes >= scratch[CELLS + 1, 1]:
        scratch[CELLS + 1, 2] = 1
    if scratch[CELLS + 1, 2]:
        return 0
    candidates = non_losing_moves(position, mask)
    if candidates == ZERO:
        return -((CELLS - moves) // 2)
    if moves >= CELLS - 2:  # the last two stones cannot make a four any more
        return 0
    low = -((CELLS - 2 - moves) // 2)  # the opponent cannot win with its next stone
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = (CELLS - 1 - moves) // 2  # nor can we win with this one
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta
    key = position + mask
    entry = probe(table, key)
    best = -1  # the move that last proved a lower bound here, if any
    if entry:
        best = np.int64((entry >> MOVE_SHIFT) & SEVEN) - 1
        stored = np.int64(entry & BYTE)
        if stored > MAX_SCORE - MIN_SCORE + 1:
            low = stored - LOWER_OFFSET
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    return alpha
        else:
            high = stored + MIN_SCORE - 1
            if beta > high:
                beta = high
                if alpha >= beta:
                    return beta
    if moves < ETC_PLIES:  # a child whose stored upper bound already proves beta
        child = position ^ mask
        for column in range(WIDTH):
            move = candidates & COLUMN[column]
            if move:
                child_key = child + (mask | move)
                found = probe(table, child_key)
                if found:
                    stored = np.int64(found & BYTE)
                    if stored <= MAX_SCORE - MIN_SCORE + 1:
                        score = 1 - MIN_SCORE - stored  # minus the child's upper bound
                        if score >= beta:
                            store(table, key, score + LOWER_OFFSET, column, moves)
                            return score
    if best >= 0:  # the table's move first, before ordering the others: it often cuts
        move = candidates & COLUMN[best]
        if move:
            score = -negamax(position ^ mask, mask | move, moves + 1, -beta, -alpha,
                             table, scratch)
            if scratch[CELLS + 1, 2]:
                return 0
            if score >= beta:
                store(table, key, score + LOWER_OFFSET, best, moves)
                return score
            if score > alpha:
                alpha = score
            candidates ^= move
    # order: most new winning cells first, ties centre first (insertion sort)
    count = 0
    for i in range(WIDTH - 1, -1, -1):
        column = ORDER[i]
        move = candidates & COLUMN[column]
        if move:
            entry_key = popcount(winning_cells(position | move, mask)) * 8 + column
            at = count
            while at > 0 and scratch[moves, at - 1] >> 3 > entry_key >> 3:
                scratch[moves, at] = scratch[moves, at - 1]
                at -= 1
            scratch[moves, at] = entry_key
            count += 1
    for i in range(count - 1, -1, -1):
        column = scratch[moves, i] & 7
        move = candidates & COLUMN[column]
        score = -negamax(position ^ mask, mask | move, moves + 1, -beta, -alpha, table,
                         scratch)
        if scratch[CELLS + 1, 2]:
            return 0
        if score >= beta:
            store(table, key, score + LOWER_OFFSET, column, moves)
            return score
        if score > alpha:
            alpha = score
    store(table, key, alpha - MIN_SCORE + 1, best, moves)  # keeping the move it had
    return alpha


@njit(cache=True, nogil=True)
def truncated_half(value):
    """value / 2 rounded toward zero, as the public solver's C++ divides."""
    return value // 2 if value >= 0 else -((-value) // 2)


@njit(cache=True, nogil=True)
def solve(position, mask, moves, weak, table, scratch):
    """The exact score of a position no one has won (weak: only its sign, -1, 0 or 1),
    by null-window searches that halve the range of scores still possible."""
    if winning_cells(position, mask) & playable(mask):
        return 1 if weak else (CELLS + 1 - moves) // 2
    low, high = -((CELLS - moves) // 2), (CELLS + 1 - moves) // 2
    if weak:
        low, high = -1, 1
    while low < high:
        middle = low + (high - low) // 2
        if middle <= 0 and truncated_half(low) < middle:
            middle = truncated_half(low)
        elif middle >= 0 and truncated_half(high) > middle:
            middle = truncated_half(high)
        score = negamax(position, mask, moves, middle, middle + 1, table, scratch)
        if scratch[CELLS + 1, 2]:
            return 0
        if score <= middle:
            high = score
        else:
            low = score
    if weak:  # a table bound from an earlier strong solve can overshoot the window
        return max(-1, min(1, low))
    return low


@njit(cache=True, nogil=True)
def analyze(position, mask, moves, weak, table, scratch, scores):
    """Each column's score for the side to move if it plays there (INVALID if full)."""
    for column in range(WIDTH):
        if mask & TOP[column]:
            scores[column] = INVALID
            continue
        move = (mask + BOTTOM[column]) & COLUMN[column]
        if winning_cells(position, mask) & move:
            scores[column] = 1 if weak else (CELLS + 1 - moves) // 2
        else:
            scores[column] = -solve(position ^ mask, mask | move, moves + 1, weak, table,
                                    scratch)
            if scratch[CELLS + 1, 2]:
                return


@njit(cache=True, nogil=True)
def solve_batch(positions, masks, moves, weak, table, scratch, scores, first, step):
    """scores[i] = solve(position i) for i = first, first + step, ... (a thread's share
    of a batch: threads share the table, each has its own scratch)."""
    for i in range(first, len(positions), step):
        scores[i] = solve(positions[i], masks[i], moves[i], weak, table, scratch)


class Solver:
    """The solver with its table (128 MB, kept between positions: its bounds hold for
    every position), a node count and an opening book (core/connect4/book.py: the positions
    it holds are answered without searching). `book`: the Book its owner hands it
    (core/connect4/book.py's `default_book()` for the shipped one), or None."""

    def __init__(self, book=None) -> None:
        self.book = book
        self.table = np.zeros(TABLE_SIZE, np.uint64)
        self.table.fill(0)  # touch every page now, not one page fault per new slot
        self.scratch = np.zeros((CELLS + 2, WIDTH), np.int64)

    @property
    def nodes(self) -> int:
        """Nodes searched since the solver was made."""
        return int(self.scratch[CELLS + 1, 0])

    def limit(self, nodes: int | None) -> None:
        """Stop the next search after `nodes` more nodes (None: never)."""
        self.scratch[CELLS + 1, 1] = self.nodes + nodes if nodes else 0
        self.scratch[CELLS + 1, 2] = 0

    def stop(self) -> None:
        """Stop the running search (from another thread): its result is void."""
        self.scratch[CELLS + 1, 2] = 1

    @property
    def stopped(self) -> bool:
        """Whether the last search reached its node limit (its result is then void)."""
        return bool(self.scratch[CELLS + 1, 2])

    def solve(self, state, weak: bool = False, nodes: int | None = None) -> int | None:
        """The score of a Connect 4 state that is not over (see the module's doc), or
        None if `nodes` nodes were not enough."""
        self.limit(nodes)
        score = self.book.score(state) if self.book is not None else None
        if score is not None:
            return int(np.sign(score)) if weak else score
        score = int(solve(*kernel_position(state), weak, self.table, self.scratch))
        return None if self.stopped else score

    def solve_many(self, states, weak: bool = False, threads: int = 1) -> list[int]:
        """Every state's score, `threads` threads sharing the table (an entry is one
        64-bit word, written whole, so a thread never reads half of another's; a bucket
        may mix two threads' writes, each entry still whole)."""
        self.limit(None)
        known = [self.book.score(state) if self.book is not None else None
                 for state in states]
        rest = [state for state, score in zip(states, known) if score is None]
        if rest:
            positions, masks, moves = (np.array(column, dtype) for column, dtype in zip(
                zip(*(kernel_position(state) for state in rest)),
                (np.uint64, np.uint64, np.int64)))
            scores = np.zeros(len(rest), np.int64)
            scratches = [self.scratch] + [np.zeros_like(self.scratch)
                                          for _ in range(threads - 1)]
            with ThreadPoolExecutor(threads) as pool:
                list(pool.map(lambda k: solve_batch(positions, masks, moves, weak,
                                                    self.table, scratches[k], scores, k,
                                                    threads),
                              range(threads)))
            for scratch in scratches[1:]:
                self.scratch[CELLS + 1, 0] += scratch[CELLS + 1, 0]
        solved = iter(rest and scores.tolist())
        return [next(solved) if score is None else int(np.sign(score)) if weak else score
                for score in known]

    def analyze(self, state, weak: bool = False,
                nodes: int | None = None) -> list[int] | None:
        """Each column's score (INVALID for a full one), or None if `nodes` nodes were
        not enough."""
        self.limit(nodes)
        if self.book is not None and state.ply < self.book.depth:
            win = 1 if weak else (CELLS + 1 - state.ply) // 2  # a stone completing four
            return [INVALID if column not in state.moves()
                    else win if state.play(column).outcome() is not None
                    else -self.solve(state.play(column), weak)
                    for column in range(WIDTH)]
        scores = np.zeros(WIDTH, np.int64)
        analyze(*kernel_position(state), weak, self.table, self.scratch, scores)
        return None if self.stopped else [int(score) for score in scores]


def kernel_position(state) -> tuple:
    """(position, mask, moves): the side to move's stones, all stones, their number."""
    return (np.uint64(state.pieces[state.to_move]),
            np.uint64(state.pieces[0] | state.pieces[1]), state.ply)


SOLVER_KERNELS = "c4solver"  # the solver's kernels, as a set compiled together


def warm_up(solver: Solver) -> None:
    """Compile the kernels (or load them from numba's cache) with `solver`, on the
    game's late warm-up position; while another process compiles them, wait for it
    (fast/cache.py)."""
    from ..games.connect4 import GAME, WARM_POSITION
    from .cache import compiling

    late = GAME.parse_position(WARM_POSITION)
    with compiling(SOLVER_KERNELS, [__name__]):
        solver.solve(late, weak=True)
        solver.analyze(late, weak=True)
        solver.solve_many([late], weak=True)
