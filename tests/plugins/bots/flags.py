"""A bot with a setting of each kind a bot can have (a whole number, a flag, a word):
the parser tests read specs for it. It plays the first legal move."""
from plyground.core.agents import bot


class Bot(bot.Bot):
    """Plays the first legal move."""

    settings = {"depth": 2, "careful": False, "style": "calm"}

    def decide(self, state, budget):
        return state.moves()[0]
