"""A bot that comes with the package: installing it adds "Perfect tic-tac-toe" to the
player menus, through the entry point `plyground.agents` (see pyproject.toml)."""
from __future__ import annotations

from functools import lru_cache

from plyground.core.agents.bot import Bot


@lru_cache(maxsize=None)
def negamax(state) -> int:
    """The game's value for the side to move: +1 a win, 0 a draw, -1 a loss."""
    outcome = state.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else (1 if outcome.winner == state.to_move
                                                 else -1)
    return max(-negamax(state.play(move)) for move in state.moves())


class PerfectTicTacToe(Bot):
    """Never loses: the move with the best game-theoretic value (the first in ties)."""

    name = "Perfect tic-tac-toe"
    games = ("tictactoe",)

    def decide(self, state, budget):
        values = {move: -negamax(state.play(move)) for move in state.moves()}
        best = max(values.values())
        move = next(move for move, value in values.items() if value == best)
        self.report(depth=9 - state.ply, score=best, pv=[move],
                    text={1: "a win", 0: "a draw", -1: "a loss"}[best])
        return move
