"""The board as a rich renderable, for the CLI (`plyground demo`, `analyze`).

It reads without colour: pieces are the letters X and O, the last move is bracketed
(`[X]`), rows are numbered from the bottom and columns lettered as the notation names
them.
"""
from __future__ import annotations

from rich.text import Text

from .rules import COLUMNS, TicTacToeState

STYLES = ("bold red", "bold blue")


def render(state: TicTacToeState) -> Text:
    labels = state.game.side_labels
    text = Text()
    for row in reversed(range(3)):
        text.append(f"{row + 1} ", style="dim")
        for column in range(3):
            cell = 3 * row + column
            side = state.cell(cell)
            if column:
                text.append("│", style="dim")
            if side is None:
                text.append(" · ", style="dim")
            elif cell == state.last_move:
                text.append(f"[{labels[side]}]", style=STYLES[side])
            else:
                text.append(f" {labels[side]} ", style=STYLES[side])
        text.append("\n")
        if row:
            text.append("  ───┼───┼───\n", style="dim")
    text.append("  " + "".join(f" {c}  " for c in COLUMNS).rstrip(), style="dim")
    return text
