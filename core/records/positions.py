"""The position a game starts from, read from text: the one reading the command line's
`--position` and the setup screen's position editor share, so that both start the same
game."""
from __future__ import annotations

from ..game import Game, State


def start_state(game: Game, text: str | None) -> State:
    """The state `game` starts from: its usual start for no text (None, or only spaces),
    else the position `text` writes in the game's notation (`GameEntry.notation`).
    A text that is not a position raises the game's PlygroundError, naming what is
    wrong. A position whose game is over is returned as it is: it is the caller's to
    say so."""
    if text is None or not text.strip():
        return game.start()
    return game.parse_position(text.strip())
