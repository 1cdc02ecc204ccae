"""The Alpha-Beta of docs/tutorial.md: plyground's search, with an evaluation of my
own. The app's inspector shows its tree, step mode and all, as for plyground's own.

    plyground demo connect4 --x my_alphabeta.py:MyAlphaBeta:time=0.5 --o alphabeta:time=0.5
"""
from plyground.core.agents.kinds import AlphaBetaAgent

# What a piece is worth in each column: the centre takes part in the most fours.
COLUMN_WEIGHTS = (1, 2, 3, 5, 3, 2, 1)


class MyAlphaBeta(AlphaBetaAgent):
    title = "My Alpha-Beta"
    description = "plyground's alpha-beta with my evaluation: pieces near the centre"
    games = ("connect4",)  # the evaluation reads a Connect 4 board

    def evaluate(self, state):
        """How good a running game is for the side to move (higher is better)."""
        score = 0
        for column, weight in enumerate(COLUMN_WEIGHTS):
            for row in range(6):
                piece = state.cell(column, row)  # 0 (X), 1 (O) or None
                if piece == state.to_move:
                    score += weight
                elif piece is not None:
                    score -= weight
        return score
