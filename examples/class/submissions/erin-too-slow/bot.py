"""Erin's submission: a correct minimax to depth 3 (node count and all), but a pause
left in from watching its games in the app: from the 10th ply on it sleeps 3 s before
every move, past the 1 s clock and its grace (1.5 x the clock + 1 s), so each game
that gets that far is lost on time. The example class's "too slow" student.
"""
import time

from plyground.core.agents.bot import Bot

WIN = 1_000_000
WEIGHTS = (0, 1, 2, 4, 2, 1, 0)


class MyBot(Bot):
    """Minimax to depth 3; pieces in the middle columns count."""

    name = "Erin"
    settings = {"depth": 3}

    def decide(self, state, budget):
        if state.ply >= 10:
            time.sleep(3)  # BUG: left in while debugging, to watch each move
        self.nodes = 0
        scored = [(-self.negamax(state.play(move), self.depth - 1), move)
                  for move in state.moves()]
        self.nodes += 1  # the root
        value = max(score for score, _ in scored)
        move = self.random.choice([move for score, move in scored if score == value])
        self.report(depth=self.depth, score=value, pv=[move], nodes=self.nodes)
        return move

    def negamax(self, state, depth):
        self.nodes += 1
        outcome = state.outcome()
        if outcome is not None:
            return 0 if outcome.winner is None else -WIN
        if depth == 0:
            mine = sum(WEIGHTS[c] for c in range(7) for r in range(6)
                       if state.cell(c, r) == state.to_move)
            theirs = sum(WEIGHTS[c] for c in range(7) for r in range(6)
                         if state.cell(c, r) == 1 - state.to_move)
            return mine - theirs
        return max(-self.negamax(state.play(move), depth - 1) for move in state.moves())
