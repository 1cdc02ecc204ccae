"""A bot that raises in decide."""
from plyground.core.agents import bot


class Bot(bot.Bot):
    name = "Crashes"

    def decide(self, state, budget):
        return 1 / 0
