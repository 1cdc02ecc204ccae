"""Desconecta-4 BOOM's kernels for the batched PUCT of puct_batch.py: a position as five
words (the side to move's pieces, the other's, their bombs, the ply), its legal moves
(the open columns, then BOOM while the mover has a bomb down), a move, its end and its
input planes, the same as games/boom.py's `BoomState` and `encoding()`
(tests/core/test_boom_puct.py holds the planes and the searches to them). A move's code
is its policy index (a column, or BOOM after them); fast/boom.py plays it.

`collect` is a round's walks for every game, the part of the search that plays moves
and so calls this game's kernels; the rest of the search is puct_batch.py's.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..games.boom import BOARD, BOMB_EVERY, BOOM, GAME, MAX_PLIES
from .bits import mix
from .boom import TOP, WIDTH, end_value, play
from .puct_batch import NEW, PENDING, ROOT, SEARCHING, finish, queue_leaf, queue_root, walk
from .puct_cache import make_room

WORDS = 5  # own, other, own bomb, other bomb, ply
MAX_MOVES = WIDTH + 1
MAX_DEPTH = MAX_PLIES + 1  # nodes on a path from the root, root included
BIT_GRID = BOARD.bit_grid.astype(np.int64)  # [row, column] -> bit, the top row first
ROWS, COLS = BIT_GRID.shape
PLANES = (8, ROWS, COLS)  # 4 boards; moved first, both bomb waits, the ply cap's nearness
ZERO = np.uint64(0)


def to_words(state) -> np.ndarray:
    """A `BoomState` as the kernels' words, the side to move's first."""
    side = state.to_move
    return np.array([state.pieces[side], state.pieces[1 - side], state.bombs[side],
                     state.bombs[1 - side], state.ply], np.uint64)


@njit(cache=True, nogil=True)
def new_node(tree, node):
    """Fill in node `node` from its position: its side to move (the ply's parity), its
    legal moves in the rules' order (their policy indices the same codes), its end's
    value for the side to move (the side that acted loses with a four: +1; the mover's
    four -1; a full board or the ply cap 0) or nan, and no visits yet."""
    (states, sides, counts, moves, indices, priors, visits, totals, children, exact,
     expanded, used, root_visits, root_total, sims) = tree
    own, other, own_bomb, ply = states[node, 0], states[node, 1], states[node, 2], \
        np.int64(states[node, 4])
    sides[node] = ply & 1
    expanded[node] = 0
    count = 0
    over, value = end_value(own, other, ply)
    if over:
        exact[node] = 0.0 if value == 0 else 1.0 if value > 0 else -1.0
    else:
        exact[node] = np.nan
        occupied = own | other
        for move in range(WIDTH + 1):
            if (move < WIDTH and (occupied & TOP[move]) == ZERO) or \
                    (move == BOOM and own_bomb != ZERO):
                moves[node, count] = move
                indices[node, count] = move
                priors[node, count] = 0.0
                visits[node, count] = 0
                totals[node, count] = 0.0
                children[node, count] = -1
                count += 1
    counts[node] = count


@njit(cache=True, nogil=True)
def play_into(words, move, out):
    """The words after `move` into `out`."""
    own, other, own_bomb, other_bomb, ply = play(words[0], words[1], words[2], words[3],
                                                 np.int64(words[4]), move)
    out[0], out[1], out[2], out[3], out[4] = own, other, own_bomb, other_bomb, ply


@njit(cache=True, nogil=True)
def bomb_wait(bomb, ply, side):
    """BoomState.turns_to_bomb(side) / BOMB_EVERY (0 with its bomb down)."""
    if bomb != ZERO:
        return 0.0
    taken = (ply + 1 - side) // 2
    return ((BOMB_EVERY - (taken + 1) % BOMB_EVERY) % BOMB_EVERY + 1) / BOMB_EVERY


@njit(cache=True, nogil=True)
def write_planes(words, out):
    """boom.planes: the mover's pieces, the other's, the mover's bomb, the other's; then
    constant planes: whether the mover moved first, each side's bomb wait (a fifth of
    its turns), the ply over the cap."""
    ply = np.int64(words[4])
    mover = ply & 1
    for k in range(4):
        for r in range(ROWS):
            for c in range(COLS):
                out[k, r, c] = np.float32((words[k] >> np.uint64(BIT_GRID[r, c]))
                                          & np.uint64(1))
    out[4] = np.float32(1 - mover)
    out[5] = np.float32(bomb_wait(words[2], ply, mover))
    out[6] = np.float32(bomb_wait(words[3], ply, 1 - mover))
    out[7] = np.float32(ply / MAX_PLIES)


@njit(cache=True, nogil=True)
def key(words):
    """The position's key: a mix of all five words (BoomState.key is wider than 64
    bits); two positions share one by chance only, as two random 64-bit numbers."""
    z = mix(words[4] + np.uint64(1))
    for k in range(4):
        z = mix(z ^ words[k])
    return z


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

    tiny_search(__name__, MAX_MOVES, PLANES, GAME.start())
