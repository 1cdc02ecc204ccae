"""PUCT over many games at once: search/puct.py's tree walk, compiled, for many trees
whose new leaves are evaluated in one network call.

The trees of `games` searches live in numpy arrays, a block of `capacity` nodes a game
(a search makes at most one node a simulation; the blocks double when a round could
overflow them), so that no node is a Python object. A node holds its position (the
game kernel's words), its side to move, its legal moves with their policy indices,
and per move the prior, visits, value sum and child. A round walks down every
searching game's tree as `PuctTree.run` does (the same Q + U, first-play value,
first-among-equals and virtual loss, in the same float64 arithmetic), writes the
planes of every new leaf the cache (puct_cache.py, selfplay.evaluator's) does not
know into one array, and the caller puts that array through the network once a net
(`BatchPuct.round`). The priors are selfplay.legal_softmax's numpy arithmetic on the
whole batch (numpy, not numba: the same float32 exp and sums), so that with one game
and one leaf a round the search is puct_search simulation for simulation
(tests/core/test_puct_batch.py holds it to that).

A game takes part through a module of kernels (fast/connect4_puct.py is one): WORDS,
MAX_MOVES and MAX_DEPTH; `to_words` (a `State` as the kernel's words), `new_node` (a
position's side, legal moves in the rules' order, policy indices and end), `key`,
`write_planes` (as its encoding's), `collect` (a round's walks, which play moves and
so call the game's own kernels: a short loop over `walk`, `finish`, `queue_root` and
`queue_leaf` from here) and `warm_up`. numba keys a kernel's on-disk cache by its own
file alone, so after a change here the game modules' cached kernels must be cleared
(their __pycache__ entries) to be compiled again with it.
"""
from __future__ import annotations

import importlib
import math
from types import ModuleType
from typing import Sequence

import numpy as np
from numba import njit

from ..game import game_entries
from .cache import compiling
from .puct_cache import find, make_room, new_cache, store

NEW, LEAF, PENDING = 0, 1, 2  # how a walk ends: a move never taken, a leaf, a pending one
NO_REF = -(1 << 62)  # a root not waiting for an evaluation


_warmed: set[str] = set()  # the kernel modules this process has compiled or loaded


def kernels_for(game) -> ModuleType | None:
    """The PUCT kernel module of `game`, compiled (or loaded from numba's cache, one
    process at a time: fast/cache.py), or None if it has none."""
    name = game.entry.kernels.puct
    # the kernels play the game's usual board: a variant (its spec differs) falls back
    return None if name is None or game.spec != game.entry.id else ready(name)


def ready(name: str) -> ModuleType:
    """The kernel module `name`, compiled or loaded once a process."""
    module = importlib.import_module(name)
    if name not in _warmed:
        with compiling(name.rpartition(".")[2], [name]):
            module.warm_up()
        _warmed.add(name)
    return module


def warm_all() -> None:
    """Compile or load every game's PUCT kernels: what an agent that may search any
    game does before a move's clock starts (a fraction of a second once cached)."""
    for name in puct_modules():
        ready(name)


def tiny_search(module_name: str, width: int, shape: tuple[int, int, int], start) -> None:
    """A game's PUCT kernels (the module `module_name`) compiled, or loaded from numba's
    cache, on a three-simulation search from `start` with a network of zeros: what each
    kernel module's `warm_up` runs."""
    search = BatchPuct(importlib.import_module(module_name), 1, 4, 2, 1.5, width, shape)
    search.start(0, start, 3)
    while search.busy():
        search.round([lambda planes: (np.zeros((len(planes), width), np.float32),
                                      np.zeros(len(planes), np.float32))])


def puct_modules() -> list[str]:
    """Every registered game's PUCT kernel module (its registration's `kernels.puct`)."""
    return [entry.kernels.puct for entry in game_entries() if entry.kernels.puct]


@njit(cache=True, nogil=True)
def best_move(priors, visits, totals, count, node_visits, node_total, c):
    """The move of the highest Q + U at a node (the first among equals), as
    PuctTree.select computes it: Q the mean value, or the node's own mean for a move
    never visited; U = c * P * sqrt(N_node) / (1 + N_move)."""
    first_play = node_total / node_visits
    root = math.sqrt(node_visits)
    best, best_score = -1, 0.0
    for i in range(count):
        v = visits[i]
        q = totals[i] / v if v else first_play
        score = q + c * priors[i] * root / (1 + v)
        if best < 0 or score > best_score:
            best, best_score = i, score
    return best


