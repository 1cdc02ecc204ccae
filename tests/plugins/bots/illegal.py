"""A bot that returns a move no game has."""
from plyground.core.agents import bot


class Bot(bot.Bot):
    name = "Illegal"

    def decide(self, state, budget):
        return 99
