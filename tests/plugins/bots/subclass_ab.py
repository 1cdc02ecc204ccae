"""Plyground's Alpha-Beta with an evaluation of its own: it loves the left edge."""
from plyground.core.agents.kinds import AlphaBetaAgent

calls = 0  # how many positions it evaluated (in the process that searched)


class LeftAB(AlphaBetaAgent):
    title = "Left-edge Alpha-Beta"

    def evaluate(self, state):
        global calls
        calls += 1
        mine = sum(state.cell(0, row) == state.to_move for row in range(6))
        theirs = sum(state.cell(0, row) == 1 - state.to_move for row in range(6))
        return 10 * (mine - theirs)
