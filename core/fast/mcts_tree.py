"""What the MCTS kernels share: the tree in numpy arrays, and its selection, expansion
and backup steps, exactly as PythonTree in search/mcts.py takes them.

Node 0 is the root. A node's children form a list (`first_child`, then `next_sibling`)
in expansion order; a list rather than a row of slots per node keeps a node small, which
matters as a tree gains a node per iteration, up to a million a second. Everything the
search keeps of a node (visits, wins, the links, its move, its proof, and a game's own
fields: EXTRA_FIELDS) sits together in one record of `nodes`, so that a node costs one
memory read, not one per field, once the tree outgrows the caches; the kernels reach a
field as an array all the same (`child_count[node]`), through a view of the records. As
the tree grows, KernelTree renumbers its nodes breadth first (`relayout`), so that every
node's children are neighbours and selection reads them in one sweep of memory (the
decisions do not change: only the numbers do). A game's kernel supplies the rest: how
to list and play its moves, and who won a playout; a kernel with the solver variant
(search/mcts.py) also proves nodes, with `prove_path` here.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..errors import PlygroundError
from ..search.mcts import chosen_line
from ..rng import MASK64

START_CAPACITY = 1 << 16
NODE_FIELDS = {"visits": np.int64, "wins": np.float64, "first_child": np.int32,
               "next_sibling": np.int32, "child_count": np.int16, "moves": np.int16,
               "proof_plies": np.int16, "proof": np.int8}
# a node's proof, for the side that moved into it, and the result each stands for
UNPROVEN, WON, DRAWN, LOST = 0, 1, 2, 3
RESULTS = {WON: 1.0, DRAWN: 0.5, LOST: 0.0}


@njit(cache=True, nogil=True)
def select_child(node, nodes, exploration):
    """The first child with the highest UCT score, in expansion order."""
    best, best_score = nodes[node].first_child, -math.inf
    child = nodes[node].first_child
    log_visits = math.log(nodes[node].visits)
    while child >= 0:
        record = nodes[child]
        score = record.wins / record.visits + exploration * math.sqrt(
            log_visits / record.visits)
        if score > best_score:
            best, best_score = child, score
        child = record.next_sibling
    return best


@njit(cache=True, nogil=True)
def add_child(node, move, nodes, child_count, moves, size):
    """A new node for `move`, appended to `node`'s children; returns its index."""
    child = size[0]
    size[0] += 1
    record = nodes[child]
    record.first_child, record.next_sibling, record.visits, record.wins = -1, -1, 0, 0.0
    child_count[child], moves[child] = 0, move
    if child_count[node] == 0:
        nodes[node].first_child = child
    else:
        last = nodes[node].first_child
        while nodes[last].next_sibling >= 0:
            last = nodes[last].next_sibling
        nodes[last].next_sibling = child
    child_count[node] += 1
    return child


@njit(cache=True, nogil=True)
def breadth_first(size, nodes):
    """The tree's `size` nodes in breadth-first order, each node's children in their
    list's order: the root first, and every node's children side by side."""
    order = np.empty(size, np.int64)
    order[0], head, tail = 0, 0, 1
    while head < tail:
        child = nodes[order[head]].first_child
        head += 1
        while child >= 0:
            order[tail] = child
            tail += 1
            child = nodes[child].next_sibling
    return order


@njit(cache=True, nogil=True)
def mover_at(depth, to_move):
    """The side that moved into the node `depth` plies below the root."""
    return (to_move + depth + 1) & 1


@njit(cache=True, nogil=True)
def winner_of(proof, mover):
    """The winner a proven node stands for (-1 a draw)."""
    return -1 if proof == DRAWN else (mover if proof == WON else 1 - mover)


@njit(cache=True, nogil=True)
def proof_of(node, move_count, child_count, nodes, proof, proof_plies):
    """search/mcts.proof_of: (proof, plies) of what `node`'s children prove of it, or
    (UNPROVEN, 0)."""
    fewest_win, fewest_draw, most_loss, all_proven = -1, -1, -1, True
    child = nodes[node].first_child
    while child >= 0:
        plies = np.int64(proof_plies[child])
        if proof[child] == WON:
            if fewest_win < 0 or plies < fewest_win:
                fewest_win = plies
        elif proof[child] == DRAWN:
            if fewest_draw < 0 or plies < fewest_draw:
                fewest_draw = plies
        elif proof[child] == LOST:
            most_loss = max(most_loss, plies)
        else:
            all_proven = False
        child = nodes[child].next_sibling
    if fewest_win >= 0:
        return LOST, 1 + fewest_win
    if child_count[node] < move_count[node] or not all_proven:
        return UNPROVEN, 0
    if fewest_draw >= 0:
        return DRAWN, 1 + fewest_draw
    return WON, 1 + most_loss


@njit(cache=True, nogil=True)
def prove_path(path, depth, move_count, child_count, nodes, proof, proof_plies):
    """PythonTree.prove_up from the parent of the proven `path[depth]`."""
    for k in range(depth - 1, -1, -1):
        node = path[k]
        if proof[node] != UNPROVEN:
            return
        found, plies = proof_of(node, move_count, child_count, nodes, proof, proof_plies)
        if found == UNPROVEN:
            return
        proof[node], proof_plies[node] = found, plies


