"""`plyground perft`: move sequences or distinct positions counted ply by ply."""
from __future__ import annotations

from typing import Annotated

import typer

from plyground.core import parse_game
from plyground.core.ranges import DEEPEST
from plyground.core.study.perft import distinct_levels, perft_levels

from .options import GameSpec


def count_positions(
    game_spec: GameSpec,
    depth: Annotated[int, typer.Option(min=0, max=DEEPEST,
                                       help="count up to this many plies",
                                       show_default=False)],
    distinct: Annotated[bool, typer.Option(
        "--distinct", help="count distinct positions instead of move sequences")] = False,
) -> None:
    """Count move sequences (perft) or distinct positions per ply.

    Prints one `n count` line for each n = 0..depth, from the start position, each as
    soon as it is counted.
    """
    game = parse_game(game_spec)
    for n, count in enumerate((distinct_levels if distinct else perft_levels)(game, depth)):
        typer.echo(f"{n} {count}")
