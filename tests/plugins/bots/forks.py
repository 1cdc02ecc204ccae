"""A bot that starts a helper which sleeps for five minutes, deaf to SIGTERM and
SIGHUP, and writes `<its own pid> <the helper's pid>` to the file `pids` names."""
import os
import signal
import time

from plyground.core.agents import bot


class Bot(bot.Bot):
    name = "Forks"
    settings = {"pids": ""}

    def decide(self, state, budget):
        if not hasattr(Bot, "helper"):
            Bot.helper = os.fork()
            if Bot.helper == 0:
                for number in (signal.SIGTERM, signal.SIGHUP):
                    signal.signal(number, signal.SIG_IGN)
                time.sleep(300)
                os._exit(0)
            with open(self.pids, "w") as pids:
                pids.write(f"{os.getpid()} {Bot.helper}\n")
        moves = state.moves()
        return min(moves, key=lambda move: abs(move - 3))
