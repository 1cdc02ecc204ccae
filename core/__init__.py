"""plyground's engine: games, search, agents. Never imports textual, rich or typer.

This package's names are the bottom layer's (errors and the game contract); agents
come from core/catalogue.py, budgets from core/search/control.py.
"""
from . import games  # noqa: F401  (registers the games)
from .errors import (BadOption, BadSetting, IllegalMove, NotationError, PlygroundError,
                     UnknownName)
from .game import (Game, Outcome, State, Termination, game_entries, get_game,
                   parse_game)

__all__ = [
    "BadOption", "BadSetting", "Game", "IllegalMove", "NotationError", "Outcome",
    "PlygroundError", "State", "Termination", "UnknownName", "game_entries", "get_game",
    "parse_game",
]
