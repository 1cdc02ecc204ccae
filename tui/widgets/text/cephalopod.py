"""Cephalopod's board for the CLI: each die as its colour's letter and pips."""
from __future__ import annotations

from rich.text import Text

from plyground.core.games.cephalopod import CephalopodState

CEPHALOPOD_STYLES = ("bold red", "bold blue")


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
