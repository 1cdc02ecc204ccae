"""Dave's submission: minimax to depth 3 with a centre-loving heuristic, but it
returns the index of its best move in `state.moves()` instead of the move itself. While
every column is open the two are the same; once a column is full the bot plays the
wrong column, and sometimes a full one: an illegal move, which loses the game. The
example class's "illegal moves" student.
"""
from plyground.core.agents.bot import Bot

WIN = 1_000_000
CENTRE = 3


class MyBot(Bot):
    """Minimax to depth 3; likes the centre."""

    name = "Dave"
    settings = {"depth": 3}

    def decide(self, state, budget):
        self.nodes = 1
        moves = state.moves()
        values = [-self.value(state.play(move), self.depth - 1) for move in moves]
        best = values.index(max(values))
        self.report(depth=self.depth, score=values[best], pv=[moves[best]],
                    nodes=self.nodes)
        return best  # BUG: should be moves[best]

    def value(self, state, depth):
        self.nodes += 1
        if state.outcome() is not None:
            return 0 if state.outcome().winner is None else -WIN
        if depth == 0:
            return self.evaluate(state)
        return max(-self.value(state.play(move), depth - 1) for move in state.moves())

    def evaluate(self, state):
        """Pieces near the centre, for the side to move."""
        score = 0
        for column in range(7):
            for row in range(state.column_height(column)):
                near = 4 - abs(column - CENTRE)
                score += near if state.cell(column, row) == state.to_move else -near
        return score
