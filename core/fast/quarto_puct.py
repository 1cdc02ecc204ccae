"""Quarto's kernels for the batched PUCT of puct_batch.py: a position as two words (the
pieces, a nibble a square; which squares are filled and the piece in hand), its legal
moves, a move, its end and its input planes, the same as games/quarto.py's
`QuartoState` and `encoding()` (tests/core/test_quarto_puct.py holds the planes and the
searches to them).

A move's kernel code is its policy index (square * 17 + piece given, 16 for none; the
first give 16 * 17 + piece), which is also quarto_mcts.py's code, so that the moves
listed in ascending code are the rules' order. The kernels play the standard board
(rows, columns, diagonals): puct_batch.kernels_for gives a variant none.

`collect` is a round's walks for every game, the part of the search that plays moves
and so calls this game's kernels; the rest of the search is puct_batch.py's.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..games.quarto import FIRST_GIVE, GIVES, Quarto
from .puct_batch import NEW, PENDING, ROOT, SEARCHING, finish, queue_leaf, queue_root, walk
from .puct_cache import make_room
from .bits import mix, popcount
from .quarto_mcts import lines_through, wins_at

WORDS = 2  # the pieces (a nibble a square); the filled squares | (hand + 1) << 16
MAX_MOVES = 16 * 15  # the second move: any square, then any of 15 pieces
MAX_DEPTH = 18  # the first give, 16 placements, and the root
NONE = 16  # no piece given
FILLED = np.uint64(0xFFFF)
THROUGH = lines_through(Quarto())  # the standard board's lines through each square
LINES = np.array(Quarto().lines, np.int64)
BITS = np.array([3, 2, 1, 0], np.int64)  # the attributes in the planes' order
PLANES = (26, 4, 4)  # filled, 4 attributes, in hand, its 4 attributes, 16 to give


def to_words(state) -> np.ndarray:
    """A `QuartoState` as the kernels' words."""
    pieces = filled = 0
    for square, piece in enumerate(state.board):
        if piece >= 0:
            pieces |= piece << (4 * square)
            filled |= 1 << square
    hand = 0 if state.hand is None else state.hand + 1
    return np.array([pieces, filled | hand << 16], np.uint64)


@njit(cache=True, nogil=True)
def unpack(words, board):
    """The board (a piece or -1 a square) into `board`; returns (hand or -1, pool
    mask, pieces placed)."""
    pieces, filled = words[0], words[1] & FILLED
    used = 0
    for square in range(16):
        if filled >> np.uint64(square) & np.uint64(1):
            piece = np.int64(pieces >> np.uint64(4 * square) & np.uint64(15))
            board[square] = piece
            used |= 1 << piece
        else:
            board[square] = -1
    hand = np.int64(words[1] >> np.uint64(16)) - 1
    if hand >= 0:
        used |= 1 << hand
    return hand, 0xFFFF & ~used, popcount(filled)


@njit(cache=True, nogil=True)
def has_line(board):
    """Whether some line of four pieces shares an attribute."""
    for line in range(LINES.shape[0]):
        together, apart, full = 15, 0, True
        for k in range(4):
            piece = board[LINES[line, k]]
            if piece < 0:
                full = False
                break
            together &= piece
            apart |= piece
        if full and (together != 0 or apart != 15):
            return True
    return False


@njit(cache=True, nogil=True)
def new_node(tree, node):
    """Fill in node `node` from its position: its side to move (the ply's parity: the
    first give is ply 0, each placement one more), its legal moves in the rules' order
    and their policy indices (the same codes), its end's value for the side to move (a
    line is the last placer's: -1; a full board 0) or nan, and no visits yet."""
    (states, sides, counts, moves, indices, priors, visits, totals, children, exact,
     expanded, used, root_visits, root_total, sims) = tree
    board = np.empty(16, np.int64)
    hand, pool, placed = unpack(states[node], board)
    sides[node] = (placed + 1 if placed or hand >= 0 else 0) & 1
    expanded[node] = 0
    count = 0
    if has_line(board):
        exact[node] = -1.0
    elif placed == 16:
        exact[node] = 0.0
    else:
        exact[node] = np.nan
        if hand < 0:  # the first move: a give and nothing else
            for give in range(16):
                moves[node, count] = FIRST_GIVE + give
                count += 1
        else:
            for square in range(16):
                if board[square] >= 0:
                    continue
                if pool == 0 or wins_at(board, hand, square, THROUGH):
                    moves[node, count] = square * GIVES + NONE
                    count += 1
                else:
                    for give in range(16):
                        if pool >> give & 1:
                            moves[node, count] = square * GIVES + give
                            count += 1
        for i in range(count):
            indices[node, i] = moves[node, i]
            priors[node, i] = 0.0
            visits[node, i] = 0
            totals[node, i] = 0.0
            children[node, i] = -1
    counts[node] = count


