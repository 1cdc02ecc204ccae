"""The value scale every search and heuristic shares, and `Score`, a value as read.

Values are from the point of view of the side to move. A won game scores
`WIN - ply`, where `ply` is the ply count of the position in which the winning move
has just been played; so a faster win scores higher and a slower loss scores higher
(less negative). Heuristic values stay far below `WIN - MAX_PLY`.

Searches, kernels and JSON reports keep the bare numbers; a `Score` wraps one with
what it takes to say it (the position's ply, the scale, the bound), as python-chess's
`PovScore` wraps a centipawn or mate count, so no reader has to carry those alongside.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .game import Outcome

WIN = 1_000_000
MAX_PLY = 10_000  # longer than any game we know; bounds the "win" zone
INFINITY = WIN + 1


def is_decisive(value: float) -> bool:
    return abs(value) >= WIN - MAX_PLY


def terminal_value(outcome: Outcome, ply: int, to_move: int) -> int:
    """Value of a finished game for `to_move`, the game having ended at `ply`."""
    if outcome.winner is None:
        return 0
    return WIN - ply if outcome.winner == to_move else -(WIN - ply)


class Scale(StrEnum):
    """The two scales a search's values come on (str-valued: records store them)."""

    SCORE = "score"  # a heuristic figure, or decisive (WIN - ply)
    MEAN = "mean"  # an MCTS mean result, 0..1, draws counting half


class Bound(StrEnum):
    """What a tree-search value says about the true value."""

    EXACT = "exact"
    LOWER = "lower"  # the true value is at least this (a cut-off: fail high)
    UPPER = "upper"  # the true value is at most this (every move failed low)
    ESTIMATE = "estimate"  # a sampled mean (MCTS), no bound at all


BOUND_MARKS = {Bound.LOWER: "≥ ", Bound.UPPER: "≤ "}  # exact and estimate have none


@dataclass(frozen=True, slots=True)
class Score:
    """A value as a reader meets it; `str()` says it: `win in 3`, `loss in 2`, `won`,
    a signed heuristic figure such as `+35`, an MCTS `58.9% mean result`, with what
    alpha-beta knows of it in front (`≤ +11`: a cut-off proved at most this).

    `ply` is the ply count of the position the value belongs to; "in k" says the game
    ends on the k-th move, from there, of the side whose move ends it (the winner's in
    most games; in misère BOOM, the loser's own move can end it).
    """

    value: float
    ply: int
    scale: Scale = Scale.SCORE
    bound: Bound = Bound.EXACT

    @property
    def decisive(self) -> bool:
        """A win or loss in a known number of moves (never an MCTS mean)."""
        return self.scale != Scale.MEAN and is_decisive(self.value)

    @property
    def moves_to_end(self) -> int:
        """The k of a decisive score's `win in k` or `loss in k`, 0 if the game ended
        with the move into the position at `ply`."""
        return max(0, ((WIN - abs(int(self.value))) - self.ply + 1) // 2)

    def __str__(self) -> str:
        if self.scale == Scale.MEAN:
            text = f"{100 * self.value:.1f}% mean result"
        elif self.decisive:
            moves = self.moves_to_end
            if moves == 0:  # the game ended with the move into this position
                text = "won" if self.value > 0 else "lost"
            else:
                text = f"{'win' if self.value > 0 else 'loss'} in {moves}"
        elif isinstance(self.value, float):
            text = f"{self.value:+.3f}"
        else:
            text = f"{self.value:+d}"
        return BOUND_MARKS.get(self.bound, "") + text


def proven(game, state, value: float, depth: int | None) -> str:
    """What a tree search's completed depth proves about `state`: `proven lost` /
    `proven won` for a decisive value, `proven draw` for a search that saw every line
    to the end of the game, else ""."""
    if is_decisive(value):
        return "proven won" if value > 0 else "proven lost"
    left = game.plies_left_at_most(state)
    if depth is not None and left is not None and depth >= left:
        return "proven draw"
    return ""
