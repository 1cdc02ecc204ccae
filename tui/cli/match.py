"""`plyground match`: two agents over many games, colours alternating, in worker
processes; the totals (core/play/reports.py), as a table or as JSON."""
from __future__ import annotations

import json
import os
import shlex
from functools import partial
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from plyground.core import Game, parse_game
from plyground.core.play.reports import MatchReport
from plyground.core.play.tournament import local_pool, run_match
from plyground.core.rng import fresh_seed

from ..tables import Spec, cli_table, number_column, text_column
from .options import GameSpec, Jobs, NoRecord, Seed
from .recording import record_match_game, recorded, history_for
from .runs import collect, exit_if_interrupted, game_line, percent, print_forfeits
from .sides import game_agent

MatchFirst = Annotated[str, typer.Option(
    "--first", metavar="AGENT", help="one agent: it moves first in odd-numbered games",
    show_default=False)]
MatchSecond = Annotated[str, typer.Option(
    "--second", metavar="AGENT", help="the other agent: it moves first in even-numbered "
    "games", show_default=False)]


def print_match(game: Game, report: dict) -> None:
    console = Console(highlight=False)
    console.print(Text(f"{game.title} ({game.spec}), {len(report['results'])} games"))
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


def match(
    game_spec: GameSpec,
    first: MatchFirst,
    second: MatchSecond,
    games: Annotated[int, typer.Option(min=1, help="how many games to play",
                                       show_default=False)],
    seed: Seed = None,
    jobs: Jobs = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="print one JSON object: each game (its `first` and `winner` are 0 "
        "for the --first agent, 1 for --second; how it ended), the totals and the "
        "forfeits")] = False,
    no_record: NoRecord = False,
) -> None:
    """Play two agents against each other over many games, colours alternating.

    Games run in parallel worker processes. An agent with a seed setting
    that its spec leaves out gets a new seed every game, derived from the match
    seed: the same command plays the same games, unless an agent has a time limit.
    An agent from outside plyground (bot.py:Class, an engine) decides in a
    process of its own; if it fails, it forfeits the game (a loss), and the
    reasons are listed under the table. Ctrl-C stops the match and reports
    the games finished. Each game goes to the game history as it ends
    (unless --no-record).
    """
    game = parse_game(game_spec)
    # As typed: the canonical spec drops a setting given at its default value
    # (random:seed=0 is written random), and the rerun would then derive that seed.
    specs = (first.strip(), second.strip())
    players = (game_agent(game, first), game_agent(game, second))
    if seed is None:
        seed = fresh_seed()
    command = shlex.join(["plyground", "match", game.spec, "--first", specs[0], "--second",
                          specs[1], "--games", str(games), "--seed", str(seed)])
    with history_for(not no_record) as history, \
            local_pool(game, jobs or os.cpu_count() or 1) as pool:
        results, interrupted = collect(recorded(
            run_match(game, players, games, seed, pool),
            lambda result: record_match_game(history, "match", game, players, result,
                                             command)), games, as_json,
            partial(game_line, specs))
    results.sort(key=lambda result: result.number)
    report = MatchReport(game.spec, specs, seed, command, results).to_json()
    if as_json:
        typer.echo(json.dumps(report, indent=2))
    else:
        print_match(game, report)
    exit_if_interrupted(interrupted, len(results), games)
