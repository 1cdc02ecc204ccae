"""What the commands make of a game's sides and start: `human`, or an agent checked to
play the game before a game starts, a worker runs or the app opens; and the position
`--position` names."""
from __future__ import annotations

from plyground.core.agents.base import Agent
from plyground.core import Game, State
from plyground.core.catalogue import HUMAN, parse_agent
from plyground.core.agents.base import check_plays
from plyground.core.records.positions import start_state


def is_human(spec: str) -> bool:
    return spec.strip() == HUMAN


def game_agent(game: Game, spec: str) -> Agent:
    """The agent `spec` names, checked to play `game` (`check_plays`) before a game
    starts, a worker runs or the app opens."""
    agent = parse_agent(spec)
    check_plays(agent, game)
    return agent


def side_spec(game: Game, spec: str) -> str:
    """`human`, or the agent spec in its canonical form (checked here, before the app
    starts, so that a typo or an agent that cannot play `game` is an error line rather
    than a broken screen)."""
    return HUMAN if is_human(spec) else game_agent(game, spec).spec


def starting_state(game: Game, position: str | None) -> State:
    """The state `--position` names (the usual start without it): read as the setup
    screen's position editor reads it, so both start the same game."""
    return start_state(game, position)