@njit(cache=True, nogil=True)
def backup(path, depth, to_move, winner, nodes):
    """Count a visit and the result (1 win, 0.5 draw, 0 loss; `winner` -1 for a draw)
    for the side that moved into each node of `path[0..depth]`."""
    for k in range(depth + 1):
        mover = mover_at(k, to_move)  # the root's "mover" is the side not to move
        record = nodes[path[k]]
        record.visits += 1
        record.wins += 0.5 if winner < 0 else (1.0 if winner == mover else 0.0)


class KernelTree:
    """The Python side of a kernel tree (the MctsTree protocol of search/mcts.py):
    node records sized for the search's iterations when it has a count, else grown by
    half when a run might not fit (running out of memory is said as such), renumbered
    as they double; the root's children, the principal variation; each field read
    as an array of its name (`visits`). A game's tree adds its own fields
    (`EXTRA_FIELDS`), runs its kernel (`kernel`) and turns a stored move code into a
    move (`move_of`)."""

    EXTRA_FIELDS: dict = {}  # a game's own fields of a node: name -> numpy type
    # the tree is renumbered (relayout) once it reaches this many nodes, and again each
    # time it has doubled since
    RELAYOUT_FROM = 1 << 16

    solves = False  # whether its kernel has the solver variant (search/mcts.py)

    def __init__(self, to_move: int, seed: int, exploration: float,
                 capacity: int = START_CAPACITY, solver: bool = False) -> None:
        if solver and not self.solves:
            raise ValueError(f"{type(self).__name__} has no solver variant")
        self.to_move = to_move
        self.solver = solver
        self.exploration = float(exploration)
        self.rng = np.array([seed & MASK64], np.uint64)
        self.size = np.ones(1, np.int64)
        self.laid_out = 1  # the size at the last relayout
        self.iterations = 0
        self.node_type = np.dtype(list({**NODE_FIELDS, **self.EXTRA_FIELDS}.items()),
                                  align=True)
        self.hold(np.zeros(capacity, self.node_type))
        self.nodes[0]["first_child"] = self.nodes[0]["next_sibling"] = -1

    def hold(self, nodes: np.ndarray) -> None:
        """Keep `nodes`, and a view of each of its fields under the field's name
        (`self.child_count`), which the kernels take as an array."""
        self.nodes = nodes
        for name in self.node_type.names:
            setattr(self, name, nodes[name])

    def run(self, count: int) -> None:
        needed = int(self.size[0]) + count  # an iteration adds at most one node
        if needed > len(self.nodes):
            self.grow(max(needed, len(self.nodes) * 3 // 2))
        size = int(self.size[0])
        if size >= self.RELAYOUT_FROM and size >= 2 * self.laid_out:
            self.relayout()
        self.iterations += self.kernel(count)

    def warm_up(self) -> None:
        """Compile (or load from numba's cache) every kernel a search of this tree
        runs: a few iterations, and a renumbering, which a search reaches only once
        it holds RELAYOUT_FROM nodes, deep into a move's time."""
        self.run(2)
        self.relayout()

    def relayout(self) -> None:
        """Renumber the nodes breadth first (the root stays 0), so that each node's
        children are neighbours in memory; the links follow the new numbers."""
        size = int(self.size[0])
        order = breadth_first(size, self.nodes)
        renumbered = np.empty(size, np.int32)
        renumbered[order] = np.arange(size, dtype=np.int32)
        self.nodes[:size] = self.nodes[order]
        for link in ("first_child", "next_sibling"):
            links = self.nodes[link][:size]
            linked = links >= 0
            links[linked] = renumbered[links[linked]]
        self.laid_out = size

    def grow(self, capacity: int) -> None:
        """Room for `capacity` nodes, zeros past the old ones (a new node is unproven;
        add_child gives it the rest)."""
        try:
            nodes = np.zeros(capacity, self.node_type)
        except MemoryError:
            raise PlygroundError(
                f"MCTS ran out of memory: its tree holds {int(self.size[0]):,} nodes after "
                f"{self.iterations:,} iterations (a node each); give it fewer iterations "
                "or less time") from None
        nodes[:len(self.nodes)] = self.nodes
        self.hold(nodes)

    def kernel(self, count: int) -> int:
        """Run up to `count` iterations (fewer once the root is proven); how many."""
        raise NotImplementedError

    @property
    def solved(self) -> bool:
        return self.proof[0] != UNPROVEN

    @property
    def root_proof(self) -> tuple | None:
        """The root's proof for its side to move (a proof is kept for the mover)."""
        if not self.solved:
            return None
        return 1.0 - RESULTS[int(self.proof[0])], int(self.proof_plies[0])

    def move_of(self, code: int):
        raise NotImplementedError

    def children(self, node: int) -> list[int]:
        nodes = self.nodes
        found, child = [], int(nodes[node]["first_child"])
        while child >= 0:
            found.append(child)
            child = int(nodes[child]["next_sibling"])
        return found

    def root_children(self) -> list[tuple]:
        nodes = self.nodes
        return [(self.move_of(self.moves[c]), int(nodes[c]["visits"]),
                 float(nodes[c]["wins"]),
                 None if (proof := self.proof_at(c)) is None else (proof[0], proof[1] + 1))
                for c in self.children(0)]

    def proof_at(self, node: int) -> tuple | None:
        """`node`'s proof for the side that moved into it: (result, plies) or None."""
        if self.proof[node] == UNPROVEN:
            return None
        return RESULTS[int(self.proof[node])], int(self.proof_plies[node])

    def principal_variation(self) -> tuple:
        return chosen_line(lambda node: [
            (self.move_of(self.moves[c]), int(self.nodes[c]["visits"]), self.proof_at(c), c)
            for c in self.children(node)], 0)