@njit(cache=True, nogil=True)
def walk(tree, game, capacity, c, path_nodes, path_index):
    """One walk down game `game`'s tree (PuctTree.select): (steps, how it ended, node).
    NEW: the last step's move has no child yet (the caller makes it); LEAF: it ends at
    a finished game; PENDING: at a leaf waiting for the network (the round ends)."""
    (states, sides, counts, moves, indices, priors, visits, totals, children, exact,
     expanded, used, root_visits, root_total, sims) = tree
    node = game * capacity
    node_visits = np.float64(root_visits[game])
    node_total = root_total[game]
    depth = 0
    while True:
        best = best_move(priors[node], visits[node], totals[node], counts[node],
                         node_visits, node_total, c)
        path_nodes[depth] = node
        path_index[depth] = best
        depth += 1
        child = children[node, best]
        if child < 0:
            return depth, NEW, node
        if not math.isnan(exact[child]):
            return depth, LEAF, child
        if not expanded[child]:
            return depth, PENDING, child
        node_visits = np.float64(visits[node, best])
        node_total = totals[node, best] if sides[child] == sides[node] else \
            -totals[node, best]
        node = child


@njit(cache=True, nogil=True)
def finish(tree, game, capacity, path_nodes, path_index, depth, leaf, value):
    """PuctTree.finish: back up `value` (for the leaf's side to move) along the walk."""
    (states, sides, counts, moves, indices, priors, visits, totals, children, exact,
     expanded, used, root_visits, root_total, sims) = tree
    leaf_side = sides[leaf]
    for k in range(depth):
        node, i = path_nodes[k], path_index[k]
        visits[node, i] += 1
        totals[node, i] += value if sides[node] == leaf_side else -value
    root_visits[game] += 1
    root_total[game] += value if sides[game * capacity] == leaf_side else -value
    sims[game] += 1


@njit(cache=True, nogil=True)
def virtual_loss(tree, path_nodes, path_index, depth, sign):
    """Add (sign 1) or take off (-1) a pending walk's virtual loss: a visit and a lost
    game for each move on it."""
    visits, totals = tree[6], tree[7]
    for k in range(depth):
        node, i = path_nodes[k], path_index[k]
        visits[node, i] += sign
        totals[node, i] -= sign


@njit(cache=True, nogil=True)
def earlier_row(pending_key, pending_ref, game, waits):
    """The network row of an earlier walk of this round to the same position as walk
    `waits` (its key), or -1."""
    for slot in range(waits):
        if pending_key[game, slot] == pending_key[game, waits] and pending_ref[game, slot] >= 0:
            return pending_ref[game, slot]
    return -1


@njit(cache=True, nogil=True)
def queue_root(cache, nets, roots, status, game, key, rows, rows_game, rows_slot):
    """Game `game`'s root (of key `key`) waits for its evaluation, read from the cache
    or from network row `rows`: True if that row is needed (the caller writes its
    planes). The search walks from the next round."""
    root_ref, root_key = roots
    make_room(cache, game)
    root_key[game] = key
    status[game] = SEARCHING
    slot = find(cache, game, key, nets[game])
    if slot >= 0:
        root_ref[game] = -1 - slot
        return False
    rows_game[rows], rows_slot[rows], root_ref[game] = game, -1, rows
    return True


@njit(cache=True, nogil=True)
def queue_leaf(tree, cache, nets, pending, path, depth, game, leaf, key, rows, rows_game,
               rows_slot):
    """A walk of `depth` steps to `leaf` (of key `key`), new and running, waits with a
    virtual loss for its evaluation: read from the cache, from the row of an earlier
    walk to the same position this round (one row, as the reference's batch), or from
    network row `rows`. True if that row is needed (the caller writes its planes)."""
    (pending_nodes, pending_index, pending_depth, pending_leaf, pending_ref, pending_key,
     waiting) = pending
    path_nodes, path_index = path
    virtual_loss(tree, path_nodes, path_index, depth, 1)
    waits = waiting[game]
    waiting[game] = waits + 1
    pending_nodes[game, waits, :depth] = path_nodes[:depth]
    pending_index[game, waits, :depth] = path_index[:depth]
    pending_depth[game, waits], pending_leaf[game, waits] = depth, leaf
    pending_key[game, waits] = key
    slot = find(cache, game, key, nets[game])
    same = earlier_row(pending_key, pending_ref, game, waits)
    if slot >= 0:
        pending_ref[game, waits] = -1 - slot
    elif same >= 0:
        pending_ref[game, waits] = same
    else:
        rows_game[rows], rows_slot[rows], pending_ref[game, waits] = game, waits, rows
        return True
    return False


