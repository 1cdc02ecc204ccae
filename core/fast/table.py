"""The transposition table every alpha-beta kernel shares, and the backend plumbing
around it (a time budget turned into node limits, one table per thread).

The table has 2**TABLE_BITS slots in pairs. A key's pair is picked by Fibonacci hashing
(keys are often sums of board bits, which a plain modulo maps onto few slots); a pair
keeps two positions, so a third must collide before an entry is lost. Each stored key
(KEY_BITS bits at most) is stamped with the search's generation in the bits above, so
a new search ignores old entries without clearing the arrays.
"""
from __future__ import annotations

import threading

import numpy as np
from numba import njit

from ..search.alphabeta import EXACT, LOWER, UPPER
from ..search.control import SearchControl, SearchStopped
from ..values import MAX_PLY, WIN

TABLE_BITS = 22
HASH = np.uint64(0x9E3779B97F4A7C15)
KEY_BITS = 49
GENERATIONS = 1 << (64 - KEY_BITS)
RATE_GUESS = 100_000.0  # nodes/s assumed before a search has timed any kernel call
# a kernel call that spent its node limit with more than this much of the clock left
# is called again, its table keeping what it had searched: the limit comes from the
# speed measured so far, which early, short calls understate
RESUME_SECONDS = 0.02


@njit(cache=True, nogil=True)
def to_table(value, ply):
    """Store decisive values as distance from the node (search/alphabeta.to_table)."""
    if abs(value) >= WIN - MAX_PLY:
        return value + ply if value > 0 else value - ply
    return value


@njit(cache=True, nogil=True)
def from_table(value, ply):
    if abs(value) >= WIN - MAX_PLY:
        return value - ply if value > 0 else value + ply
    return value


@njit(cache=True, nogil=True)
def first_slot(key):
    return np.int64((key * HASH) >> (64 - TABLE_BITS)) & ~1


@njit(cache=True, nogil=True)
def find(keys, key, stamp):
    """The slot holding `key` in this search, or -1."""
    slot = first_slot(key)
    if keys[slot] == key | stamp:
        return slot
    if keys[slot + 1] == key | stamp:
        return slot + 1
    return -1


@njit(cache=True, nogil=True)
def checked_move(keys, checks, moves, key, check, stamp):
    """The move stored for the position whose key and check these are, or -1."""
    slot = find(keys, key, stamp)
    if slot < 0 or checks[slot] != check:
        return np.int64(-1)
    return np.int64(moves[slot])


@njit(cache=True, nogil=True)
def lookup(keys, checks, values, depths, flags, moves, key, check, stamp, ply, depth,
           alpha, beta):
    """AlphaBeta.negamax's table probe, for a kernel whose `checks` complete its keys:
    (the table's move or -1, whether the entry settles the node, its value)."""
    slot = find(keys, key, stamp)
    if slot < 0 or checks[slot] != check:
        return np.int64(-1), False, np.int64(0)
    value = from_table(np.int64(values[slot]), ply)
    flag = flags[slot]
    settles = depths[slot] >= depth and (flag == EXACT or (flag == LOWER and value >= beta)
                                         or (flag == UPPER and value <= alpha))
    return np.int64(moves[slot]), settles, value


@njit(cache=True, nogil=True)
def slot_to_store(keys, depths, key, stamp):
    """Where `key` goes: its own slot, else a free one (empty or from an older search),
    else the one searched less deep."""
    slot = find(keys, key, stamp)
    if slot >= 0:
        return slot
    slot = first_slot(key)
    if keys[slot] >> KEY_BITS != stamp >> KEY_BITS:
        return slot
    if keys[slot + 1] >> KEY_BITS != stamp >> KEY_BITS or depths[slot + 1] <= depths[slot]:
        return slot + 1
    return slot


