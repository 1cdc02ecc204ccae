"""A legal, simple bot: wins at once when it can, else plays the most central column;
it says which process it runs in."""
import os

from plyground.core.agents import bot


class Bot(bot.Bot):
    """Takes a win in one, else the most central column."""

    name = "Good"

    def decide(self, state, budget):
        self.report(text=f"pid {os.getpid()}")
        moves = state.moves()
        for move in moves:
            if state.play(move).outcome() is not None:
                return move
        return min(moves, key=lambda move: abs(move - 3))
