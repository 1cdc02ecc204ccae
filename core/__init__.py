"""plyground's engine: games, search, agents. Never imports textual, rich or typer."""
from . import games  # noqa: F401  (registers the games)
from .agents.base import AGENT_KINDS, Agent, BadSetting, make_agent, parse_agent
from .game import (BadOption, Game, IllegalMove, NotationError, Outcome, PlygroundError,
                   State, UnknownName, game_entries, get_game, parse_game)
from .search.control import Budget

__all__ = [
    "AGENT_KINDS", "Agent", "BadOption", "BadSetting", "Budget", "Game", "IllegalMove",
    "NotationError", "Outcome", "PlygroundError", "State", "UnknownName",
    "game_entries", "get_game", "make_agent", "parse_agent", "parse_game",
]
