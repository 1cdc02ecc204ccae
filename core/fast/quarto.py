"""Quarto alpha-beta kernel, with a table keyed on symmetry-reduced positions.

A position is the board (16 int8, a piece code or -1), the piece in hand (-1 before the
first give), the pool as a 16-bit mask, and the ply. The search is the reference
negamax of `search/alphabeta.py` with three exact shortcuts, so that endgames solve
fast:
- a piece in hand that completes a line wins at once (no faster win exists);
- a give that lets the opponent complete a line loses at once, so such gives are
  searched only when every give does (they all have the same value);
- placing the 16th piece draws.

The table key is the position brought to a canonical form under the game's symmetries
(the square permutations that map lines onto lines, times the 384 maps of the pieces):
the least image, comparing first which squares are filled, then the pieces in square
order with the first one mapped to 0, then the piece in hand. Moves are stored in the
canonical frame and mapped back through the probing position's own transform.
"""
from __future__ import annotations

from itertools import permutations

import numpy as np
from numba import njit

from ..games.quarto import Quarto
from ..search.alphabeta import EXACT, LOWER, UPPER
from ..search.control import Budget, SearchControl
from ..values import INFINITY, WIN, terminal_value
from .bits import MIX2, mix, popcount
from .table import KEY_BITS, TableBackend, find, from_table, store, thread_backend

WITH_BIT = np.array([sum(1 << p for p in range(16) if p >> b & 1) for b in range(4)],
                    np.int64)
WITHOUT_BIT = np.array([0xFFFF & ~int(mask) for mask in WITH_BIT], np.int64)
# The 24 attribute permutations as piece maps (bit i of the image is bit order[i]);
# the flips are XORed on after.
ATTRIBUTE_MAPS = np.array(
    [[sum(((piece >> order[i]) & 1) << i for i in range(4)) for piece in range(16)]
     for order in permutations(range(4))], np.int64)
INVERSE_MAPS = np.argsort(ATTRIBUTE_MAPS, axis=1).astype(np.int64)
TABLE_MIN_EMPTY = 4  # smaller subtrees are searched again rather than looked up
TABLE_MIN_DEPTH = 4  # and so are subtrees cut off this close to the search's horizon
NO_SQUARE = NO_PIECE = 16
TWO_IN_LINE, THREE_IN_LINE, NO_SAFE_PIECE = 4, 20, 400  # games/quarto.py's weights


@njit(cache=True, nogil=True)
def line_danger(board, line):
    """The pieces that would complete `line` (one square left, three sharing)."""
    count, together, apart = 0, 15, 0
    for k in range(4):
        piece = board[line[k]]
        if piece >= 0:
            count += 1
            together &= piece
            apart |= piece
    if count != 3:
        return 0
    mask = 0
    for b in range(4):
        if together >> b & 1:
            mask |= WITH_BIT[b]
        if not apart >> b & 1:
            mask |= WITHOUT_BIT[b]
    return mask


@njit(cache=True, nogil=True)
def danger_mask(board, lines):
    """Every piece that would complete some line if placed now."""
    mask = 0
    for line in range(lines.shape[0]):
        mask |= line_danger(board, lines[line])
    return mask


@njit(cache=True, nogil=True)
def evaluate(board, hand, pool, ply, danger, lines):
    """Quarto.evaluate, for the side to move (`danger` is danger_mask(board))."""
    if hand >= 0 and danger >> hand & 1:
        return WIN - (ply + 1)
    value = 0
    for line in range(lines.shape[0]):
        count, together, apart = 0, 15, 0
        for k in range(4):
            piece = board[lines[line, k]]
            if piece >= 0:
                count += 1
                together &= piece
                apart |= piece
        if (count == 2 or count == 3) and (together != 0 or apart != 15):
            value -= TWO_IN_LINE if count == 2 else THREE_IN_LINE
    if pool != 0 and pool & ~danger == 0:
        value -= NO_SAFE_PIECE
    return value


