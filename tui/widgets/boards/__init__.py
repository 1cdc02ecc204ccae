"""Board widgets, one per game: they render a State and post `MoveChosen`; they never
decide rules (the screen asks the State whether a move is legal). A game names its
widget when it registers (`GameEntry.board`)."""
from __future__ import annotations

from plyground.core.game import load_ref

from .base import BoardWidget


def has_board(entry) -> bool:
    """Whether the app can show the registered game (it declared a board widget)."""
    return entry.board is not None


def board_for(game, **kwargs) -> BoardWidget:
    return load_ref(game.entry.board)(game, **kwargs)
