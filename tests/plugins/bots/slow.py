"""A bot that sleeps far past its time budget (but not forever)."""
import time

from plyground.core.agents import bot


class Bot(bot.Bot):
    name = "Slow"

    def decide(self, state, budget):
        time.sleep(budget.time * 2 + 1.5)
        return state.moves()[0]
