"""The bot of docs/tutorial.md: it looks a few moves ahead for wins and losses, and
plays at random among the moves that look best. It plays every plyground game.

    plyground demo connect4 --x mybot.py:MyBot --o greedy
"""
from plyground.core.agents.bot import Bot


class MyBot(Bot):
    """Looks `depth` moves ahead for wins and losses; random among the best."""

    name = "My bot"  # its title in the menus and the results
    settings = {"depth": 2}  # mybot.py:MyBot:depth=3 changes it

    def decide(self, state, budget):
        self.nodes = 0
        best_moves, best_score = [], -2
        for move in state.moves():
            if self.should_stop() and best_moves:
                break  # out of time: play the best move found so far
            score = -self.score(state.play(move), self.depth - 1)
            if score > best_score:
                best_moves, best_score = [move], score
            elif score == best_score:
                best_moves.append(move)
        move = self.random.choice(best_moves)
        self.report(depth=self.depth, score=best_score, pv=[move], nodes=self.nodes,
                    text=f"{len(best_moves)} moves look as good")
        return move

    def score(self, state, depth):
        """1 if the side to move in `state` can force a win within `depth` moves,
        -1 if the other side can, else 0."""
        self.nodes += 1
        outcome = state.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return 0
            return 1 if outcome.winner == state.to_move else -1
        if depth == 0:
            return 0
        return max(-self.score(state.play(move), depth - 1) for move in state.moves())
