"""`plyground match`: two agents over many games, colours alternating, in worker
processes; the totals (core/play/reports.py), as a table or as JSON."""
from __future__ import annotations

import json
import shlex
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.text import Text

from plyground.core import Game, PlygroundError, parse_game
from plyground.core.play.reports import MatchReport
from plyground.core.play.tournament import match_jobs
from plyground.core.ranges import MOST_GAMES
from plyground.core.rng import fresh_seed

from ..tables import Spec, cli_table, number_column, text_column
from .options import Cluster, ClusterSecurity, Jobs, NoRecord, Seed
from .recording import history_for, run_params
from .runs import (Openings, Resume, RunGame, RunPlan, end_run,
                   opening_lines, openings_option, percent, play_run, print_forfeits)
from .sides import game_agent

MatchFirst = Annotated[Optional[str], typer.Option(
    "--first", metavar="AGENT", help="one agent: it moves first in odd-numbered games",
    show_default=False)]
MatchSecond = Annotated[Optional[str], typer.Option(
    "--second", metavar="AGENT", help="the other agent: it moves first in even-numbered "
    "games", show_default=False)]


def print_match(game: Game, report: dict) -> None:
    console = Console(highlight=False)
    console.print(Text(f"{game.title} ({game.spec}), {len(report['results'])} games"
                       + (f", openings {report['openings']}" if report["openings"] else "")))
    table = cli_table()
    text_column(table, "agent")
    for header in ("wins", "draws", "losses", "score", "wins\nas 1st", "wins\nas 2nd"):
        number_column(table, header)
    for total in report["totals"]:
        table.add_row(Spec(total["agent"]), str(total["wins"]), str(total["draws"]),
                      str(total["losses"]), percent(total["score"]),
                      str(total["wins_first"]), str(total["wins_second"]))
    console.print(table, "")
    print_forfeits(report)
    typer.echo("reproduce: " + report["command"])  # on one line, to copy whole


def match_command(game: Game, params: dict) -> str:
    """The command that replays the match."""
    return shlex.join(["plyground", "match", game.spec, "--first", params["first"],
                       "--second", params["second"], "--games", str(params["games"]),
                       "--seed", str(params["seed"]),
                       *(["--openings", params["openings"]] if params["openings"] else [])])


def match(
    game_spec: RunGame = None,
    first: MatchFirst = None,
    second: MatchSecond = None,
    games: Annotated[Optional[int], typer.Option(
        min=1, max=MOST_GAMES, help="how many games to play", show_default=False)] = None,
    seed: Seed = None,
    openings: Openings = None,
    resume: Resume = None,
    jobs: Jobs = None,
    cluster: Cluster = None,
    cluster_security: ClusterSecurity = None,  # (carried in `cluster`)
    as_json: Annotated[bool, typer.Option(
        "--json", help="print one JSON object: each game (its `first` and `winner` are 0 "
        "for the --first agent, 1 for --second; how it ended; its opening), the totals "
        "and the forfeits")] = False,
    no_record: NoRecord = False,
) -> None:
    """Play two agents against each other over many games, colours alternating.

    Games run in parallel worker processes. An agent with a seed setting
    that its spec leaves out gets a new seed every game, derived from the match
    seed: the same command plays the same games, unless an agent has a time limit.
    An agent from outside plyground (bot.py:Class, an engine) decides in a
    process of its own; if it fails, it forfeits the game (a loss), and the
    reasons are listed under the table. Each game goes to the game history as
    it ends, with the match's run (unless --no-history). Ctrl-C stops the match,
    reports the games finished and says how to go on with --resume.

    Examples: plyground match connect4 --first greedy --second random
    --games 4 --openings balanced

    plyground match --resume 12 (the run Ctrl-C stopped)
    """
    # As typed: the canonical spec drops a setting given at its default value
    # (random:seed=0 is written random), and the rerun would then derive that seed.
    given = {"first": first and first.strip(), "second": second and second.strip(),
             "games": games, "seed": seed, "openings": openings_option(openings)}
    game_spec, params = run_params(resume, "match", game_spec, given, no_record)
    missing = [name for name, value in (("a game", game_spec), ("--first", params["first"]),
               ("--second", params["second"]), ("--games", params["games"]))
               if value is None]
    if missing:
        raise PlygroundError(f"a match needs {' and '.join(missing)} (or --resume RUN)")
    game = parse_game(game_spec)
    params = {**params, "seed": fresh_seed() if params["seed"] is None else params["seed"]}
    specs = (params["first"], params["second"])
    players = (game_agent(game, specs[0]), game_agent(game, specs[1]))
    command = match_command(game, params)
    plan = RunPlan("match", game, params, command, match_jobs(
        players, params["games"], params["seed"], 0,
        opening_lines(game, params["openings"], params["games"])),
        lambda job: specs, lambda job: command)
    with history_for(not no_record) as history:
        played = play_run(plan, history, resume, jobs, cluster, as_json)
    results = [result for _, result in played.results]
    report = MatchReport(game.spec, specs, params["seed"], command, results,
                         params["openings"]).to_json()
    if as_json:
        typer.echo(json.dumps(report, indent=2))
    else:
        print_match(game, report)
    end_run(played, "match")
