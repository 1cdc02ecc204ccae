"""Connect 4's board for the CLI: the grid from the top row down, the last disc
bracketed so that it shows without colour."""
from __future__ import annotations

from rich.text import Text

from plyground.core.games.connect4 import Connect4State

from .gravity import gravity_grid

CONNECT4_STYLES = ("bold red", "bold yellow")


def connect4_board(state: Connect4State) -> Text:
    """The grid from the top row down, columns 1-7 under it; the last move's disc is
    bracketed so it shows without colour."""
    last = None
    if state.history:
        column = state.history[-1]
        last = (column, state.column_height(column) - 1)

    def piece(column: int, row: int, side: int) -> tuple[str, str]:
        label = state.game.side_labels[side]
        return (f"[{label}]" if (column, row) == last else f" {label} "), \
            CONNECT4_STYLES[side]

    return gravity_grid(state, piece, lambda column: (f" {column + 1} ", "dim"))
