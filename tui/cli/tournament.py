"""`plyground tournament`: every pair of agents plays a match; the cross table and the
Elo ratings (core/play/reports.py), as tables or as JSON."""
from __future__ import annotations

import json
import os
import shlex
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.text import Text

from plyground.core import Game, PlygroundError, parse_game
from plyground.core.play.reports import TournamentReport
from plyground.core.play.tournament import (GameResult, local_pool, round_robin,
                                            run_tournament)
from plyground.core.rng import fresh_seed

from ..tables import Spec, cli_table, number_column, text_column
from .options import GameSpec, Jobs, NoRecord, Seed
from .recording import history_for, record_match_game, recorded
from .runs import collect, exit_if_interrupted, game_line, percent, print_forfeits
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


def tournament(
    ctx: typer.Context,
    game_spec: GameSpec,
    agents: Annotated[Optional[list[str]], typer.Option(
        "--agents", metavar="AGENT...", show_default=False,
        help="the agents, two or more: --agents random greedy mcts:time=0.2, or "
             "--agents repeated")] = None,
    games: Annotated[int, typer.Option(min=1, help="how many games each pair plays")] = 10,
    as_json: Annotated[bool, typer.Option(
        "--json", help="print one JSON object: each pair's games, the cross table, "
        "the ratings and the forfeits")] = False,
    seed: Seed = None,
    jobs: Jobs = None,
    no_record: NoRecord = False,
) -> None:
    """Play every pair of agents against each other, colours alternating; rate them.

    Each pair plays a match (see `match`) with a seed derived from the
    tournament's; games run in parallel worker processes. Prints the cross
    table and Elo ratings, best first (± is one standard error).
    Ctrl-C stops the tournament and reports the games finished. Each game
    goes to the game history as it ends (unless --no-record).
    """
    game = parse_game(game_spec)
    specs = [spec.strip() for spec in [*(agents or []), *ctx.args]]  # as typed, see match
    if len(specs) < 2:
        raise PlygroundError("a tournament needs two agents or more: --agents A B ...")
    if len(set(specs)) < len(specs):
        raise PlygroundError("every agent of a tournament must be named once")
    players = [game_agent(game, spec) for spec in specs]
    if seed is None:
        seed = fresh_seed()
    command = shlex.join(["plyground", "tournament", game.spec, "--agents", *specs,
                          "--games", str(games), "--seed", str(seed)])
    pairs = round_robin(len(specs))
    total = games * len(pairs)

    def record(result: tuple[int, GameResult]) -> None:
        pair, played = result
        a, b = pairs[pair]
        record_match_game(history, "tournament", game, (players[a], players[b]), played,
                          f"{command}: {specs[a]} v {specs[b]}")

    with history_for(not no_record) as history, \
            local_pool(game, jobs or os.cpu_count() or 1) as pool:
        results, interrupted = collect(recorded(
            run_tournament(game, players, games, seed, pool),
            record), total, as_json,
            lambda result: game_line([specs[a] for a in pairs[result[0]]], result[1]))
    results.sort(key=lambda result: (result[0], result[1].number))
    report = TournamentReport(game.spec, specs, games, seed, command, results).to_json()
    if as_json:
        typer.echo(json.dumps(report, indent=2))
    else:
        print_tournament(game, report)
    exit_if_interrupted(interrupted, len(results), total)