@njit(cache=True, nogil=True)
def canonical(board, hand, perms):
    """(key, check, perm, attribute map, flips) of the position's canonical image.

    `key` and `check` are two independent hashes of the image (the table stores both);
    the transform maps the position's square s to index qinv[s] of the image and a
    piece x to ATTRIBUTE_MAPS[map, x] ^ flips.
    """
    filled = np.zeros(perms.shape[0], np.int64)  # which squares hold a piece, per perm
    for q in range(perms.shape[0]):
        for i in range(16):
            filled[q] = filled[q] * 2 + (board[perms[q, i]] >= 0)
    best_filled = filled.min()
    best = np.full(17, 99, np.int64)
    image = np.empty(17, np.int64)
    best_q, best_map, best_flips = 0, 0, 0
    for q in range(perms.shape[0]):
        if filled[q] != best_filled:
            continue
        for m in range(24):
            flips = -1
            length = 0
            for i in range(16):
                piece = board[perms[q, i]]
                if piece >= 0:
                    if flips < 0:
                        flips = ATTRIBUTE_MAPS[m, piece]
                    image[length] = ATTRIBUTE_MAPS[m, piece] ^ flips
                    length += 1
            if hand >= 0:
                if flips < 0:
                    flips = ATTRIBUTE_MAPS[m, hand]
                image[length] = ATTRIBUTE_MAPS[m, hand] ^ flips
            else:
                image[length] = NO_PIECE
            if flips < 0:
                flips = 0
            for i in range(length + 1):
                if image[i] != best[i]:
                    if image[i] < best[i]:
                        best[:length + 1] = image[:length + 1]
                        best_q, best_map, best_flips = q, m, flips
                    break
    low = np.uint64(0)
    for i in range(16):
        low = low * np.uint64(16) + np.uint64(best[i] if best[i] < 17 else 0)
    pieces = popcount(np.uint64(best_filled))
    high = np.uint64(best_filled) * np.uint64(32) + np.uint64(best[pieces])
    hashed = mix(low ^ mix(high + np.uint64(1)))
    check = mix(hashed ^ low ^ MIX2) >> np.uint64(32)
    return hashed >> np.uint64(64 - KEY_BITS), check, best_q, best_map, best_flips


@njit(cache=True, nogil=True)
def encode(square, give, q, m, flips, inverse_perms):
    """A move in the canonical frame, for the table."""
    index = NO_SQUARE if square < 0 else inverse_perms[q, square]
    image = NO_PIECE if give < 0 else ATTRIBUTE_MAPS[m, give] ^ flips
    return index * 17 + image


@njit(cache=True, nogil=True)
def decode(code, q, m, flips, perms):
    """(square, give) in the probing position's frame, -1 for none."""
    index, image = code // 17, code % 17
    square = -1 if index == NO_SQUARE else perms[q, index]
    give = -1 if image == NO_PIECE else INVERSE_MAPS[m, image ^ flips]
    return square, give


@njit(cache=True, nogil=True)
def note_reply(replies, counters, square, give, value, alpha):
    """Record a reply of the node being reported (see negamax): its move, its value
    for the side that played it, and the alpha it was searched with."""
    row = counters[4]
    replies[row, 0], replies[row, 1], replies[row, 2], replies[row, 3] = (
        square, give, value, alpha)
    counters[4] = row + 1


@njit(cache=True, nogil=True)
def first_win(board, hand, lines):
    """The first square where the piece in hand completes a line (line_danger's)."""
    first = NO_SQUARE
    for line in range(lines.shape[0]):
        if line_danger(board, lines[line]) >> hand & 1:
            for k in range(4):
                square = lines[line, k]
                if board[square] < 0:
                    first = min(first, square)
    return first


