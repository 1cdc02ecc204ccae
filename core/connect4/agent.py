"""The `perfect` agent: Connect 4's exact solver (core/connect4/solver.py) as a player."""
from __future__ import annotations

from ..agents.base import Agent, Setting, replay_budget
from ..ranges import LONGEST_MOVE, SHORTEST_MOVE
from ..agents.kinds import AlphaBetaAgent
from ..games.connect4 import GAME
from .solver import perfect_search, warm_up
from ..search.control import Budget


class PerfectAgent(Agent):
    kind, title = "perfect", "Perfect"
    description = ("Connect 4 only: the exact solver's best move (the fastest win, the "
                   "slowest loss); when a position is not solved in half its time, "
                   "Alpha-Beta's move, its values marked as estimates")
    settings_spec = (Setting("time", float, None, "seconds per move (1 if not given)",
                             SHORTEST_MOVE, maximum=LONGEST_MOVE),)
    main_setting = "time"
    DEFAULT_TIME = 1.0

    games = (GAME.id,)
    solves_exactly = True  # a review may use the solver itself in its place

    def budget(self):
        return Budget(time=self.settings["time"] or self.DEFAULT_TIME)

    @property
    def label(self):
        return f"{self.title} ({self.settings['time'] or self.DEFAULT_TIME:g}s)"

    def prepare(self) -> None:
        warm_up()  # the solver's table, and its kernels compiled or loaded

    def search(self, state, budget, observer, control, exact_root):
        return perfect_search(state, budget, observer, control, exact_root)

    def replay_plan(self, done):
        """The solver (a kernel) keeps no trace; Alpha-Beta's fallback can be replayed."""
        if done.exact:
            return None
        fallback = AlphaBetaAgent(time=self.budget().time)
        return fallback, replay_budget(fallback.budget(), done)
