"""A plugin that fails as it is imported."""
from plyground.core.agents import bot

raise RuntimeError("this bot is broken")


class Bot(bot.Bot):
    def decide(self, state, budget):
        return state.moves()[0]