@njit(cache=True, nogil=True)
def negamax(board, hand, pool, empty, ply, danger, depth, alpha, beta, lines, perms,
            inverse_perms, keys, checks, values, depths, flags, moves, stamp, stop,
            counters, replies):
    """AlphaBeta.negamax below the live plies (fail-soft). `danger` is
    danger_mask(board); `counters` holds [nodes, node limit, stopped, reported ply,
    replies recorded]; once stopped, every caller returns at once and stores nothing.
    The node at the reported ply (the subtree's root, when it is one the inspector
    shows the replies of) records each reply it settles in `replies`, with the exact
    loss of a give the kernel does not search (it hands the opponent a line)."""
    nodes = counters[0] + 1
    counters[0] = nodes
    if nodes >= counters[1] or ((nodes & 1023) == 0 and stop[0] != 0):
        counters[2] = 1
        return np.int64(0)
    reporting = ply == counters[3]
    if hand >= 0 and danger >> hand & 1:
        if reporting:
            note_reply(replies, counters, first_win(board, hand, lines),
                       -1, WIN - (ply + 1), alpha)
        return np.int64(WIN - (ply + 1))
    if depth == 0:
        return np.int64(evaluate(board, hand, pool, ply, danger, lines))
    if hand >= 0 and empty == 1:
        if reporting:
            for square in range(16):
                if board[square] < 0:
                    note_reply(replies, counters, square, -1, 0, alpha)
        return np.int64(0)  # the last piece fills the board: a draw
    slot, key, check = -1, np.uint64(0), np.uint64(0)
    q, m, flips = 0, 0, 0
    table_square, table_give = -2, -2
    tabled = empty >= TABLE_MIN_EMPTY and depth >= TABLE_MIN_DEPTH
    if tabled:
        key, check, q, m, flips = canonical(board, hand, perms)
        slot = find(keys, key, stamp)
        if slot >= 0 and checks[slot] != check:
            slot = -1
        if slot >= 0:
            table_square, table_give = decode(np.int64(moves[slot]), q, m, flips, perms)
            if depths[slot] >= depth:
                value = from_table(np.int64(values[slot]), ply)
                flag = flags[slot]
                if (flag == EXACT or (flag == LOWER and value >= beta)
                        or (flag == UPPER and value <= alpha)):
                    return value
    alpha0 = alpha
    best, best_square, best_give = -INFINITY, -1, -1
    if hand < 0:  # the game's first move: give a piece, place nothing
        for index in range(-1, 16):
            give = table_give if index < 0 else index
            if give < 0 or (index >= 0 and give == table_give) or not pool >> give & 1:
                continue
            value = -negamax(board, give, pool & ~(1 << give), empty, ply + 1, danger,
                             depth - 1, -beta, -alpha, lines, perms, inverse_perms, keys,
                             checks, values, depths, flags, moves, stamp, stop, counters,
                             replies)
            if counters[2]:
                return np.int64(0)
            if reporting:
                note_reply(replies, counters, -1, give, value, alpha)
            if value > best:
                best, best_give = value, give
            if value > alpha:
                alpha = value
            if alpha >= beta:
                break
    else:
        for index in range(-1, 16):
            square = table_square if index < 0 else index
            if square < 0 or (index >= 0 and square == table_square) or board[square] >= 0:
                continue
            board[square] = hand
            child_danger = danger_mask(board, lines)
            safe = pool & ~child_danger
            for order in range(-1, 16):  # on the table's square, the table's give first
                if order < 0:
                    if index >= 0 or table_give < 0:
                        continue
                    give = table_give
                else:
                    give = order
                    if index < 0 and give == table_give:
                        continue
                if not safe >> give & 1:
                    if reporting and pool >> give & 1:  # the opponent wins at once
                        note_reply(replies, counters, square, give, -(WIN - (ply + 2)),
                                   -INFINITY)
                    continue
                value = -negamax(board, give, pool & ~(1 << give), empty - 1, ply + 1,
                                 child_danger, depth - 1, -beta, -alpha, lines, perms,
                                 inverse_perms, keys, checks, values, depths, flags, moves,
                                 stamp, stop, counters, replies)
                if counters[2]:
                    board[square] = -1
                    return np.int64(0)
                if reporting:
                    note_reply(replies, counters, square, give, value, alpha)
                if value > best:
                    best, best_square, best_give = value, square, give
                if value > alpha:
                    alpha = value
                if alpha >= beta:
                    break
            board[square] = -1
            if alpha >= beta:
                break
        if best_square < 0:  # every give lets the opponent complete a line
            best = -(WIN - (ply + 2))
            for square in range(16):
                if board[square] < 0:
                    best_square = square
                    break
            for give in range(16):
                if pool >> give & 1:
                    best_give = give
                    break
    if tabled:
        slot = store(keys, values, depths, flags, moves, key, stamp, ply, depth, best,
                     alpha0, beta, encode(best_square, best_give, q, m, flips,
                                          inverse_perms))
        checks[slot] = check
    return best


@njit(cache=True, nogil=True)
def search(board, hand, pool, empty, ply, depth, alpha, beta, lines, perms,
           inverse_perms, keys, checks, values, depths, flags, moves, stamp, stop, limit,
           replies, report):
    """(value, nodes, stopped, replies recorded) of one subtree search under a node
    limit; with `report`, the subtree's root records its replies in `replies`."""
    counters = np.zeros(5, np.int64)
    counters[1] = limit
    counters[3] = ply if report else -1
    danger = danger_mask(board, lines)
    value = negamax(board, hand, pool, empty, ply, danger, depth, alpha, beta, lines,
                    perms, inverse_perms, keys, checks, values, depths, flags, moves,
                    stamp, stop, counters, replies)
    return value, counters[0], counters[2] != 0, counters[4]


