"""`plyground tournament`: every pair of agents plays a match; the cross table and the
Elo ratings (core/play/reports.py), as tables or as JSON."""
from __future__ import annotations

import json
import shlex
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.text import Text

from plyground.core import Game, PlygroundError, parse_game
from plyground.core.play.reports import TournamentReport
from plyground.core.play.tournament import gauntlet as gauntlet_pairs
from plyground.core.play.tournament import round_robin, tournament_jobs
from plyground.core.ranges import MOST_GAMES
from plyground.core.rng import fresh_seed

from ..tables import Spec, cli_table, number_column, text_column
from .options import Cluster, ClusterSecurity, Jobs, NoRecord, Seed
from .recording import history_for, run_params
from .runs import (Openings, Resume, RunGame, RunPlan, end_run,
                   opening_lines, openings_option, percent, play_run, print_forfeits)
from .sides import game_agent


def print_tournament(game: Game, report: dict) -> None:
    console = Console(highlight=False)
    played = sum(len(pair["results"]) for pair in report["pairs"])
    console.print(Text(f"{game.title} ({game.spec}), {len(report['agents'])} agents, "
                       f"{played} game{'' if played == 1 else 's'}"))
    order = [standing["agent"] for standing in report["ratings"]]  # best first
    specs = report["agents"]
    console.print(Text("wins-draws-losses of each row's agent against each column's "
                       "(columns by rank)"))
    table = cli_table()
    number_column(table, "rank")
    text_column(table, "agent")
    for rank in range(1, len(order) + 1):
        number_column(table, str(rank))
    for rank, row in enumerate(order, 1):
        cells = [report["cross_table"][row][column] for column in order]
        table.add_row(str(rank), Spec(specs[row]), *(
            "" if cell is None else f"{cell['wins']}-{cell['draws']}-{cell['losses']}"
            for cell in cells))
    console.print(table, "")
    ratings = cli_table()
    number_column(ratings, "rank")
    text_column(ratings, "agent")
    for header in ("Elo", "±", "games", "points", "score"):
        number_column(ratings, header)
    for standing in report["ratings"]:
        ratings.add_row(str(standing["rank"]), Spec(standing["spec"]),
                        f"{standing['elo']:.0f}",
                        f"{standing['error']:.0f}", str(standing["games"]),
                        f"{standing['points']:g}", percent(standing["score"]))
    console.print(ratings, "")
    print_forfeits(report)
    typer.echo("reproduce: " + report["command"])  # on one line, to copy whole


def tournament_command(game: Game, params: dict) -> str:
    """The command that replays the tournament."""
    optional = [(option, params[name]) for option, name in (
        ("--gauntlet", "gauntlet"), ("--openings", "openings")) if params[name]]
    return shlex.join(["plyground", "tournament", game.spec, "--agents", *params["agents"],
                       "--games", str(params["games"]), "--seed", str(params["seed"]),
                       *(word for pair in optional for word in pair)])


def tournament_agents(specs: list[str], challenger: str | None) -> list[str] | None:
    """The agents as typed (None if none were), the gauntlet's challenger first if
    --agents leaves it out; checked."""
    if not specs and challenger is None:
        return None
    if challenger is not None and challenger not in specs:
        specs = [challenger, *specs]
    if len(specs) < 2:
        raise PlygroundError("a tournament needs two agents or more: --agents A B ...")
    if len(set(specs)) < len(specs):
        raise PlygroundError("every agent of a tournament must be named once")
    return specs


def tournament(
    ctx: typer.Context,
    game_spec: RunGame = None,
    agents: Annotated[Optional[list[str]], typer.Option(
        "--agents", metavar="AGENT...", show_default=False,
        help="the agents, two or more: --agents random greedy mcts:time=0.2, or "
             "--agents repeated")] = None,
    games: Annotated[Optional[int], typer.Option(
        min=1, max=MOST_GAMES, help="how many games each pair plays (default: 10)",
        show_default=False)] = None,
    gauntlet: Annotated[Optional[str], typer.Option(
        "--gauntlet", metavar="AGENT", show_default=False,
        help="play AGENT against each other agent only (it joins --agents if they leave "
             "it out): --gauntlet mybot.py:Bot --agents greedy mcts:time=0.2")] = None,
    openings: Openings = None,
    resume: Resume = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="print one JSON object: each pair's games, the cross table, "
        "the ratings and the forfeits")] = False,
    seed: Seed = None,
    jobs: Jobs = None,
    cluster: Cluster = None,
    cluster_security: ClusterSecurity = None,  # (carried in `cluster`)
    no_record: NoRecord = False,
) -> None:
    """Play every pair of agents against each other, colours alternating; rate them.

    Each pair plays a match (see `match`) with a seed derived from the
    tournament's; games run in parallel worker processes. Prints the cross
    table and Elo ratings, best first (± is one standard error). With
    --gauntlet, one agent plays each of the others and they do not meet.
    Each game goes to the game history as it ends, with the tournament's run
    (unless --no-history). Ctrl-C stops the tournament, reports the games
    finished and says how to go on with --resume.

    Examples: plyground tournament connect4 --agents random greedy
    mcts:time=0.2 --games 4 --openings balanced

    plyground tournament connect4 --gauntlet greedy --agents random
    minimax:depth=2 (greedy against each of the others)

    plyground tournament --resume 12 (the run Ctrl-C stopped)
    """
    typed = [spec.strip() for spec in [*(agents or []), *ctx.args]]  # as typed, see match
    challenger = gauntlet and gauntlet.strip()
    given = {"agents": tournament_agents(typed, challenger), "games": games,
             "seed": seed, "gauntlet": challenger, "openings": openings_option(openings)}
    game_spec, params = run_params(resume, "tournament", game_spec, given, no_record)
    if game_spec is None or params["agents"] is None:
        raise PlygroundError("a tournament needs a game and --agents A B ... "
                             "(or --resume RUN)")
    game = parse_game(game_spec)
    params = {**params, "games": params["games"] or 10,
              "seed": fresh_seed() if params["seed"] is None else params["seed"]}
    specs = params["agents"]
    players = [game_agent(game, spec) for spec in specs]
    command = tournament_command(game, params)
    index = None if params["gauntlet"] is None else specs.index(params["gauntlet"])
    pairs = round_robin(len(specs)) if index is None else gauntlet_pairs(len(specs), index)
    plan = RunPlan("tournament", game, params, command, tournament_jobs(
        players, params["games"], params["seed"], pairs,
        opening_lines(game, params["openings"], params["games"])),
        lambda job: [specs[a] for a in pairs[job.match]],
        lambda job: f"{command}: {' v '.join(specs[a] for a in pairs[job.match])}")
    with history_for(not no_record) as history:
        played = play_run(plan, history, resume, jobs, cluster, as_json)
    results = [(job.match, result) for job, result in played.results]
    report = TournamentReport(game.spec, specs, params["games"], params["seed"], command,
                              results, index, params["openings"]).to_json()
    if as_json:
        typer.echo(json.dumps(report, indent=2))
    else:
        print_tournament(game, report)
    end_run(played, "tournament")
