"""Tic-tac-toe for plyground, added the way any package adds a game: this `ENTRY`,
named in pyproject.toml under the entry-point group `plyground.games`.

plyground reads the entry when it lists its games; the board widget and the text
renderer are `module:attribute` references, imported only when the app or the CLI
draws a board (so the rules never import Textual).
"""
from __future__ import annotations

from plyground.core.game import GameEntry

from .rules import GAME, TicTacToe, TicTacToeState

__all__ = ["ENTRY", "GAME", "TicTacToe", "TicTacToeState"]

ENTRY = GameEntry(
    id=GAME.id,
    title=GAME.title,
    factory=lambda: GAME,
    board="plyground_tictactoe.board:TicTacToeBoard",
    renderer="plyground_tictactoe.text:render",
    # the board's own colours; `$board`, `$board-hole` and `$board-win` are shared
    theme={"ttt-x": "#E5534B", "ttt-o": "#3A7BD5"},
    notation="cells played, a1 (bottom left) to c3, e.g. 'b2 a1 c3'",
    # how a network sees the game, for the learning agents (az, train az)
    encoding="plyground_tictactoe.rules:encoding",
    # the network `az` plays unless given another: made by `plyground train az tictactoe
    # --generations 30 --seed 1 --out ...` (README: its hash)
    network="plyground_tictactoe:tictactoe.npz",
    rules="X and O mark empty cells in turn. Three of your marks in a row, across, up "
          "or diagonally, win. A full board with no three is a draw.",
)