@njit(cache=True, nogil=True)
def store(keys, values, depths, flags, moves, key, stamp, ply, depth, best, alpha0, beta,
          move):
    """AlphaBeta.store of a node's fail-soft result (searched with window alpha0, beta);
    returns the slot written."""
    slot = slot_to_store(keys, depths, key, stamp)
    keys[slot] = key | stamp
    values[slot] = to_table(best, ply)
    depths[slot] = depth
    flags[slot] = LOWER if best >= beta else (UPPER if best <= alpha0 else EXACT)
    moves[slot] = move
    return slot


class TableBackend:
    """A kernel's table arrays, reset by every search, and its clock.

    Numba cannot read the clock, so a time budget becomes a node limit: the time left
    times the nodes per second this search's earlier kernel calls ran at, measured with
    the search's own clock (a fake clock then gives reproducible searches).
    """

    move_type = np.int8  # how a kernel writes a move into the table
    # whether the kernel searches the Python reference's tree node for node (tested):
    # then a traced search runs in Python all the way down and is the same search; a
    # kernel that prunes its own way keeps its subtrees even in a traced search
    same_tree_as_python = True
    # whether it searches a whole node below the root (negamax_node), reporting its
    # replies, so that a game with hundreds of moves a ply spends no Python per reply
    searches_nodes = False

    def __init__(self) -> None:
        size = 1 << TABLE_BITS
        self.keys = np.zeros(size, np.uint64)
        self.values = np.zeros(size, np.int32)
        self.depths = np.zeros(size, np.int8)
        self.flags = np.zeros(size, np.int8)
        self.moves = np.zeros(size, self.move_type)
        self.generation = 0
        self.reset()

    def reset(self) -> None:
        self.generation += 1
        if self.generation == GENERATIONS:  # the stamps wrap: really clear, once in a while
            self.keys[:] = 0
            self.generation = 1
        self.stamp = np.uint64(self.generation << KEY_BITS)
        self.timed_nodes, self.timed_seconds = 0, 0.0

    def avoid(self, states) -> None:
        """Kernels that score returns to earlier positions override this."""

    def node_limit(self, control: SearchControl, nodes_so_far: int) -> int:
        limit = 1 << 62
        if control.budget.nodes is not None:
            limit = control.budget.nodes - nodes_so_far
        left = control.time_left()
        if left is not None:
            rate = (self.timed_nodes / self.timed_seconds if self.timed_seconds > 0
                    else RATE_GUESS)
            limit = min(limit, int(max(left, 0.0) * rate))
        return limit

    def timed(self, control: SearchControl, started: float, nodes: int) -> None:
        """Record a kernel call's speed, for the next node limit."""
        self.timed_seconds += control.clock() - started
        self.timed_nodes += int(nodes)

    def within_budget(self, control: SearchControl, nodes_so_far: int, kernel):
        """Call `kernel(limit)` (it returns value, nodes, stopped and anything more)
        under the node limit the budget allows, again while it stops with time left
        (the limit was too small a guess), and return its last result with the nodes
        of every call. Raises SearchStopped when the budget, the clock or a cancel
        ends it."""
        nodes_before = nodes_so_far
        while True:
            started = control.clock()
            value, nodes, stopped, *rest = kernel(self.node_limit(control, nodes_so_far))
            self.timed(control, started, nodes)
            nodes_so_far += int(nodes)
            if not stopped:
                return (value, nodes_so_far - nodes_before, *rest)
            budget, left = control.budget, control.time_left()
            if (control.stop.is_set() or left is None or left <= RESUME_SECONDS
                    or (budget.nodes is not None and nodes_so_far >= budget.nodes)):
                raise SearchStopped(nodes_so_far - nodes_before)


_local = threading.local()


def thread_backend(kind: type[TableBackend]) -> TableBackend:
    """This thread's backend of a kind: its table is allocated once (they are large),
    and reset by every search."""
    if not hasattr(_local, "backends"):
        _local.backends = {}
    if kind not in _local.backends:
        _local.backends[kind] = kind()
    return _local.backends[kind]
