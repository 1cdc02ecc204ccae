"""The course's seed system for Connect 4: four pairs of simple strategies, mixed by
genes that a genetic algorithm tunes (see core/ga/trainer.py and the `ga` agent).

Every turn, for each pair, the agent draws r in [0, 1) and uses the pair's first
strategy if r < its gene, else the second. Each chosen strategy adds votes to the
columns it favours, and the agent plays the legal column with the most votes, ties
broken at random. The pairs (gene name = the first strategy of its pair):

- block_two / block_one: the agent's piece would stop a run of two / of one opponent
  piece. Dropping an opponent piece in the landing cell would make a run of exactly 3 /
  exactly 2 through it; one vote for each of the 4 line directions where it does.
- centre / extremity: one vote for each of columns 3, 4, 5 / columns 1, 2, 6, 7.
- sequential / space: one vote for each of the agent's pieces around the landing cell
  (8 neighbours) / for a cell with no such neighbour, one vote for each of the 4 line
  directions with one of the agent's pieces two cells away, the cell between empty.
- horizontal / vertical: one vote for each column holding none / some of the agent's
  pieces.

Addition to the seed system: before voting, the agent takes a win in one if it has one,
else blocks the opponent's win in one (the votes then choose among those columns only).
"""
from __future__ import annotations

from ..errors import IllegalMove
from ..games.connect4 import BOARD, WIDTH

GENE_NAMES = ("block_two", "centre", "sequential", "horizontal")
PAIRS = (
    ("block_two", "block_one"),
    ("centre", "extremity"),
    ("sequential", "space"),
    ("horizontal", "vertical"),
)
CENTRE_COLUMNS = (2, 3, 4)  # 3, 4, 5 in 1-based notation


def _run_through(cell: int, pieces: int, shift: int) -> int:
    """The length of the line of `pieces` plus `cell` through `cell`, along `shift`."""
    length = 1
    for step in (lambda b: b << shift, lambda b: b >> shift):
        bit = step(cell)
        while bit & pieces:
            length += 1
            bit = step(bit)
    return length


def _block_votes(run: int):
    def votes(cell: int, own: int, other: int, occupied: int) -> int:
        return sum(_run_through(cell, other, d) == run for d in BOARD.directions)
    return votes


def _neighbours(cell: int) -> list[int]:
    """The 8 cells around `cell` (off-board ones are guard bits or beyond: empty)."""
    return [step for d in BOARD.directions for step in (cell << d, cell >> d)]


def _sequential(cell: int, own: int, other: int, occupied: int) -> int:
    return sum(bool(own & n) for n in _neighbours(cell))


def _space(cell: int, own: int, other: int, occupied: int) -> int:
    if _sequential(cell, own, other, occupied):
        return 0
    votes = 0
    for d in BOARD.directions:
        for step in (lambda b: b << d, lambda b: b >> d):
            between = step(cell)
            # `between` on the board keeps its next step from wrapping into a column
            if between & BOARD.full_board and not between & occupied \
                    and step(between) & own:
                votes += 1
                break  # one vote per line direction
    return votes


def _column_votes(wanted):
    def votes(column: int, own: int) -> int:
        return int(wanted(column, own & BOARD.column_mask(column)))
    return votes


# Cell strategies see (landing cell, own pieces, opponent pieces, occupied cells);
# column strategies see (column, own pieces).
CELL_STRATEGIES = {
    "block_two": _block_votes(3),
    "block_one": _block_votes(2),
    "sequential": _sequential,
    "space": _space,
}
COLUMN_STRATEGIES = {
    "centre": _column_votes(lambda c, mine: c in CENTRE_COLUMNS),
    "extremity": _column_votes(lambda c, mine: c not in CENTRE_COLUMNS),
    "horizontal": _column_votes(lambda c, mine: not mine),
    "vertical": _column_votes(lambda c, mine: bool(mine)),
}
STRATEGY_NAMES = tuple(name for pair in PAIRS for name in pair)


def strategy_votes(state, strategy_name: str) -> list[int]:
    """Votes for columns 0..6 from one strategy, for the side to move (0 if full)."""
    own, other = state.pieces[state.to_move], state.pieces[1 - state.to_move]
    occupied = own | other
    votes = [0] * WIDTH
    for column in state.open_columns():
        if strategy_name in CELL_STRATEGIES:
            votes[column] = CELL_STRATEGIES[strategy_name](
                state.landing_bit(column), own, other, occupied)
        elif strategy_name in COLUMN_STRATEGIES:
            votes[column] = COLUMN_STRATEGIES[strategy_name](column, own)
        else:
            raise ValueError(f"unknown strategy {strategy_name!r} "
                             f"(strategies: {', '.join(STRATEGY_NAMES)})")
    return votes


def pick_strategies(genes, rng) -> tuple[str, ...]:
    """One strategy a pair: the first if a draw in [0, 1) is below its gene."""
    return tuple(first if rng.random() < gene else second
                 for (first, second), gene in zip(PAIRS, genes, strict=True))


def _columns(cells: int) -> list[int]:
    return [c for c in range(WIDTH) if cells & BOARD.column_mask(c)]


def choose_column(state, genes, rng) -> int:
    """The seed system's move: a win in one, else a block of the opponent's win in one,
    else (and among several of those) the column the drawn strategies vote for most.

    `rng` gives `.random()` in [0, 1) and `.below(n)` in [0, n), like SplitMix64; the
    four strategy draws are made every turn, then one more for a tie.
    """
    legal = state.moves()
    if not legal:
        raise IllegalMove("the game is over: there is no column to choose")
    strategies = pick_strategies(genes, rng)
    own, other = state.pieces[state.to_move], state.pieces[1 - state.to_move]
    playable = BOARD.playable_cells(own | other)
    candidates = (_columns(BOARD.completing_cells(own) & playable)
                  or _columns(BOARD.completing_cells(other) & playable)
                  or legal)
    totals = [0] * WIDTH
    for name in strategies:
        for column, votes in enumerate(strategy_votes(state, name)):
            totals[column] += votes
    most = max(totals[c] for c in candidates)
    best = [c for c in candidates if totals[c] == most]
    return best[rng.below(len(best))]
