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
from plyground.core.games.cephalopod import CephalopodState
from plyground.core.games.connect4 import HEIGHT, WIDTH, Connect4State
from plyground.core.games.quarto import QuartoState, piece_name

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


def cephalopod_board(state: CephalopodState) -> Text:
    """Each die as its colour's letter and pips (`r3`, `b6`), rows from the top, the
    column letters under them and the row numbers beside them."""
    game = state.game
    text = Text()
    for row in range(game.rows):
        text.append(f"{game.rows - row} ", style="dim")
        for col in range(game.cols):
            die = state.die(row * game.cols + col)
            if die is None:
                text.append("  · ", style="dim")
            else:
                side, pips = die
                text.append(f" {'rb'[side]}{pips} ", style=CEPHALOPOD_STYLES[side])
        text.append("\n")
    text.append("  " + "".join(f"  {'abcdefghi'[c]} " for c in range(game.cols)),
                style="dim")
    return text


CEPHALOPOD_STYLES = ("bold red", "bold blue")


def quarto_board(state: QuartoState) -> Text:
    """Each piece by its attribute letters (capital: tall, dark, square, hollow), a
    winning line's pieces bracketed, then the piece in hand and the pool."""
    winning = {square for line in state.winning_lines() for square in line}
    text = Text()
    for row in range(4):
        text.append(f"{4 - row} ", style="dim")
        for square in range(row * 4, row * 4 + 4):
            piece = state.board[square]
            if piece < 0:
                text.append("   ·   ", style="dim")
            elif square in winning:
                text.append(f"[{piece_name(piece)}] ", style="bold reverse")
            else:
                text.append(f" {piece_name(piece)}  ", style="bold")
        text.append("\n")
    text.append("  " + "".join(f"   {c}   " for c in "abcd") + "\n", style="dim")
    if state.hand is not None:
        text.append(f"{state.game.side_labels[state.to_move]} places ")
        text.append(piece_name(state.hand), style="bold")
        text.append(f" ({state.hand})\n")
    pool = state.pool()
    if pool:
        text.append("pool: " + " ".join(f"{piece_name(p)}={p}" for p in pool),
                    style="dim")
    return text

RENDERERS: dict[str, Callable[[State], RenderableType]] = {
    "connect4": connect4_board,
    "cephalopod": cephalopod_board,
    "quarto": quarto_board,
}


def render_board(state: State) -> RenderableType:
    return RENDERERS[state.game.id](state)
