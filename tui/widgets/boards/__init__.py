"""Board widgets, one per game: they render a State and post `MoveChosen`; they never
decide rules (the screen asks the State whether a move is legal)."""
from __future__ import annotations

from .base import BoardWidget
from .boom import BoomBoard
from .cephalopod import CephalopodBoard
from .connect4 import Connect4Board
from .quarto import QuartoBoard

BOARDS: dict[str, type[BoardWidget]] = {
    board.game_id: board
    for board in (Connect4Board, CephalopodBoard, BoomBoard, QuartoBoard)
}


def board_for(game, **kwargs) -> BoardWidget:
    return BOARDS[game.id](game, **kwargs)
