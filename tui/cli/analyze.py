"""`plyground analyze`: an agent's analysis of a position (core/study/analysis.py), led
by the exact result when one is known or cheap (tui/verdict.py)."""
from __future__ import annotations

import json
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.text import Text

from plyground.core.agents.base import Agent, Shows
from plyground.core import Game, State, game_entries, parse_game
from plyground.core.fast import warm_up
from plyground.core.play.match import seeded
from plyground.core.search.events import PuctSnapshot
from plyground.core.study.analysis import AnalysisReport

from ..tables import cli_table, number_column
from ..text_board import render_board
from ..verdict import (KIND_WORDS, NETWORK_MEAN, exact_result, value_kind, value_phrase,
                       verdict)
from .options import SEED_RANGE, GameSpec
from .sides import game_agent, starting_state


def print_analysis(game: Game, state: State, agent: Agent, report: dict) -> None:
    console = Console(highlight=False)
    console.print(render_board(state))
    console.print(Text(f"{game.title}, position {report['position'] or '(start)'}: "
                       f"{report['to_move']} to move"))
    if report["verdict"]:
        console.print(Text(report["verdict"], style="bold"))
    search = [f"{report['work']:,} {report['work_unit']} in {report['elapsed']:.2f} s"]
    if report["depth"] is not None:
        search.insert(0, f"depth {report['depth']}")
    if report["note"]:
        search.append(report["note"])
    console.print(Text(f"{agent.label}: " + ", ".join(search)))
    value = f", {value_phrase(report)}" if report["value"] is not None else ""
    console.print(Text(f"best move {report['best_move']}{value}"))
    console.print(Text("principal variation: " + " ".join(report["pv"])))
    if report["moves"]:
        depth = f" at depth {report['depth']}" if report["depth"] is not None else ""
        kind = KIND_WORDS.get(report["value_kind"], "value")
        console.print(Text(f"each move's {kind}{depth}:"))
        table = cli_table("move", kind)
        show_visits = any("visits" in entry for entry in report["moves"])
        if show_visits:
            number_column(table, "visits")
        for entry in report["moves"]:
            description = entry["description"] or "-"
            if report["value_kind"] == NETWORK_MEAN:  # the header names it
                description = description.removesuffix(" mean result")
            cells = [entry["move"], description]
            if show_visits:
                cells.append(str(entry.get("visits", "")))
            table.add_row(*cells)
        console.print(table)


class NetworkSeen:
    """An observer that notes whether a search reported a network's values (a
    PuctSnapshot): what says that its mean value comes from a network, not playouts."""

    trace = False

    def __init__(self) -> None:
        self.seen = False

    def __call__(self, event) -> None:
        self.seen = self.seen or isinstance(event, PuctSnapshot)


def analyze(
    game_spec: GameSpec,
    position: Annotated[Optional[str], typer.Argument(
        help="the position, in the game's notation (default: the start)",
        show_default=False)] = None,
    agent_spec: Annotated[Optional[str], typer.Option(
        "--agent", metavar="AGENT", show_default=False,
        help="the agent that analyses (default: the game's own: "
             + "; ".join(f"{entry.title} {entry.analysis_agent}"
                         for entry in game_entries()) + ")")] = None,
    seed: Annotated[Optional[int], typer.Option(
        **SEED_RANGE,
        help="the game's seed, as in demo and play: the agent gets the seed derived "
             "for the side to move", show_default=False)] = None,
    every_move_exact: Annotated[bool, typer.Option(
        "--every-move-exact", help="search every root move with a full window, so "
        "each gets an exact value, not a bound (a different search from the agent's "
        "own: slower, and its move can differ)")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="print one JSON object instead of text")] = False,
) -> None:
    """Analyse a position: best move, value, principal variation, each move's value.

    The agent decides as it would in a game (the same move, value and depth
    the app's inspector shows); a move alpha-beta proved worse without its
    exact value shows a bound (≤). The line under the board gives the exact
    result when it is known or cheap (the solver, a search's proof, Connect
    4's opening book or a short solve); a value that is not exact is named a
    heuristic score or a mean result: neither is a win probability nor a proof.
    """
    game = parse_game(game_spec)
    state = starting_state(game, position)
    if agent_spec is None:
        agent_spec = game.entry.analysis_agent
    agent = seeded(game_agent(game, agent_spec), seed, state.to_move)
    warm_up(game.id)  # else loading the kernels eats into the time budget
    agent.prepare()
    # (only a search shown by its visits is watched: a tree search's live events cost
    # its clock time)
    network = NetworkSeen() if agent.shows == Shows.VISITS else None
    done = agent.decide(state, observer=network, exact_root=every_move_exact)
    exact = exact_result(game, state, done)
    kind = value_kind(game, state, done, network is not None and network.seen)
    report = AnalysisReport(game, state, agent.spec, done, kind,
                            exact, verdict(game, state, exact) if exact else None
                            ).to_json()
    if as_json:
        typer.echo(json.dumps(report, indent=2))
    else:
        print_analysis(game, state, agent, report)