@njit(cache=True, nogil=True)
def expand(tree, cache, game, net, node, ref, probs, values, key):
    """Give node `node` its priors and return its value: from the network's row `ref`
    (kept in the cache then), or from the cache's slot -ref - 1."""
    counts, indices, priors, expanded = tree[2], tree[4], tree[5], tree[10]
    if ref >= 0:
        for i in range(counts[node]):
            priors[node, i] = probs[ref, indices[node, i]]
        store(cache, game, key, net, priors[node], counts[node], values[ref])
        value = values[ref]
    else:
        slot = -ref - 1
        for i in range(counts[node]):
            priors[node, i] = cache[2][game, slot, i]
        value = cache[3][game, slot]
    expanded[node] = 1
    return value


@njit(cache=True, nogil=True)
def apply(tree, capacity, cache, nets, probs, values, pending, roots):
    """After the network, game by game: a root waiting for its evaluation is expanded
    and starts its counts (one visit, its value); then each pending walk in the order
    walked has its virtual loss taken off, its leaf expanded (the priors of its legal
    moves: `probs` is the legal softmax over policy indices) and its value backed up,
    as PuctTree.run does after its evaluation."""
    (pending_nodes, pending_index, pending_depth, pending_leaf, pending_ref, pending_key,
     waiting) = pending
    root_ref, root_key = roots
    root_visits, root_total = tree[12], tree[13]
    for game in range(len(waiting)):
        if root_ref[game] != NO_REF:
            value = expand(tree, cache, game, nets[game], game * capacity, root_ref[game],
                           probs, values, root_key[game])
            root_visits[game], root_total[game] = 1, value
            root_ref[game] = NO_REF
        for slot in range(waiting[game]):
            leaf = pending_leaf[game, slot]
            value = expand(tree, cache, game, nets[game], leaf, pending_ref[game, slot],
                           probs, values, pending_key[game, slot])
            path_nodes, path_index = pending_nodes[game, slot], pending_index[game, slot]
            depth = pending_depth[game, slot]
            virtual_loss(tree, path_nodes, path_index, depth, -1)
            finish(tree, game, capacity, path_nodes, path_index, depth, leaf, value)
        waiting[game] = 0


