"""A bot that takes 3 GiB of address space at its first move and keeps it (`bytes`
of that size: the pages are never touched, so it costs no real memory)."""
from plyground.core.agents import bot

hoard = []


class Bot(bot.Bot):
    name = "Hog"

    def decide(self, state, budget):
        hoard.append(bytes(3 << 30))
        return state.moves()[0]
