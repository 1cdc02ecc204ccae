"""Alice's submission: minimax to depth 3, as the assignment asks, with a simple
heuristic (pieces near the centre column are worth more). Legal, quick, and it counts
every position it enters, the root included: the example class's "decent" student.
"""
from plyground.core.agents.bot import Bot

WIN = 1_000_000
COLUMN_WEIGHTS = (1, 2, 3, 4, 3, 2, 1)  # the centre takes part in the most fours


class MyBot(Bot):
    """Minimax to depth 3; pieces near the centre are worth more."""

    name = "Alice"
    settings = {"depth": 3}

    def decide(self, state, budget):
        self.nodes = 1  # the root is a position the search enters too
        best_moves, best_value = [], None
        for move in state.moves():
            value = -self.minimax(state.play(move), self.depth - 1)
            if best_value is None or value > best_value:
                best_moves, best_value = [move], value
            elif value == best_value:
                best_moves.append(move)
        move = self.random.choice(best_moves)
        self.report(depth=self.depth, score=best_value, pv=[move], nodes=self.nodes)
        return move

    def minimax(self, state, depth):
        """The value of `state` for its side to move, searched `depth` plies deep."""
        self.nodes += 1
        outcome = state.outcome()
        if outcome is not None:  # the side that just moved won, or a draw
            return 0 if outcome.winner is None else -(WIN - state.ply)
        if depth == 0:
            return self.evaluate(state)
        return max(-self.minimax(state.play(move), depth - 1) for move in state.moves())

    def evaluate(self, state):
        score = 0
        for column, weight in enumerate(COLUMN_WEIGHTS):
            for row in range(6):
                piece = state.cell(column, row)  # 0, 1 or None
                if piece == state.to_move:
                    score += weight
                elif piece is not None:
                    score -= weight
        return score
