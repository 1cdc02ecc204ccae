"""A bot that, at its first move, starts four helpers that each take 120 MiB of real
memory (written, not only reserved) and keep it, waits until each holds it or has been
killed, writes `<its own pid> <the helpers' pids>` to the file `pids` names, and plays."""
import os
import sys

from plyground.core.agents import bot

sys.path.insert(0, os.path.dirname(__file__))
from brood_helpers import brood  # noqa: E402


class Bot(bot.Bot):
    name = "Brood"
    settings = {"pids": ""}

    def decide(self, state, budget):
        if not hasattr(Bot, "helpers"):
            Bot.helpers = brood(4, 120 << 20)
            with open(self.pids, "w") as pids:
                pids.write(" ".join(map(str, [os.getpid(), *Bot.helpers])) + "\n")
        return state.moves()[0]
