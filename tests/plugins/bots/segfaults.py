"""A bot whose process is killed by a signal on its first move, as a segmentation
fault in native code would kill it."""
import os
import resource
import signal

from plyground.core.agents import bot


class Bot(bot.Bot):
    name = "Segfaults"

    def decide(self, state, budget):
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file, please
        os.kill(os.getpid(), signal.SIGSEGV)
