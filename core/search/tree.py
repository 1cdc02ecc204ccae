"""What minimax, alpha-beta and greedy share: node bookkeeping, leaves and events.

All tree searches here are negamax: a node's value is for its side to move, a child's
value is negated on the way up. A node is counted once, when it is entered.
"""
from __future__ import annotations

from typing import Any

from ..game import Game, State
from ..values import INFINITY, Bound, terminal_value
from .control import SearchControl
from .events import NodeEntered, NodeLeft, NodeResult

LIVE_PLIES = 2  # NodeResult is reported for nodes this many plies below the root


def bound_of(value: float, alpha: float, beta: float) -> str:
    """What a fail-soft value, searched with window (alpha, beta), tells."""
    if value <= alpha:
        return Bound.UPPER
    if value >= beta:
        return Bound.LOWER
    return Bound.EXACT


class TreeSearch:
    def __init__(self, game: Game, control: SearchControl, observer: Any = None,
                 evaluate: Any = None, avoid_repeats: bool = False) -> None:
        self.game = game
        self.evaluate = evaluate or game.evaluate  # the heuristic at the leaves
        self.control = control
        self.observer = observer
        self.tracing = bool(observer is not None and observer.trace)
        self.nodes = 0
        self.iteration_depth = 0
        self.avoid_repeats = avoid_repeats
        self.root: State | None = None
        self.seen: set = set()  # repetition keys of the game's positions up to the root

    def set_root(self, state: State) -> None:
        """Called as a search starts at `state`. With `avoid_repeats`, a node below the
        root that returns to a position of the game so far scores as a draw that the
        root's side dislikes (by the game's `repeat_contempt`): where positions can
        come back (BOOM), two sides that both hold their ground would otherwise go round
        a cycle to the ply cap, and a side that means to win should leave it."""
        self.root = state
        if self.avoid_repeats:
            self.avoid(self.game.states_so_far(state))

    def avoid(self, states) -> None:
        """Score a return to any of `states` as `set_root` says."""
        self.seen = {self.game.repetition_key(s) for s in states}

    def enter(self, state: State, path: tuple, depth: int, alpha: float, beta: float):
        """Count and announce a node; its static value if it is an end or a leaf, else None."""
        if not path and state is not self.root:
            self.set_root(state)
        self.nodes += 1
        self.control.check(self.nodes)
        if self.tracing:
            self.observer(NodeEntered(path, depth, alpha, beta))
        outcome = state.outcome()
        if outcome is not None:
            value = terminal_value(outcome, state.ply, state.to_move)
            self.leave(path, depth, value, alpha, beta, None, source="end")
            return value
        if path and self.seen and self.game.repetition_key(state) in self.seen:
            value = self.game.repeat_contempt * (1 if state.to_move != self.root.to_move
                                                 else -1)
            self.leave(path, depth, value, alpha, beta, None, source="repeat")
            return value
        if depth == 0:
            value = self.evaluate(state)
            self.leave(path, depth, value, alpha, beta, None, source="leaf")
            return value
        return None

    def leave(self, path, depth, value, alpha, beta, best_move, *, cutoff=False,
              pruned=0, source="search", nodes=1) -> None:
        if self.tracing:
            self.observer(NodeLeft(path, depth, value, alpha, beta, best_move, cutoff,
                                   pruned, source, nodes))

    def report_child(self, child_path: tuple, value: float, alpha: float = -INFINITY,
                     beta: float = INFINITY) -> None:
        """Tell live views a shallow child's value (for the side that moved into it)."""
        if self.observer is not None and len(child_path) <= LIVE_PLIES:
            self.observer(
                NodeResult(child_path, self.iteration_depth, value, bound_of(value, alpha, beta))
            )
