"""The reference node count of a `nodes` check: how many positions a textbook
fixed-depth search enters, counted as the engine protocol's `info nodes` counts them
(docs/engine-protocol.md): every position the search enters, the root included.

A student's search is held to this count exactly, so the search here is the plainest
one a course teaches, written out rather than borrowed from core/search/ (whose
alpha-beta adds iterative deepening, a transposition table and kernels, and whose
minimax is the very agent the tests compare against):

- negamax: a node's value is for its side to move, a child's is negated on the way up;
- a node is a leaf when the game is over there (valued by core/values.py's
  `terminal_value`: `WIN - ply` for the side that won, 0 for a draw) or when the depth
  left is 0 (valued by the game's heuristic, `game.evaluate`, for the side to move);
- `minimax` searches every child of every node; `alphabeta` is plain fail-hard
  alpha-beta, the root searched with the window (-inf, inf), a child cut off as soon as
  one of its siblings' values reaches beta: no table, no iterative deepening, no
  aspiration window.

The order moves are tried in changes alpha-beta's count, never minimax's:

- `generated`: `state.moves()` as the game lists them (Connect 4: columns 1 to 7);
- `centre-first`: `game.order_moves(state, state.moves())`, the order plyground's own
  searches use (Connect 4: the columns nearest the centre first, ties left before
  right: 4 3 5 2 6 1 7). A game without an order of its own keeps `generated`'s.
"""
from __future__ import annotations

from typing import Sequence

from ..errors import PlygroundError
from ..game import Game, State
from ..records.positions import start_state
from ..values import INFINITY, terminal_value

KINDS = ("minimax", "alphabeta")
ORDERS = ("generated", "centre-first")


class NodeCounter:
    """One search's count: `minimax` and `alphabeta` return the root's value."""

    def __init__(self, game: Game, order: str) -> None:
        if order not in ORDERS:
            raise PlygroundError(f"The move order {order!r} is not one of "
                                 f"{', '.join(ORDERS)}.")
        self.game = game
        self.centre_first = order == "centre-first"
        self.nodes = 0

    def moves(self, state: State) -> list:
        moves = state.moves()
        return self.game.order_moves(state, moves) if self.centre_first else list(moves)

    def leaf(self, state: State, depth: int) -> float | None:
        """Count the node; its value if it is a leaf, else None."""
        self.nodes += 1
        outcome = state.outcome()
        if outcome is not None:
            return terminal_value(outcome, state.ply, state.to_move)
        if depth == 0:
            return self.game.evaluate(state)
        return None

    def minimax(self, state: State, depth: int) -> float:
        value = self.leaf(state, depth)
        if value is not None:
            return value
        return max(-self.minimax(state.play(move), depth - 1)
                   for move in self.moves(state))

    def alphabeta(self, state: State, depth: int, alpha: float = -INFINITY,
                  beta: float = INFINITY) -> float:
        value = self.leaf(state, depth)
        if value is not None:
            return value
        for move in self.moves(state):
            value = -self.alphabeta(state.play(move), depth - 1, -beta, -alpha)
            if value >= beta:
                return beta  # fail hard: the siblings left are never entered
            alpha = max(alpha, value)
        return alpha


def reference_search(state: State, kind: str, depth: int, order: str) -> tuple[int, float]:
    """(nodes entered, the root's value) of a `kind` search of `state` to `depth`."""
    if kind not in KINDS:
        raise PlygroundError(f"A node count is kept for a minimax or alphabeta "
                             f"reference, not {kind!r}.")
    if depth < 0:
        raise PlygroundError(f"A search's depth is 0 or more, not {depth}.")
    counter = NodeCounter(state.game, order)
    value = getattr(counter, kind)(state, depth)
    return counter.nodes, value


def reference_nodes(state: State, kind: str, depth: int, order: str) -> int:
    """The nodes a `kind` ("minimax" or "alphabeta") search of `state` to `depth`
    enters, the root included, trying moves in `order` ("generated" or
    "centre-first"): the count a student's search is held to."""
    return reference_search(state, kind, depth, order)[0]


def reference_counts(game: Game, positions: Sequence[str], kind: str, depth: int,
                     order: str) -> list[int]:
    """reference_nodes of each position, given in the game's notation (an empty
    one is the start)."""
    return [reference_nodes(start_state(game, text), kind, depth, order)
            for text in positions]
