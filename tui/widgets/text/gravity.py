"""The picture of a gravity board (pieces fall to the lowest empty cell), which the
games played on one share."""
from __future__ import annotations

from typing import Callable

from rich.text import Text

from plyground.core.games.gravity import GravityBoard


def gravity_grid(state, piece: Callable[[int, int, int], tuple[str, str]],
                 label: Callable[[int], tuple[str, str]]) -> Text:
    """A gravity board from the top row down, then a label under each column;
    `piece(column, row, side)` and `label(column)` give a text and its style."""
    board: GravityBoard = state.game.board
    text = Text()
    for row in reversed(range(board.height)):
        for column in range(board.width):
            side = state.cell(column, row)
            text.append(*((" · ", "dim") if side is None else piece(column, row, side)))
        text.append("\n")
    for column in range(board.width):
        text.append(*label(column))
    return text
