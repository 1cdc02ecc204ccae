"""Plain depth-limited minimax (negamax form): every node searched, nothing pruned.

The textbook baseline: alpha-beta must find exactly the same value at the same depth.
"""
from __future__ import annotations

from typing import Any

from ..game import Game, State
from ..rng import SplitMix64
from ..values import INFINITY, Bound
from .control import Budget, SearchControl, SearchStopped
from .events import IterationDone, MoveValue, SearchDone
from .tree import TreeSearch

DEFAULT_DEPTH = 3


class Minimax(TreeSearch):
    def __init__(self, game: Game, control: SearchControl, observer: Any = None,
                 evaluate: Any = None) -> None:
        super().__init__(game, control, observer, evaluate)
        self.root_values: list[MoveValue] = []

    def line(self, state: State, depth: int, path: tuple = ()) -> tuple[float, tuple]:
        """The node's value and the principal variation below it."""
        static = self.enter(state, path, depth, -INFINITY, INFINITY)
        if static is not None:
            return static, ()
        best, best_line = -INFINITY, ()
        for move in self.game.order_moves(state, state.moves()):
            child_path = path + (move,)
            child_value, child_line = self.line(state.play(move), depth - 1, child_path)
            value = -child_value
            self.report_child(child_path, value)
            if not path:
                self.root_values.append(MoveValue(move, value, Bound.EXACT))
            if value > best:
                best, best_line = value, (move,) + child_line
        self.leave(path, depth, best, -INFINITY, INFINITY, best_line[0])
        return best, best_line


def minimax_search(game: Game, state: State, budget: Budget, observer: Any = None,
                   control: SearchControl | None = None,
                   rng: SplitMix64 | None = None, evaluate: Any = None) -> SearchDone:
    """Search to `budget.depth`; with `rng`, equally good root moves are chosen at
    random (greedy play), else the first in the game's order wins the tie.
    `evaluate` replaces the game's heuristic at the leaves."""
    control = control or SearchControl(budget)
    depth = budget.depth or DEFAULT_DEPTH
    search = Minimax(game, control, observer, evaluate)
    search.iteration_depth = depth
    try:
        value, pv = search.line(state, depth)
    except SearchStopped:  # keep the best root move searched so far
        done = search.root_values
        if not done:
            first = game.order_moves(state, state.moves())[0]
            return SearchDone(first, None, (first,), search.nodes, control.elapsed(),
                              note="stopped before any move was searched", stopped=True)
        best = max(done, key=lambda mv: mv.value)
        return SearchDone(best.move, best.value, (best.move,), search.nodes,
                          control.elapsed(), move_values=tuple(done),
                          note=f"stopped before depth {depth} was complete", stopped=True)
    elapsed = control.elapsed()
    move_values = tuple(search.root_values)
    if rng is not None:  # the tie-break is part of the decision every view shows
        tied = [mv.move for mv in move_values if mv.value == value]
        choice = tied[rng.below(len(tied))]
        if choice != pv[0]:
            pv = (choice,)
    if observer is not None:
        observer(IterationDone(depth, pv[0], value, move_values, pv, search.nodes, elapsed,
                               search.nodes / elapsed if elapsed > 0 else 0.0))
    return SearchDone(pv[0], value, pv, search.nodes, elapsed, depth, move_values)
