"""Connect 4's kernels for the batched PUCT of puct_batch.py: a position as its two
bitboards (the side to move's, the other's), its legal columns, a move, its end and
its input planes, the same as games/connect4.py's `Connect4State` and `encoding()`
(tests/core/test_puct_batch.py holds the planes and the searches to them).

`collect` is a round's walks for every game, the part of the search that plays moves
and so calls this game's kernels; the rest of the search is puct_batch.py's.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..games.connect4 import BOARD
from .bits import popcount
from .connect4 import TOP, WIDTH, has_four, play
from .puct_batch import NEW, PENDING, ROOT, SEARCHING, finish, queue_leaf, queue_root, walk
from .puct_cache import make_room

WORDS = 2  # own, other
MAX_MOVES = WIDTH
MAX_DEPTH = BOARD.cells + 1  # nodes on a path from the root, root included
CELLS = BOARD.cells
BIT_GRID = BOARD.bit_grid.astype(np.int64)  # [row, column] -> bit, the top row first
ROWS, COLS = BIT_GRID.shape


def to_words(state) -> np.ndarray:
    """A `Connect4State` as the kernels' words: the side to move's pieces, the other's."""
    return np.array([state.pieces[state.to_move], state.pieces[1 - state.to_move]],
                    np.uint64)


@njit(cache=True, nogil=True)
def new_node(tree, node):
    """Fill in node `node` from its position: its side to move (who moved first is 0),
    its legal columns in ascending order (none once the game is over) and their policy
    indices (the column), its end's value for the side to move (a four is the last
    mover's: -1; a full board 0) or nan, and no visits yet."""
    (states, sides, counts, moves, indices, priors, visits, totals, children, exact,
     expanded, used, root_visits, root_total, sims) = tree
    own, other = states[node, 0], states[node, 1]
    occupied = own | other
    ply = popcount(occupied)
    sides[node] = ply & 1
    expanded[node] = 0
    count = 0
    if has_four(other):
        exact[node] = -1.0
    elif ply == CELLS:
        exact[node] = 0.0
    else:
        exact[node] = np.nan
        for column in range(WIDTH):
            if not occupied & TOP[column]:
                moves[node, count] = column
                indices[node, count] = column
                priors[node, count] = 0.0
                visits[node, count] = 0
                totals[node, count] = 0.0
                children[node, count] = -1
                count += 1
    counts[node] = count


@njit(cache=True, nogil=True)
def write_planes(words, out):
    """connect4.planes: the mover's discs, the other side's, and a plane of ones if
    the mover moved first (zeros if not)."""
    own, other = words[0], words[1]
    first = np.float32(1.0 - (popcount(own | other) & 1))
    for r in range(ROWS):
        for c in range(COLS):
            bit = np.uint64(BIT_GRID[r, c])
            out[0, r, c] = np.float32((own >> bit) & np.uint64(1))
            out[1, r, c] = np.float32((other >> bit) & np.uint64(1))
            out[2, r, c] = first


@njit(cache=True, nogil=True)
def key(words):
    """The position's key (Connect4State.key: the mover's discs plus the occupied
    cells, which says whose turn it is too)."""
    return words[0] + (words[0] | words[1])


@njit(cache=True, nogil=True)
def collect(tree, capacity, c, batch, status, limits, nets, cache, pending, roots, path,
            planes, rows_game, rows_slot):
    """A round of every game's search (PuctTree.run up to the network call): a root to
    evaluate, or up to `batch` walks (no more than its simulations left), each backing
    up a finished game's value at once or leaving its new leaf pending; a walk that
    meets a pending leaf ends the game's round. Whatever the cache does not know gives
    its planes, a row for the network. Returns the rows written."""
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
                states[leaf, 0], states[leaf, 1] = play(states[node, 0], states[node, 1],
                                                        moves[node, index])
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
    from ..games.connect4 import GAME
    from .puct_batch import tiny_search

    tiny_search(__name__, WIDTH, (3, ROWS, COLS), GAME.start())
