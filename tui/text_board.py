"""Boards as rich renderables: the static pictures the CLI prints (demo, analyze).

The Textual app draws boards with its own widgets; these are for a terminal log, so
they must read well without colour too. A game names its function when it registers
(`GameEntry.renderer`); one without gets its position in its own notation.
"""
from __future__ import annotations

from typing import Callable

from rich.console import RenderableType
from rich.text import Text

from plyground.core import State
from plyground.core.game import load_ref
from plyground.core.games.boom import BoomState
from plyground.core.games.cephalopod import CephalopodState
from plyground.core.games.connect4 import Connect4State
from plyground.core.games.gravity import GravityBoard
from plyground.core.games.quarto import QuartoState, piece_name

CONNECT4_STYLES = ("bold red", "bold yellow")
BOOM_STYLES = ("bold green", "bold blue")


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

def render_board(state: State) -> RenderableType:
    ref = state.game.entry.renderer
    if ref is None:
        return Text(state.game.format_position(state))
    return load_ref(ref)(state)
