"""`plyground openings GAME`: a game's opening suites (core/play/openings.py) listed,
built, checked or shown. Building is resumable: Ctrl-C keeps what was judged, and the
same command run again goes on from there."""
from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from plyground.core import Game, PlygroundError, parse_game
from plyground.core.game import load_ref
from plyground.core.play.openings import VALUE_MARK, Suite, load_suite, shipped_suites
from plyground.core.play.openings_build import Found, Plan, build, default_plies
from plyground.core.ranges import DEEPEST, MOST_OPENINGS

from ..exit_codes import INTERRUPTED
from .options import SEED_RANGE, GameSpec

SAMPLE = 20  # openings `--check --exact` solves again


def openings_command(
    game_spec: GameSpec,
    build_suite: Annotated[bool, typer.Option(
        "--build", help="build a suite of balanced openings (resumable: run the same "
        "command again after Ctrl-C)")] = False,
    count: Annotated[int, typer.Option(
        min=1, max=MOST_OPENINGS, help="with --build: openings to find")] = 200,
    seed: Annotated[int, typer.Option(
        **SEED_RANGE, help="with --build: the seed of the walk")] = 1,
    plies: Annotated[Optional[str], typer.Option(
        metavar="LO-HI", help="with --build: the openings' lengths in moves (default "
        "4-8 where an exact solver judges them, else 2-6)", show_default=False)] = None,
    margin: Annotated[float, typer.Option(
        min=0, max=0.5, help="with --build, where no exact solver judges: keep a "
        "position whose MCTS mean result is within this of 0.5")] = 0.05,
    candidates: Annotated[Optional[Path], typer.Option(
        metavar="FILE", help="with --build: take first the positions of FILE, "
        "`<moves> <value>` a line (Connect 4: the exact score, as the solver "
        "benchmark's Test_L1_R3 has it), those at the plies asked for whose value is "
        "even", show_default=False)] = None,
    out: Annotated[Optional[Path], typer.Option(
        metavar="FILE", help="with --build: the suite file (default: "
        "GAME-openings.txt here)", show_default=False)] = None,
    check: Annotated[Optional[str], typer.Option(
        metavar="NAME|FILE", help="check a suite: every opening legal, unfinished and "
        "distinct", show_default=False)] = None,
    exact: Annotated[bool, typer.Option(
        "--exact", help=f"with --check: solve {SAMPLE} of its openings again with the "
        "game's exact solver and compare their values")] = False,
    show: Annotated[Optional[str], typer.Option(
        metavar="NAME|FILE", help="print a suite's openings with their values",
        show_default=False)] = None,
) -> None:
    """List a game's shipped opening suites, or build, check or show one.

    A suite is a text file, one opening a line: the moves from the start in the
    game's notation, then `  # ` and its value. `--openings NAME|FILE` on match,
    tournament and sprt plays each opening twice, colours swapped. The shipped
    suites were built by these, Connect 4's from the project's root and the others
    in core/play/suites/ (cephalopod as boom):
    plyground openings connect4 --build --count 500 --seed 1 --candidates
    ../shared/data/connect4/Test_L1_R3 --out core/play/suites/connect4.txt
    plyground openings boom --build --count 200 --seed 1 --out boom.txt
    plyground openings quarto --build --count 200 --seed 1 --margin 0.1 --out
    quarto.txt
    """
    game = parse_game(game_spec)
    if build_suite:
        build_command(game, count, seed, plies, margin, candidates, out)
    elif check is not None:
        check_command(game, check, exact)
    elif show is not None:
        suite = load_suite(game, show)
        for line, value in zip(suite.lines, suite.values):
            typer.echo(line + VALUE_MARK + value if value else line)
    else:
        list_command(game)


def list_command(game: Game) -> None:
    names = shipped_suites(game)
    if not names:
        typer.echo(f"there is no shipped opening suite for {game.spec}; build one with: "
                   f"plyground openings {game.spec} --build")
        return
    for name in names:
        suite = load_suite(game, name)
        low, high = suite.plies(game)
        typer.echo(f"{name}: {len(suite.lines)} openings, plies {low}-{high}\n"
                   f"  built by: {suite.about('built by')}\n"
                   f"  values: {suite.about('values')}")


def parse_plies(text: str | None, game: Game) -> tuple[int, int]:
    if text is None:
        return default_plies(game)
    found = re.fullmatch(r"\s*([0-9]{1,3})\s*(?:-\s*([0-9]{1,3})\s*)?", text)
    if found is None:
        raise PlygroundError(f"--plies {text!r} is not LO-HI, as in 4-8")
    plies = int(found[1]), int(found[2] or found[1])
    if plies[1] > DEEPEST:
        raise PlygroundError(f"--plies {text}: at most {DEEPEST} moves")
    if plies[0] > plies[1]:
        raise PlygroundError(f"--plies {text}: the fewest is more than the most")
    return plies


def build_command(game: Game, count: int, seed: int, plies: str | None, margin: float,
                  candidates: Path | None, out: Path | None) -> None:
    out = out or Path(f"{game.id}-openings.txt")
    command = " ".join(["plyground openings", game.spec, "--build", f"--count {count}",
                        f"--seed {seed}", *([f"--plies {plies}"] if plies else []),
                        *([f"--margin {margin:g}"] if margin != 0.05 else []),
                        *([f"--candidates {candidates}"] if candidates else []),
                        f"--out {out}"])
    plan = Plan(game, count, seed, parse_plies(plies, game), command, margin=margin,
                candidates=candidates)
    live, shown = sys.stderr.isatty(), [0]

    def report(found: Found) -> None:
        if found.judged == shown[0]:
            return
        shown[0] = found.judged
        line = (f"{len(found.kept)} of {count} openings kept, {found.judged} positions "
                f"judged ({found.reused} read from {out.name}.partial)")
        if live:
            print(f"\r{line}", end="", file=sys.stderr, flush=True)
        elif found.judged % 50 == 0:
            print(line, file=sys.stderr, flush=True)

    try:
        found = build(plan, out, report)
    except KeyboardInterrupt:
        print(f"\ninterrupted: what was judged is kept in {out}.partial; run the same "
              "command again to go on", file=sys.stderr)
        raise typer.Exit(INTERRUPTED) from None
    finally:
        if live:
            print(file=sys.stderr)
    typer.echo(f"wrote {out}: {len(found.kept)} openings ({found.judged} positions "
               f"judged)")


def check_command(game: Game, name: str, exact: bool) -> None:
    suite = load_suite(game, name)  # refuses an illegal, finished or repeated opening
    low, high = suite.plies(game)
    verdict = (f"{suite.source.name}: ok, {len(suite.lines)} openings at plies "
               f"{low}-{high}, each legal, unfinished and distinct")
    if exact:
        verdict += "; " + solved_again(game, suite)
    typer.echo(verdict)


def solved_again(game: Game, suite: Suite) -> str:
    """Whether the game's exact solver gives a sample of the suite's openings the
    values the suite says (a PlygroundError names the first that differs)."""
    if game.entry.solver is None:
        raise PlygroundError(f"--exact: there is no exact solver for {game.title}")
    solver = load_ref(game.entry.solver)()
    sample = random.Random(0).sample(range(len(suite.lines)), min(SAMPLE, len(suite.lines)))
    for index in sample:
        state, _ = suite.start(game, index)
        score, said = solver.solve(state), suite.values[index]
        if said != (f"{score:+d}" if score else "0"):
            raise PlygroundError(f"{suite.source.name}: opening {suite.lines[index]} is "
                                 f"worth {score}, not {said or 'unstated'}")
    return f"{len(sample)} values solved again agree"
