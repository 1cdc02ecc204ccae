"""Frank's submission: a correct minimax to depth 3 that plays as well as Alice's,
but it counts only the leaves (the positions it evaluates, at depth 0 or where the
game ends), not every position the search enters: 343 instead of 400 from a position
where no game ends within 3 plies. It loses the node-count check and nothing else.
The example class's "wrong node count" student.
"""
from plyground.core.agents.bot import Bot

WIN = 1_000_000
COLUMN_WEIGHTS = (1, 2, 3, 4, 3, 2, 1)


class MyBot(Bot):
    """Minimax to depth 3; pieces near the centre are worth more."""

    name = "Frank"
    settings = {"depth": 3}

    def decide(self, state, budget):
        self.leaves = 0
        values = {move: -self.minimax(state.play(move), self.depth - 1)
                  for move in state.moves()}
        best = max(values.values())
        move = self.random.choice([move for move in values if values[move] == best])
        # BUG: the check asks for every node entered, the root and inner ones too
        self.report(depth=self.depth, score=best, pv=[move], nodes=self.leaves)
        return move

    def minimax(self, state, depth):
        outcome = state.outcome()
        if outcome is not None:
            self.leaves += 1
            return 0 if outcome.winner is None else -(WIN - state.ply)
        if depth == 0:
            self.leaves += 1
            return self.evaluate(state)
        return max(-self.minimax(state.play(move), depth - 1) for move in state.moves())

    def evaluate(self, state):
        score = 0
        for column in range(7):
            for row in range(6):
                piece = state.cell(column, row)
                if piece is not None:
                    weight = COLUMN_WEIGHTS[column]
                    score += weight if piece == state.to_move else -weight
        return score
