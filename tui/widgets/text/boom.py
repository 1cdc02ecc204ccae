"""Boom's board for the CLI: each side's initial, its bombs marked, and when each
side's bomb comes."""
from __future__ import annotations

from rich.text import Text

from plyground.core.games.boom import BoomState

from .gravity import gravity_grid

BOOM_STYLES = ("bold green", "bold blue")


def boom_board(state: BoomState) -> Text:
    """The grid with each side's initial (G, B) and `*` on a bomb, the column of the last
    piece put bracketed under it; then, for each side, its bomb is down or when it comes."""
    last = state.history[-1] if state.history else None

    def piece(column: int, row: int, side: int) -> tuple[str, str]:
        bomb = "*" if state.is_bomb(column, row) else " "
        return f" {state.game.side_labels[side][0]}{bomb}", BOOM_STYLES[side]

    def label(column: int) -> tuple[str, str]:
        return (f"[{column + 1}]", "bold") if column == last else (f" {column + 1} ", "dim")

    text = gravity_grid(state, piece, label)
    for side, name in enumerate(state.game.side_labels):
        text.append(f"\n{name} ({name[0]}): {state.bomb_status(side)}", BOOM_STYLES[side])
    return text
