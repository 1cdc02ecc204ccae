"""A bot whose process ends on its third move, as a crash in native code would."""
import os

from plyground.core.agents import bot


class Bot(bot.Bot):
    name = "Dies"

    def decide(self, state, budget):
        if state.ply // 2 == 2:  # its third move, whichever side it plays
            os._exit(3)
        return state.moves()[0]
