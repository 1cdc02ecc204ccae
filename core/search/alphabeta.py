"""Alpha-beta: negamax with pruning, iterative deepening, a transposition table and
move ordering (the table's move first, then the game's order), under any budget.

The top `LIVE_PLIES` of the tree are searched here, in Python, so the inspector sees
every root move and its replies get values. Below that, a game may hand the subtree to
a fast backend (a numba kernel with its own table); in trace mode everything runs here
so that every node can be shown, unless the kernel prunes its own way. A backend that
`searches_nodes` takes each root move's node whole and reports the values of its
replies (Quarto: a node has up to 240 replies, too many to walk in Python), in trace
mode too, so that a traced search is the same search.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Protocol, Sequence

from ..game import Game, Move, State
from ..values import INFINITY, is_decisive
from .control import Budget, SearchControl, SearchStopped
from .events import IterationDone, MoveValue, NodeEntered, SearchDone
from .traps import set_trap
from .tree import LIVE_PLIES, TreeSearch, bound_of

MAX_DEPTH = 64
EXACT, LOWER, UPPER = 0, 1, 2


class TreeBackend(Protocol):
    """A fast searcher for subtrees, with its own transposition table."""

    def reset(self) -> None:
        """Forget the table: every search starts afresh."""

    def avoid(self, states: Sequence[State]) -> None:
        """Score a return to any of `states` as a draw, until the next reset."""

    def negamax(self, state: State, depth: int, alpha: int, beta: int,
                control: SearchControl, nodes_so_far: int) -> tuple[int, int]:
        """(value, nodes searched); raises SearchStopped when the control says so."""

    def best_move(self, state: State) -> Move | None:
        """The move its table holds for `state`, if any (for the principal variation)."""

    # A backend whose `searches_nodes` is true also has:
    # negamax_node(state, depth, alpha, beta, control, nodes_so_far)
    #     -> (value, nodes, [(reply, value for the mover, alpha it was searched with)])


@dataclass(slots=True)
class Entry:
    depth: int
    value: float
    flag: int
    move: Move | None


def to_table(value: float, ply: int) -> float:
    """Store decisive values as distance from the node, not from the game's start."""
    if is_decisive(value):
        return value + ply if value > 0 else value - ply
    return value


def from_table(value: float, ply: int) -> float:
    if is_decisive(value):
        return value - ply if value > 0 else value + ply
    return value


class AlphaBeta(TreeSearch):
    def __init__(self, game: Game, control: SearchControl, observer: Any = None,
                 backend: TreeBackend | None = None, evaluate: Any = None,
                 avoid_repeats: bool = False) -> None:
        super().__init__(game, control, observer, evaluate, avoid_repeats)
        self.table: dict[int, Entry] = {}
        if self.tracing and backend is not None and backend.same_tree_as_python:
            backend = None  # the same search, traced all the way down in Python
        self.backend = backend
        if self.backend is not None:
            self.backend.reset()
        self.root_values: list[MoveValue] = []
        self.exact_root = False

    def avoid(self, states: Sequence[State]) -> None:
        super().avoid(states)
        if self.backend is not None:
            self.backend.avoid(states)

    def negamax(self, state: State, depth: int, alpha: float, beta: float,
                path: tuple = ()) -> float:
        if self.backend is not None and depth > 0 and (
                len(path) >= LIVE_PLIES or (path and self.backend.searches_nodes)):
            return self.kernel_node(state, depth, alpha, beta, path)
        static = self.enter(state, path, depth, alpha, beta)
        if static is not None:
            return static
        alpha0 = alpha
        key = state.key()
        entry = self.table.get(key)
        table_move = None
        if entry is not None:
            table_move = entry.move
            if entry.depth >= depth and path:
                value = from_table(entry.value, state.ply)
                if (entry.flag == EXACT or (entry.flag == LOWER and value >= beta)
                        or (entry.flag == UPPER and value <= alpha)):
                    self.leave(path, depth, value, alpha0, beta, entry.move, source="table")
                    return value
        moves = self.game.order_moves(state, state.moves())
        if table_move in moves:
            moves.remove(table_move)
            moves.insert(0, table_move)
        best, best_move = -INFINITY, moves[0]
        for index, move in enumerate(moves):
            child_path = path + (move,)
            window_alpha = -INFINITY if self.exact_root and not path else alpha
            value = -self.negamax(state.play(move), depth - 1, -beta, -window_alpha,
                                  child_path)
            self.report_child(child_path, value, window_alpha, beta)
            if not path:
                self.root_values.append(
                    MoveValue(move, value, bound_of(value, window_alpha, beta)))
            if value > best:
                best, best_move = value, move
            if value > alpha:
                alpha = value
            if alpha >= beta:
                self.store(key, state.ply, depth, best, LOWER, best_move)
                pruned = len(moves) - index - 1
                self.leave(path, depth, best, alpha0, beta, best_move, cutoff=pruned > 0,
                           pruned=pruned)
                return best
        self.store(key, state.ply, depth, best, UPPER if best <= alpha0 else EXACT,
                   best_move)
        self.leave(path, depth, best, alpha0, beta, best_move)
        return best

    def kernel_node(self, state: State, depth: int, alpha: float, beta: float,
                    path: tuple) -> float:
        """A subtree searched by the backend, one step in a trace; a live node's (a
        backend that `searches_nodes`) with its replies' values reported."""
        if self.tracing:  # the kernel's subtree: one step, not traced inside
            self.observer(NodeEntered(path, depth, alpha, beta))
        try:
            if len(path) < LIVE_PLIES:
                value, nodes, replies = self.backend.negamax_node(
                    state, depth, alpha, beta, self.control, self.nodes)
            else:
                replies = ()
                value, nodes = self.backend.negamax(state, depth, alpha, beta,
                                                    self.control, self.nodes)
        except SearchStopped as stop:
            self.nodes += stop.nodes
            raise
        self.nodes += nodes
        for reply, reply_value, reply_alpha in replies:
            self.report_child(path + (reply,), reply_value, reply_alpha, beta)
        self.leave(path, depth, value, alpha, beta, None, source="kernel", nodes=nodes)
        return value

    def store(self, key: int, ply: int, depth: int, value: float, flag: int,
              move: Move) -> None:
        self.table[key] = Entry(depth, to_table(value, ply), flag, move)

    def principal_variation(self, state: State, first: Move, limit: int) -> tuple:
        """The best line as the tables hold it, starting with the root's best move."""
        line = [first]
        state = state.play(first)
        while len(line) < limit and state.outcome() is None:
            entry = self.table.get(state.key())
            move = entry.move if entry is not None else None
            if move is None and self.backend is not None:
                move = self.backend.best_move(state)
            if move is None or move not in state.moves():
                break
            line.append(move)
            state = state.play(move)
        return tuple(line)

    def iteration(self, state: State, depth: int) -> tuple[Move, float]:
        self.iteration_depth = depth
        self.root_values = []
        value = self.negamax(state, depth, -INFINITY, INFINITY)
        return self.table[state.key()].move, value