@njit(cache=True, nogil=True)
def play_into(words, move, out):
    """The words after `move` (a kernel code) into `out`: the piece in hand placed, one
    given."""
    pieces, filled = words[0], words[1] & FILLED
    if move < FIRST_GIVE:
        square, give = move // GIVES, move % GIVES
        hand = (words[1] >> np.uint64(16)) - np.uint64(1)
        pieces |= hand << np.uint64(4 * square)
        filled |= np.uint64(1) << np.uint64(square)
    else:
        give = move - FIRST_GIVE
    held = np.uint64(0) if give == NONE else np.uint64(give + 1)
    out[0], out[1] = pieces, filled | held << np.uint64(16)


@njit(cache=True, nogil=True)
def write_planes(words, out):
    """quarto.planes: the filled squares, per attribute the squares whose piece has
    it; then constant planes: a piece in hand, its attributes, and each piece still
    to give."""
    board = np.empty(16, np.int64)
    hand, pool, placed = unpack(words, board)
    for square in range(16):
        r, c = square // 4, square % 4
        piece = board[square]
        out[0, r, c] = np.float32(1.0 if piece >= 0 else 0.0)
        for a in range(4):
            out[1 + a, r, c] = np.float32(1.0 if piece >= 0 and (piece >> BITS[a]) & 1
                                          else 0.0)
    out[5] = np.float32(1.0 if hand >= 0 else 0.0)
    for a in range(4):
        out[6 + a] = np.float32(1.0 if hand >= 0 and (hand >> BITS[a]) & 1 else 0.0)
    for piece in range(16):
        out[10 + piece] = np.float32(pool >> piece & 1)


@njit(cache=True, nogil=True)
def key(words):
    """The position's key: a mix of both words (the pieces alone are ambiguous where a
    square is empty or holds piece 0). Two positions share a key by chance only, as
    rarely as two random 64-bit numbers are equal."""
    return mix(words[0] ^ mix(words[1] + np.uint64(1)))


@njit(cache=True, nogil=True)
def collect(tree, capacity, c, batch, status, limits, nets, cache, pending, roots, path,
            planes, rows_game, rows_slot):
    """A round of every game's search (PuctTree.run up to the network call), as
    connect4_puct.collect: a root to evaluate, or up to `batch` walks each backing up
    a finished game's value at once or leaving its new leaf pending. Returns the rows
    written."""
    states, moves, children, exact, used, sims = (tree[0], tree[3], tree[8], tree[9],
                                                  tree[11], tree[14])
    path_nodes, path_index = path
    rows = 0
    for game in range(len(status)):
        if status[game] == ROOT:
            root = game * capacity
            if queue_root(cache, nets, roots, status, game, key(states[root]), rows,
                          rows_game, rows_slot):
                write_planes(states[root], planes[rows])
                rows += 1
            continue
        if status[game] != SEARCHING:
            continue
        make_room(cache, game)
        walks, count = 0, min(batch, limits[game] - sims[game])
        while walks < count:
            depth, how, node = walk(tree, game, capacity, c, path_nodes, path_index)
            if how == PENDING:
                break
            walks += 1
            leaf = node
            if how == NEW:  # the walk's last move, played
                leaf = game * capacity + used[game]
                used[game] += 1
                index = path_index[depth - 1]
                play_into(states[node], moves[node, index], states[leaf])
                new_node(tree, leaf)
                children[node, index] = leaf
            if not math.isnan(exact[leaf]):
                finish(tree, game, capacity, path_nodes, path_index, depth, leaf,
                       exact[leaf])
            elif queue_leaf(tree, cache, nets, pending, path, depth, game, leaf,
                            key(states[leaf]), rows, rows_game, rows_slot):
                write_planes(states[leaf], planes[rows])
                rows += 1
    return rows


def warm_up() -> None:
    """Compile the kernels (or load them from numba's cache) on a tiny search."""
    from .puct_batch import tiny_search

    tiny_search(__name__, FIRST_GIVE + 16, PLANES, Quarto().start())