@njit(cache=True, nogil=True)
def probe(board, hand, perms, inverse_perms, keys, checks, moves, stamp):
    """The table's move for the position as (square, give), or (-2, -2)."""
    key, check, q, m, flips = canonical(board, hand, perms)
    slot = find(keys, key, stamp)
    if slot < 0 or checks[slot] != check:
        return -2, -2
    return decode(np.int64(moves[slot]), q, m, flips, perms)


class GameArrays:
    """A Quarto variant's lines and square symmetries as kernel arrays."""

    def __init__(self, game: Quarto) -> None:
        self.lines = np.array(game.lines, np.int64)
        self.perms = np.array(game.square_symmetries, np.int64)
        self.inverse_perms = np.argsort(self.perms, axis=1).astype(np.int64)


def kernel_position(state) -> tuple:
    """(board, hand, pool mask, empty squares, ply) for the kernel."""
    board = np.array(state.board, np.int8)
    pool = sum(1 << piece for piece in state.pool())
    hand = -1 if state.hand is None else state.hand
    return board, hand, pool, 16 - state.placed, state.ply


class QuartoBackend(TableBackend):
    """The alpha-beta TreeBackend for Quarto: the kernel and its table."""

    move_type = np.int16
    same_tree_as_python = False  # it skips unsafe gives, folds symmetries, wins early
    searches_nodes = True  # negamax_node: hundreds of replies a node, none in Python

    def __init__(self) -> None:
        super().__init__()
        self.checks = np.zeros(len(self.keys), np.uint64)
        self.replies = np.zeros((16 * 17, 4), np.int64)  # a node's, when it reports them
        self.arrays: dict[str, GameArrays] = {}

    def game_arrays(self, game: Quarto) -> GameArrays:
        if game.spec not in self.arrays:
            self.arrays[game.spec] = GameArrays(game)
        return self.arrays[game.spec]

    def negamax(self, state, depth: int, alpha: int, beta: int, control: SearchControl,
                nodes_so_far: int) -> tuple[int, int]:
        value, nodes, _ = self.run(state, depth, alpha, beta, control, nodes_so_far,
                                   report=False)
        return value, nodes

    def negamax_node(self, state, depth: int, alpha: int, beta: int,
                     control: SearchControl, nodes_so_far: int):
        """(value, nodes, replies): a node searched whole in the kernel, with each
        reply it settled as (move, value for the mover, alpha it was searched with)."""
        return self.run(state, depth, alpha, beta, control, nodes_so_far, report=True)

    def run(self, state, depth: int, alpha: int, beta: int, control: SearchControl,
            nodes_so_far: int, report: bool):
        from ..games.quarto import QuartoMove

        outcome = state.outcome()
        if outcome is not None:
            return terminal_value(outcome, state.ply, state.to_move), 1, []
        arrays = self.game_arrays(state.game)
        position = kernel_position(state)
        value, nodes, count = self.within_budget(control, nodes_so_far, lambda limit: search(
            *position, depth, int(alpha), int(beta), arrays.lines, arrays.perms,
            arrays.inverse_perms, self.keys, self.checks, self.values, self.depths,
            self.flags, self.moves, self.stamp, control.stop.array(), limit,
            self.replies, report))
        replies = [(QuartoMove(None if square < 0 else int(square),
                               None if give < 0 else int(give)),
                    int(reply_value), int(reply_alpha))
                   for square, give, reply_value, reply_alpha in self.replies[:count]]
        return int(value), int(nodes), replies

    def best_move(self, state):
        from ..games.quarto import QuartoMove

        arrays = self.game_arrays(state.game)
        board, hand, _, _, _ = kernel_position(state)
        square, give = probe(board, hand, arrays.perms, arrays.inverse_perms, self.keys,
                             self.checks, self.moves, self.stamp)
        if square == -2:
            return None
        return QuartoMove(None if square < 0 else int(square),
                          None if give < 0 else int(give))


def warm_up() -> None:
    """Compile the kernels (or load them from numba's cache) on a small search."""
    game = Quarto()
    state = game.parse_position("0f3c/5a69/..../.... 1")
    backend = thread_backend(QuartoBackend)
    backend.negamax(state, 6, -INFINITY, INFINITY, SearchControl(Budget()), 0)
    backend.negamax_node(state, 6, -INFINITY, INFINITY, SearchControl(Budget()), 0)
    backend.best_move(state)