def alphabeta_search(game: Game, state: State, budget: Budget, observer: Any = None,
                     control: SearchControl | None = None,
                     backend: TreeBackend | None = None,
                     exact_root: bool = False, evaluate: Any = None,
                     avoid_repeats: bool = True) -> SearchDone:
    """Iterative deepening until the budget runs out, a depth is reached, or the game
    is solved (a decisive value, or no plies left to search).

    With `exact_root`, every root move is searched with a full window, so each gets an
    exact value (for analysis), at some cost in speed. `evaluate` replaces the game's
    heuristic (a backend, which has the game's heuristic compiled in, is then not used).
    With `avoid_repeats`, a return to a position the game has already seen scores as a
    draw (see `TreeSearch.set_root`; the seed engines do not do this).
    """
    control = control or SearchControl(budget)
    if evaluate is not None:
        backend = None
    search = AlphaBeta(game, control, observer, backend, evaluate, avoid_repeats)
    search.exact_root = exact_root
    max_depth = min(budget.depth or MAX_DEPTH, MAX_DEPTH)
    plies_left = game.plies_left_at_most(state)
    done: SearchDone | None = None
    for depth in game.iteration_depths(state, max_depth):
        try:
            best_move, value = search.iteration(state, depth)
        except SearchStopped:
            # An unfinished depth is dropped whole: the decision, its value and the
            # root moves' values all come from the same, last complete, depth.
            if done is not None:
                done = replace(done, work=search.nodes, elapsed=control.elapsed(),
                               note=stop_note(control, depth, search.nodes,
                                              len(search.root_values),
                                              len(state.moves())), stopped=True)
            break
        elapsed = control.elapsed()
        move_values = tuple(search.root_values)
        pv = search.principal_variation(state, best_move, depth)
        nps = search.nodes / elapsed if elapsed > 0 else 0.0
        if observer is not None:
            observer(IterationDone(depth, best_move, value, move_values, pv, search.nodes,
                                   elapsed, nps))
        done = SearchDone(best_move, value, pv, search.nodes, elapsed, depth, move_values)
        seen_to_the_end = plies_left is not None and depth >= plies_left
        if is_decisive(value) or seen_to_the_end:
            if seen_to_the_end and value == 0 and not exact_root:
                done = set_trap(search, state, done)  # a proven draw: pick the trap
            break
    if done is None:
        first = game.order_moves(state, state.moves())[0]
        return SearchDone(first, None, (first,), search.nodes, control.elapsed(),
                          note="stopped before depth 1 was complete", stopped=True)
    return done


def stop_note(control: SearchControl, depth: int, nodes: int, searched: int,
              total: int) -> str:
    """How an unfinished depth ended, saying what ended it: a cancel, the node budget
    or the clock (a compiled search runs until its last few hundredths of a second:
    core/fast/table.py, `within_budget`)."""
    searched = f"{searched} of {total} root moves searched"
    budget = control.budget
    if control.stop.is_set():
        why = "cancelled"
    elif budget.nodes is not None and nodes >= budget.nodes:
        why = f"the node budget ({budget.nodes:,}) ran out"
    elif budget.time is not None:
        why = f"the clock ran out ({budget.time:g} s)"
    else:
        return f"stopped during depth {depth}: {searched}"
    return f"stopped during depth {depth}: {why}, with {searched}"
