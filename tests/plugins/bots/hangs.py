"""A bot that never answers: it sleeps and never looks at the clock."""
import time

from plyground.core.agents import bot


class Bot(bot.Bot):
    name = "Hangs"

    def decide(self, state, budget):
        time.sleep(600)
