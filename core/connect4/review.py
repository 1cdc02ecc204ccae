"""Connect 4's exact review (its registration's `exact_review`), kept with the game's
solver rather than in the review, which every game uses.

The solver (solver.py; the opening book answers the first positions, the later ones
solve fast) scores each position of the game, last first so that its table serves the
earlier ones; a move's score is minus the next position's (or the win or draw it made
at once). In the solver's terms (for the side to move, a win with its k-th stone
scores 22 - k):

    best        the move keeps the position's score: optimal;
    inaccuracy  it keeps the result but wins later, or loses sooner;
    blunder     it changes the result: a win thrown to a draw or a loss, a draw to a
                loss.

(good and mistake do not occur: exact scores leave nothing in between.)

The labels' rules, the verdicts and the graph are the review's (core/study/review.py);
this module gives them the solver's scores.
"""
from __future__ import annotations

from ..fast import c4solver
from ..game import Move, State
from ..study.review import DEFAULT_SCALE, Judged, Progress, Verdict, end_value, judge
from . import solver as exact_solver
from .book import move_score


def solver_review(states: list[State], moves: list[Move],
                  progress: Progress | None) -> Judged:
    """Connect 4, exact: the solver's score of every position, the last first (its
    table then serves the earlier ones). A position whose move played scores what the
    next position says is known to score at least that: one null-window search tells
    whether the move was best, which it mostly is, and the score with it; only the
    others are solved whole."""
    exact_solver.warm_up()
    open_positions = [index for index, state in enumerate(states)
                      if state.outcome() is None]
    scores: dict[int, int] = {}
    played: dict[int, int] = {}  # each move's score for the side that played it
    with exact_solver.solving() as solver:
        for done, index in enumerate(reversed(open_positions), start=1):
            state = states[index]
            if index < len(moves):
                played[index] = move_score(state, moves[index],
                                           lambda child: scores[index + 1])
                floor = played[index]
                scores[index] = floor if at_most(solver, state, floor) \
                    else solver.solve(state)
            else:  # the game's last position, still open
                scores[index] = solver.solve(state)
            if progress is not None:
                progress(done, len(open_positions))
        reviews = []
        for index, (state, move) in enumerate(zip(states, moves)):
            best = scores[index]
            best_move = move
            if played[index] != best:  # a best move to show: the first keeping it
                best_move = next(column for column in candidates(solver, state, move)
                                 if keeps_score(solver, state, column, best))
            verdict = Verdict(best_move, exact_solver.value_of(best, state.ply),
                              best_exact=True)
            reviews.append(judge(state, move, verdict,
                                 exact_solver.value_of(played[index], state.ply), True,
                                 DEFAULT_SCALE))
    values = [end_value(state) if index not in scores else
              float(((scores[index] > 0) - (scores[index] < 0)) * (1 - 2 * state.to_move))
              for index, state in enumerate(states)]
    return reviews, values


def candidates(solver, state: State, played: int) -> list[int]:
    """The columns that may keep `state`'s score, other than `played`: first the one
    the solver's table says proved a lower bound there last (often the best move),
    then the centre columns first."""
    position, mask, _ = c4solver.kernel_position(state)
    entry = int(c4solver.probe(solver.table, position + mask))
    hint = ((entry >> int(c4solver.MOVE_SHIFT)) & 7) - 1 if entry else -1
    order = [hint] + [int(column) for column in c4solver.ORDER if column != hint]
    return [column for column in order if column != played and column in state.moves()]


def at_most(solver, state: State, score: int) -> bool:
    """Whether `state`, a game still open, scores `score` or less: its book score, a
    win at once, or one null-window search (a few times faster than a whole solve,
    which narrows the score with several)."""
    known = solver.book.score(state) if solver.book is not None else None
    if known is not None:
        return known <= score
    position, mask, stones = c4solver.kernel_position(state)
    if c4solver.winning_cells(position, mask) & c4solver.playable(mask):
        return (c4solver.CELLS + 1 - stones) // 2 <= score  # it wins at once
    solver.limit(None)
    return c4solver.negamax(position, mask, stones, score, score + 1, solver.table,
                            solver.scratch) <= score


def keeps_score(solver, state: State, column: int, score: int) -> bool:
    """Whether playing `column` scores `score` or more for the side to move."""
    child = state.play(column)
    if child.outcome() is not None:  # a four, or the last cell: no search
        return move_score(state, column, None) >= score
    return at_most(solver, child, -score)
