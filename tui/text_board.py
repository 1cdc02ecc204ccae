"""Boards as rich renderables: the static pictures the CLI prints (demo, analyze).

The Textual app draws boards with its own widgets; these are for a terminal log, so
they must read well without colour too. Each game has one function here, looked up by
game id: adding a game means adding its entry to RENDERERS.
"""
from __future__ import annotations

from typing import Callable

from rich.console import RenderableType
from rich.text import Text

from plyground.core import State
from plyground.core.games.connect4 import HEIGHT, WIDTH, Connect4State

CONNECT4_STYLES = ("bold red", "bold yellow")


def connect4_board(state: Connect4State) -> Text:
    """The grid from the top row down, columns 1-7 under it; the last move's disc is
    bracketed so it shows without colour."""
    last = None
    if state.history:
        column = state.history[-1]
        last = (column, state.column_height(column) - 1)
    text = Text()
    for row in reversed(range(HEIGHT)):
        for column in range(WIDTH):
            side = state.cell(column, row)
            if side is None:
                text.append(" · ", style="dim")
            else:
                label = state.game.side_labels[side]
                cell = f"[{label}]" if (column, row) == last else f" {label} "
                text.append(cell, style=CONNECT4_STYLES[side])
        text.append("\n")
    text.append("".join(f" {column} " for column in range(1, WIDTH + 1)), style="dim")
    return text


RENDERERS: dict[str, Callable[[State], RenderableType]] = {
    "connect4": connect4_board,
}


def render_board(state: State) -> RenderableType:
    return RENDERERS[state.game.id](state)
