"""Carol's submission: minimax to depth 3 with a heuristic that likes pieces stacked on
pieces of the same side. It crashes: looking at the cell above each piece, it reads
past the top row once a column it searches is full (an IndexError), which happens in
most games after a few moves, as soon as some column is half full. The example
class's "crashes" student: every game that gets there is lost.
"""
from plyground.core.agents.bot import Bot

WIN = 1_000_000


class MyBot(Bot):
    """Minimax to depth 3; likes pieces stacked on its own."""

    name = "Carol"
    settings = {"depth": 3}

    def decide(self, state, budget):
        self.nodes = 0
        value, move = self.minimax(state, self.depth)
        self.report(depth=self.depth, score=value, pv=[move], nodes=self.nodes)
        return move

    def minimax(self, state, depth):
        """(value for the side to move, best move) of `state`, `depth` plies deep."""
        self.nodes += 1
        outcome = state.outcome()
        if outcome is not None:
            return (0 if outcome.winner is None else -WIN), None
        if depth == 0:
            return self.evaluate(state), None
        best_value, best_move = None, None
        for move in state.moves():
            value = -self.minimax(state.play(move), depth - 1)[0]
            if best_value is None or value > best_value:
                best_value, best_move = value, move
        return best_value, best_move

    def evaluate(self, state):
        columns = [[state.cell(column, row) for row in range(6)] for column in range(7)]
        score = 0
        for column in columns:
            for row in range(6):
                # BUG: row + 1 is 6, past the top, when the column is full: IndexError
                if column[row] is not None and column[row + 1] == column[row]:
                    score += 1 if column[row] == state.to_move else -1
        return score
