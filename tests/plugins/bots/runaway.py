"""A bot that starts a helper which leaves its session and its process tree (setsid,
then a second fork), deaf to SIGTERM and SIGHUP, and writes `<its own pid> <the
helper's pid>` to the file `pids` names (a line for each process it plays in)."""
import os
import sys

from plyground.core.agents import bot

sys.path.insert(0, os.path.dirname(__file__))
from runaway_helper import escape  # noqa: E402


class Bot(bot.Bot):
    name = "Runaway"
    settings = {"pids": ""}

    def decide(self, state, budget):
        if not hasattr(Bot, "helper"):
            Bot.helper = escape()
            with open(self.pids, "a") as pids:
                pids.write(f"{os.getpid()} {Bot.helper}\n")
        moves = state.moves()
        return min(moves, key=lambda move: abs(move - 3))
