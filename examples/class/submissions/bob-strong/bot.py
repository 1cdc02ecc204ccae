"""Bob's submission: minimax to depth 3 with a heuristic that reads the board as
Connect 4 players do: every window of four cells that only one side holds counts, a
lot more with three pieces in it (a threat) than with two, a threat that can be
completed at once decides the game, and the centre column counts.
The example class's "strong" student: the same search and node count as Alice's, a
much better judge of the positions at its leaves.
"""
from plyground.core.agents.bot import Bot

WIN = 1_000_000
ROWS, COLUMNS = 6, 7
# what a window holding k pieces of one side, and none of the other, is worth to it
WINDOW_VALUES = (0, 1, 8, 60, 0)
CENTRE_VALUE = 4  # each piece in the centre column


def windows():
    """Every four cells in a line, as indexes into the board read column by column."""
    found = []
    for column in range(COLUMNS):
        for row in range(ROWS):
            for step_column, step_row in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(column + i * step_column, row + i * step_row) for i in range(4)]
                if all(0 <= c < COLUMNS and 0 <= r < ROWS for c, r in cells):
                    found.append(tuple(c * ROWS + r for c, r in cells))
    return found


WINDOWS = windows()  # 69 of them


class MyBot(Bot):
    """Minimax to depth 3; counts open twos and threes, and the centre."""

    name = "Bob"
    settings = {"depth": 3}

    def decide(self, state, budget):
        self.nodes = 1  # the root
        values = {}
        for move in state.moves():
            values[move] = -self.search(state.play(move), self.depth - 1)
        best = max(values.values())
        move = self.random.choice([m for m, value in values.items() if value == best])
        self.report(depth=self.depth, score=best, pv=[move], nodes=self.nodes)
        return move

    def search(self, state, depth):
        self.nodes += 1
        outcome = state.outcome()
        if outcome is not None:
            # the side that just moved won: sooner is better for it
            return 0 if outcome.winner is None else -(WIN - state.ply)
        if depth == 0:
            return self.evaluate(state)
        best = -WIN
        for move in state.moves():
            best = max(best, -self.search(state.play(move), depth - 1))
        return best

    def evaluate(self, state):
        """How good the position is for the side to move. A three it can complete at
        once is a win next move; two the other side can complete at once are a loss,
        since only one can be blocked: the search stops short of both, so say so."""
        board = [state.cell(c, r) for c in range(COLUMNS) for r in range(ROWS)]
        me, them = state.to_move, 1 - state.to_move
        score, my_wins, their_wins = 0, set(), set()
        for window in WINDOWS:
            cells = [board[i] for i in window]
            mine, theirs = cells.count(me), cells.count(them)
            if not theirs:
                score += WINDOW_VALUES[mine]
                if mine == 3:
                    my_wins.update(i for i in window if playable(board, i))
            elif not mine:
                score -= WINDOW_VALUES[theirs]
                if theirs == 3:
                    their_wins.update(i for i in window if playable(board, i))
        if my_wins:
            return WIN - state.ply - 1
        if len(their_wins) > 1:
            return -(WIN - state.ply - 2)
        centre = board[3 * ROWS:4 * ROWS]
        return score + CENTRE_VALUE * (centre.count(me) - centre.count(them))


def playable(board, index):
    """Whether a piece dropped now lands on this empty cell."""
    return board[index] is None and (index % ROWS == 0 or board[index - 1] is not None)
