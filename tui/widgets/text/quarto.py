"""Quarto's board for the CLI: each piece by its attribute letters, the piece in
hand and the pool."""
from __future__ import annotations

from rich.text import Text

from plyground.core.games.quarto import QuartoState, piece_name

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
