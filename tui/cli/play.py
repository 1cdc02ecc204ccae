"""`plyground play`: the app opened on a game, its sides named or left to the setup
screen, or on a saved game record (--load)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from plyground.core import PlygroundError, parse_game
from plyground.core.catalogue import HUMAN
from plyground.core.paths import data_home
from plyground.core.records.record import load_record

from .options import GameSeed, GameSpec, Position, TrustAgents
from .sides import side_spec

# The first side's option is named after each game's first side (X, Red); so the second.
# The first side's option is named after each game's first side (X, Red); so the second.
PlayFirst = Annotated[Optional[str], typer.Option(
    "--x", "--red", "--first", metavar="SIDE",
    help="the side that moves first: human or an agent (kind:setting=value, "
         "path/to/bot.py:Class, package.module:Class, engine:cmd=\"./bot\")")]
PlaySecond = Annotated[Optional[str], typer.Option(
    "--o", "--blue", "--second", metavar="SIDE",
    help="the side that moves second: human or an agent (as --x)")]


def launch(game_id: str | None = None, sides: tuple[str, str] | None = None,
           position: str | None = None, options: dict | None = None,
           seed: int | None = None) -> None:
    from plyground.tui.app import run  # Textual loads only when the app opens

    data_home()  # a bad data folder is a line here, not a broken app
    run(game_id=game_id, sides=sides, position=position, options=options, seed=seed)


LoadRecord = Annotated[Optional[Path], typer.Option(
    "--load", metavar="FILE", help="open a saved game record (see the README's Game "
    "records): its moves and variations, the game going on from its last position",
    show_default=False)]


def play(game_spec: GameSpec, first: PlayFirst = None, second: PlaySecond = None,
         position: Position = None, seed: GameSeed = None,
         load: LoadRecord = None, trust_agents: TrustAgents = False) -> None:
    """Open the app on a game.

    Naming a side skips the side choice (an unnamed side is human);
    naming none leaves the choice to the setup screen. Without --seed,
    each game draws a seed; the game screen shows it. A record opened
    with --load that names agents from outside plyground asks before it
    runs them (--trust-agents: runs them without asking).
    """
    game = parse_game(game_spec)
    if load is not None:
        record = load_record(load)
        if record.game.id != game.id:
            raise PlygroundError(f"{load} is a game of {record.game.title}, not "
                                 f"{game.title}: play {record.game.id} --load {load}")
        if first is not None or second is not None or position is not None:
            raise PlygroundError("--load opens the record's own players and position: "
                                 "leave out --x, --o and --position")
        from plyground.tui.app import run  # Textual loads only when the app opens

        data_home()
        run(record=record, trust_agents=trust_agents)
        return
    if position is not None:
        position = game.format_position(game.parse_position(position))
    sides = None
    if first is not None or second is not None:
        sides = (side_spec(game, first or HUMAN), side_spec(game, second or HUMAN))
    launch(game.id, sides, position, game.options(), seed)
