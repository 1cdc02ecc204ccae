"""The value scale every search and heuristic shares.

Values are from the point of view of the side to move. A won game scores
`WIN - ply`, where `ply` is the ply count of the position in which the winning move
has just been played; so a faster win scores higher and a slower loss scores higher
(less negative). Heuristic values stay far below `WIN - MAX_PLY`.
"""
from __future__ import annotations

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


SCORE, MEAN = "score", "mean"  # the two scales a search's values come on


def describe_value(value: float, ply: int, scale: str = SCORE) -> str:
    """`win in 3`, `loss in 2`, a signed heuristic figure such as `+35`, or for an
    MCTS mean result (0..1, draws counting half) `58.9% mean result`.

    `ply` is the ply count of the position the value belongs to; "in k" says the game
    ends on the k-th move, from there, of the side whose move ends it (the winner's in
    most games; in misère BOOM, the loser's own move can end it).
    """
    if scale == MEAN:
        return f"{100 * value:.1f}% mean result"
    if is_decisive(value):
        moves = moves_to_end(value, ply)
        if moves == 0:  # the game ended with the move into this position
            return "won" if value > 0 else "lost"
        return f"{'win' if value > 0 else 'loss'} in {moves}"
    if isinstance(value, float):
        return f"{value:+.3f}"
    return f"{value:+d}"


def moves_to_end(value: float, ply: int) -> int:
    """The k of a decisive value's `win in k` or `loss in k` (describe_value), 0 if the
    game ended with the move into the position at `ply`."""
    return max(0, ((WIN - abs(int(value))) - ply + 1) // 2)


BOUND_MARKS = {"lower": "≥ ", "upper": "≤ "}  # by events.Bound; exact has none


def describe_bounded(value: float, bound: str, ply: int, scale: str = SCORE) -> str:
    """A value with what alpha-beta knows of it: `≤ +11` (a cut-off proved at most
    this), `≥ win in 3`, or the value itself when exact."""
    return BOUND_MARKS.get(bound, "") + describe_value(value, ply, scale)


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
