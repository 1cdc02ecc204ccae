"""`plyground grade label`: label a file of positions with their best moves, for a
grading spec's `positions` check."""
from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from plyground.core import parse_game
from plyground.core.errors import PlygroundError
from plyground.core.paths import NotReplaced

from .options import Force, GameSpec, refusal


def label_command(
    game_spec: GameSpec,
    positions: Annotated[Path, typer.Argument(
        metavar="POSITIONS", show_default=False,
        help="a file of positions in the game's notation, one a line (# comments)")],
    out: Annotated[Path, typer.Option(
        "--out", metavar="FILE", show_default=False,
        help="write the labelled positions to FILE (atomically, at the end)")],
    agent: Annotated[Optional[str], typer.Option(
        metavar="SPEC", show_default=False,
        help="the reference search, bounded by nodes= or depth= (never time=), e.g. "
             "alphabeta:depth=6; Connect 4 is labelled by its exact solver without it")
    ] = None,
    force: Force = False,
) -> None:
    """Label positions with their best moves, for a grading spec's `positions` check.

    Each position gets every move's value and the moves of the best value (all
    that tie), from Connect 4's exact solver or a reference search with a fixed
    budget, so that the same command gives the same file again. The header
    records the game, the labeller, its budget and this command. An existing
    FILE is replaced only with --force; a symbolic link never.
    """
    from plyground.core.grade.label import label_all, labeller_for, read_unlabelled
    from plyground.core.grade.positions import write_positions  # (not at start-up)

    game = parse_game(game_spec)
    labeller = labeller_for(game, agent)
    if out.is_symlink() or (out.exists() and not force):
        raise PlygroundError(refusal(NotReplaced(out, out.is_symlink())))
    states = read_unlabelled(positions, game)
    words = ["plyground", "grade", "label", game.spec, str(positions), "--out", str(out)]
    if agent is not None:
        words[5:5] = ["--agent", agent.strip()]

    def progress(number: int, total: int) -> None:
        print(f"position {number} of {total}", file=sys.stderr, flush=True)

    labelled = label_all(states, labeller, progress)
    try:
        write_positions(out, game, labeller.header(shlex.join(words)), labelled,
                        overwrite=force)
    except NotReplaced as refused:
        raise PlygroundError(refusal(refused)) from None
    except OSError as error:
        raise PlygroundError(f"cannot write {out}: {error.strerror or error}") from None
    print(f"{len(labelled)} positions labelled by {labeller.name} written to {out}",
          file=sys.stderr)