def legal_probs(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """selfplay.legal_softmax's arithmetic on a batch: the softmax of each row's
    logits over its legal policy indices (`mask`), the rest 0; float32 as there."""
    masked = np.where(mask, logits, np.float32(-np.inf)).astype(logits.dtype, copy=False)
    exps = np.exp(masked - masked.max(axis=1, keepdims=True))
    return exps / exps.sum(axis=1, keepdims=True)


@njit(cache=True, nogil=True)
def legal_mask(tree, capacity, rows_game, rows_slot, pending_leaf, mask):
    """Per row, which policy indices its leaf's legal moves take."""
    counts, indices = tree[2], tree[4]
    mask[:] = False
    for row in range(len(rows_game)):
        game, slot = rows_game[row], rows_slot[row]
        leaf = game * capacity if slot < 0 else pending_leaf[game, slot]
        for i in range(counts[leaf]):
            mask[row, indices[leaf, i]] = True


CACHE_BYTES = 64 << 20  # the caches of all the games together, at most (about)


def cache_slots(games: int, capacity: int, width: int) -> int:
    """A game's cache entries, a power of two: room for the positions of a dozen
    searches of `capacity` nodes, within CACHE_BYTES for all `games`."""
    wanted = (16 * capacity).bit_length()
    room = (CACHE_BYTES // (games * (width + 3) * 8)).bit_length() - 1
    return 1 << max(8, min(wanted, room))


def evaluate_by_net(forwards, which: np.ndarray, planes: np.ndarray):
    """(logits, values) of `planes`, row r evaluated by `forwards[which[r]]`: one call
    a net, on its rows."""
    logits = values = None
    for net in np.unique(which):
        rows = np.flatnonzero(which == net)
        part_logits, part_values = forwards[net](planes[rows])
        if logits is None:
            logits = np.empty((len(planes), part_logits.shape[1]), part_logits.dtype)
            values = np.empty(len(planes), part_values.dtype)
        logits[rows], values[rows] = part_logits, part_values
    return logits, values


IDLE, ROOT, SEARCHING = 0, 1, 2  # a game's search: none, its root to evaluate, walking


class BatchPuct:
    """The searches of `games` positions at once, each up to its own simulation limit
    (at most `capacity` - 1), `batch` leaves a game a round, exploration `c`.

    `start(game, state, limit, net)` begins a search by net number `net`;
    `round(forwards)` walks every search and evaluates the new leaves (and new roots)
    that the cache does not know, one call of each net's `forwards[net]` (planes ->
    (logits, values), as Net.forward); a search is done when it has made its limit.
    """

    def __init__(self, kernels: ModuleType, games: int, capacity: int, batch: int,
                 c: float, policy_size: int, planes_shape: tuple[int, int, int]) -> None:
        self.kernels, self.games, self.capacity = kernels, games, capacity
        self.batch, self.c = batch, float(c)
        nodes, width = games * capacity, kernels.MAX_MOVES
        self.tree = (np.zeros((nodes, kernels.WORDS), np.uint64),  # positions
                     np.zeros(nodes, np.int8),  # side to move
                     np.zeros(nodes, np.int64),  # legal moves
                     np.zeros((nodes, width), np.int64),  # the moves (kernel codes)
                     np.zeros((nodes, width), np.int64),  # their policy indices
                     np.zeros((nodes, width), np.float64),  # priors
                     np.zeros((nodes, width), np.int64),  # visits
                     np.zeros((nodes, width), np.float64),  # value sums
                     np.full((nodes, width), -1, np.int64),  # children
                     np.full(nodes, np.nan),  # a finished game's value, else nan
                     np.zeros(nodes, np.uint8),  # evaluated
                     np.zeros(games, np.int64),  # nodes used, a game
                     np.zeros(games, np.int64),  # the root's visits
                     np.zeros(games, np.float64),  # the root's value sum
                     np.zeros(games, np.int64))  # simulations made
        depth = kernels.MAX_DEPTH
        self.pending = (np.zeros((games, batch, depth), np.int64),  # walks' nodes
                        np.zeros((games, batch, depth), np.int64),  # their moves
                        np.zeros((games, batch), np.int64),  # their lengths
                        np.zeros((games, batch), np.int64),  # their leaves
                        np.zeros((games, batch), np.int64),  # row, or -1 - cache slot
                        np.zeros((games, batch), np.uint64),  # the leaves' keys
                        np.zeros(games, np.int64))  # pending walks, a game
        self.roots = (np.full(games, NO_REF, np.int64), np.zeros(games, np.uint64))
        self.path = (np.zeros(depth, np.int64), np.zeros(depth, np.int64))
        self.cache = new_cache(games, cache_slots(games, capacity, width), width)
        self.status = np.zeros(games, np.int8)
        self.limits = np.zeros(games, np.int64)
        self.nets = np.zeros(games, np.int64)
        self.planes = np.zeros((games * batch, *planes_shape), np.float32)
        self.rows_game = np.zeros(games * batch, np.int64)
        self.rows_slot = np.zeros(games * batch, np.int64)
        self.mask = np.zeros((games * batch, policy_size), np.bool_)

    def start(self, game: int, state, limit: int, net: int = 0) -> None:
        """Begin game `game`'s search of `state` (a running game's), `limit`
        simulations, by net number `net`; its root is evaluated in the next round."""
        if limit < 0:
            raise ValueError("a search cannot make fewer than no simulations")
        root = game * self.capacity
        self.tree[0][root] = self.kernels.to_words(state)
        self.kernels.new_node(self.tree, root)
        if self.tree[2][root] == 0:
            raise ValueError("the game is over: there is no move to search")
        self.tree[11][game] = 1
        self.tree[12][game], self.tree[13][game], self.tree[14][game] = 0, 0.0, 0
        self.status[game], self.limits[game], self.nets[game] = ROOT, limit, net

    def stop(self, game: int) -> None:
        self.status[game] = IDLE

    def done(self, game: int) -> bool:
        """Whether game `game`'s search has made its simulations."""
        return self.status[game] == SEARCHING and self.tree[14][game] >= self.limits[game]

    def busy(self) -> bool:
        """Whether any search has simulations left to make."""
        return bool(np.any((self.status == ROOT) | ((self.status == SEARCHING)
                                                    & (self.tree[14] < self.limits))))

    def round(self, forwards: Sequence) -> np.ndarray:
        """Walk every search once (up to `batch` leaves each), evaluate the new leaves
        and roots (one call a net), and back them up. Returns the games whose root
        was evaluated: their searches walk from the next round."""
        rooted = np.flatnonzero(self.status == ROOT)
        left = np.where(self.status == SEARCHING,
                        np.minimum(self.batch, self.limits - self.tree[14]), 0)
        if np.any(self.tree[11] + left > self.capacity):  # a round makes a node a walk
            self.grow()
        rows = self.kernels.collect(self.tree, self.capacity, self.c, self.batch,
                                    self.status, self.limits, self.nets, self.cache,
                                    self.pending, self.roots, self.path, self.planes,
                                    self.rows_game, self.rows_slot)
        games, slots = self.rows_game[:rows], self.rows_slot[:rows]
        probs, values = np.zeros((0, self.mask.shape[1])), np.zeros(0)
        if rows:
            logits, values = evaluate_by_net(forwards, self.nets[games], self.planes[:rows])
            mask = self.mask[:rows]
            legal_mask(self.tree, self.capacity, games, slots, self.pending[3], mask)
            # float64 from here, as the reference's lists of Python floats
            probs = legal_probs(logits, mask).astype(np.float64)
            values = np.asarray(values, np.float64)
        apply(self.tree, self.capacity, self.cache, self.nets, probs, values,
              self.pending, self.roots)
        return rooted

    def grow(self) -> None:
        """Twice the nodes a game (between rounds: no walk is pending)."""
        old, new, games = self.capacity, 2 * self.capacity, self.games
        nodes = []
        for array in self.tree[:11]:
            grown = np.zeros((games * new, *array.shape[1:]), array.dtype)
            grown.reshape(games, new, *array.shape[1:])[:, :old] = \
                array.reshape(games, old, *array.shape[1:])
            nodes.append(grown)
        children = nodes[8]
        linked = children >= 0
        children[linked] = children[linked] // old * new + children[linked] % old
        self.tree = (*nodes, *self.tree[11:])
        self.capacity = new

    def root_moves(self, game: int) -> tuple[np.ndarray, np.ndarray]:
        """The root's moves (kernel codes, in the rules' order) and their visits."""
        root, count = game * self.capacity, self.tree[2][game * self.capacity]
        return self.tree[3][root, :count], self.tree[6][root, :count]

    def simulations(self, game: int) -> int:
        return int(self.tree[14][game])

    def root_counts(self, game: int = 0) -> tuple[int, float]:
        """The root's own visits and value sum."""
        return int(self.tree[12][game]), float(self.tree[13][game])

    def root_value(self, game: int = 0) -> float:
        """The network's value of an evaluated root, before any simulation."""
        return float(self.tree[13][game]) / int(self.tree[12][game])

    def root_edges(self, game: int = 0) -> tuple[list, list, list]:
        """The root's moves' priors, visits and value sums, as Python numbers."""
        root = game * self.capacity
        count = self.tree[2][root]
        return (self.tree[5][root, :count].tolist(), self.tree[6][root, :count].tolist(),
                self.tree[7][root, :count].tolist())

    def principal_indices(self, game: int) -> list[int]:
        """From the root, the index of the move played at each node (the most visited,
        the highest prior among equals, the first of those) while the node is
        evaluated and running: PuctTree.principal_variation, as move indices."""
        counts, priors, visits, children, expanded = (self.tree[i] for i in (2, 5, 6, 8, 10))
        line, node = [], game * self.capacity
        while node >= 0 and expanded[node] and counts[node]:
            index = max(range(counts[node]),
                        key=lambda i: (visits[node, i], priors[node, i]))
            line.append(index)
            node = children[node, index]
        return line

    def root_priors(self, game: int) -> np.ndarray:
        """The root's priors (a view: noise is mixed into it in place)."""
        root = game * self.capacity
        return self.tree[5][root, :self.tree[2][root]]

    def add_noise(self, game: int, alpha: float, fraction: float, seed: int) -> None:
        """PuctTree.add_noise on game `game`'s evaluated root."""
        priors = self.root_priors(game)
        noise = np.random.default_rng(seed).dirichlet([alpha] * len(priors))
        priors[:] = (1 - fraction) * priors + fraction * noise
