"""The `plyground` command: open the app, watch agents play, play a match of many games
or a rated tournament of many agents, analyse a position, count positions, train an
agent (cli_train.py), solve Connect 4 positions exactly (cli_solve.py). Every command on a game takes a game spec (`parse_game`):
`connect4`, `cephalopod:rows=3,cols=3`.

Every mistake a user can make ends the same way: one `error: ...` line on stderr and
exit code 2, never a traceback or a usage box. Core errors (PlygroundError) and typer's
own usage errors become that line in one place, `OneLineErrors.main`. The Textual app is
imported only when it is opened, so the other commands start fast. Typer prints the
lines of a command's help after its first paragraph as they are written: keep them
short enough for an 80-column terminal.
"""
from __future__ import annotations

import inspect
import json
import os
import secrets
import shlex
import sys
import time
from collections import Counter
from contextlib import closing, nullcontext
from dataclasses import asdict
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Callable, Iterable, Iterator, Optional, TypeVar

import typer
from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeElapsedColumn)
from rich.text import Text
from typer.core import TyperGroup

from plyground.core import (Agent, Game, PlygroundError, State, game_entries, parse_agent,
                            parse_game)
from plyground.core.agents.base import AgentFault, check_plays
from plyground.core.fast import warm_up
from plyground.core.game import GameEntry, Move, Outcome
from plyground.core.records.history import History, moves_of_line, played_record
from plyground.core.play.isolation import Isolation
from plyground.core.play.match import forfeit_outcome, seeded
from plyground.core.paths import data_home
from plyground.core.study.perft import distinct_levels, perft_levels
from plyground.core.search.events import SearchDone
from plyground.core.play.ratings import elo_ratings
from plyground.core.records.record import load_record
from plyground.core.play.tournament import (GameResult, cross_table, pair_seed, round_robin,
                                            run_match, run_tournament, scores, tally, turns)
from plyground.core.values import SCORE, describe_bounded, describe_value, proven

from .cli_games import games_app
from .cli_lesson import lesson_app
from .cli_options import TrustAgents
from .cli_review import review_command
from .cli_serve import serve_command
from .cli_solve import solve_command
from .cli_train import train_command
from .exit_codes import INTERRUPTED, USAGE_ERROR
from .tables import Spec, cli_table, number_column, text_column
from .verdict import KIND_WORDS, exact_result, value_kind, value_phrase, verdict
from .text_board import render_board

HUMAN = "human"
T = TypeVar("T")


class OneLineErrors(TyperGroup):
    """Runs the commands non-standalone, so that errors reach us as exceptions instead
    of typer's usage box, and reports each as one line. `--help` still works: typer
    returns its exit code (0) instead of raising."""

    def main(self, args: Any = None, prog_name: str | None = None, **extra: Any) -> Any:
        extra["standalone_mode"] = False
        hide_flag_types(self)
        try:
            code = super().main(args, prog_name, **extra)
        except (PlygroundError, typer.TyperException) as error:
            # typer vendors click: its UsageError / BadParameter are TyperExceptions.
            message = (error.format_message() if isinstance(error, typer.TyperException)
                       else str(error))
            print("error: " + " ".join(message.split()), file=sys.stderr)
            sys.exit(USAGE_ERROR)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: Any) -> Any:
        """Ctrl-C in a command that does not report it itself (analyze, perft, solve)
        ends it with a line that says so; typer alone would end it silently."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            raise typer.Exit(INTERRUPTED) from None


def hide_flag_types(command: Any) -> None:
    """A flag takes no value, so `--help` shows none for it (typer writes `<bool>`):
    every flag of `command` and its subcommands, `--help` too, gets an empty metavar."""
    help_option = command.get_help_option(command.context_class(command))
    for param in [*command.params, *([help_option] if help_option else [])]:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    for sub in getattr(command, "commands", {}).values():
        hide_flag_types(sub)


app = typer.Typer(cls=OneLineErrors, add_completion=False,
                  pretty_exceptions_show_locals=False)


def describe_game(entry: GameEntry) -> str:
    """The game's id, with its options (at their defaults) and the menus' variants."""
    parameters = inspect.signature(entry.factory).parameters.values()
    if not parameters:
        return entry.id
    details = ["options: " + ", ".join(f"{p.name}={p.default}" for p in parameters)]
    if entry.variants:
        details.append("variants: " + ", ".join(label for label, _ in entry.variants))
    return f"{entry.id} ({'; '.join(details)})"


GameSpec = Annotated[str, typer.Argument(
    metavar="GAME", show_default=False,
    help="the game, as id or id:option=value,...: "
         + "; ".join(describe_game(entry) for entry in game_entries()))]
Position = Annotated[Optional[str], typer.Option(
    help="start from this position, in the game's notation ("
         + "; ".join(f"{entry.title}: {entry.notation}" for entry in game_entries()
                     if entry.notation) + ")")]
# The first side's option is named after each game's first side (X, Red); so the second.
PlayFirst = Annotated[Optional[str], typer.Option(
    "--x", "--red", "--first", metavar="SIDE",
    help="the side that moves first: human or an agent (kind:setting=value, "
         "path/to/bot.py:Class, package.module:Class, engine:cmd=\"./bot\")")]
PlaySecond = Annotated[Optional[str], typer.Option(
    "--o", "--blue", "--second", metavar="SIDE",
    help="the side that moves second: human or an agent (as --x)")]
DemoFirst = Annotated[str, typer.Option(
    "--x", "--red", "--first", metavar="AGENT",
    help="the agent that moves first, e.g. greedy", show_default=False)]
DemoSecond = Annotated[str, typer.Option(
    "--o", "--blue", "--second", metavar="AGENT",
    help="the agent that moves second, e.g. mcts:iterations=3000", show_default=False)]


def launch(game_id: str | None = None, sides: tuple[str, str] | None = None,
           position: str | None = None, options: dict | None = None,
           seed: int | None = None) -> None:
    from plyground.tui.app import run  # Textual loads only when the app opens

    data_home()  # a bad data folder is a line here, not a broken app
    run(game_id=game_id, sides=sides, position=position, options=options, seed=seed)


def is_human(spec: str) -> bool:
    return spec.strip() == HUMAN


def starting_state(game: Game, position: str | None) -> State:
    """The state `--position` names (the usual start without it): read as the setup
    screen's position editor reads it, so both start the same game."""
    from plyground.core.records.positions import start_state

    return start_state(game, position)


@app.callback(invoke_without_command=True)
def setup(
    ctx: typer.Context,
    served: Annotated[bool, typer.Option("--served", hidden=True)] = False,
    served_agents: Annotated[Optional[list[str]], typer.Option(
        "--served-allow-agent", hidden=True)] = None,
    served_save_dir: Annotated[Optional[Path], typer.Option(
        "--served-save-dir", hidden=True)] = None,
) -> None:
    """A terminal workbench for game-playing AI.

    With no command, opens the app's setup screen.
    """
    if served:  # started by `plyground serve` (cli_serve.served_command)
        from plyground.tui import app as tui_app

        tui_app.SERVED = tui_app.ServedLimits(tuple(served_agents or ()),
                                              served_save_dir)
    if ctx.invoked_subcommand is None:
        launch()


# --- play ----------------------------------------------------------------------------


def side_spec(game: Game, spec: str) -> str:
    """`human`, or the agent spec in its canonical form (checked here, before the app
    starts, so that a typo or an agent that cannot play `game` is an error line rather
    than a broken screen)."""
    return HUMAN if is_human(spec) else game_agent(game, spec).spec


GameSeed = Annotated[Optional[int], typer.Option(
    help="the game's seed: an agent whose spec sets no seed gets one derived from it "
         "and its side, the same in play, demo and analyze", show_default=False)]


LoadRecord = Annotated[Optional[Path], typer.Option(
    "--load", metavar="FILE", help="open a saved game record (see the README's Game "
    "records): its moves and variations, the game going on from its last position",
    show_default=False)]


@app.command()
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
        from plyground.tui.app import run

        data_home()
        run(record=record, trust_agents=trust_agents)
        return
    if position is not None:
        position = game.format_position(game.parse_position(position))
    sides = None
    if first is not None or second is not None:
        sides = (side_spec(game, first or HUMAN), side_spec(game, second or HUMAN))
    launch(game.id, sides, position, game.options(), seed)


# --- the game history ----------------------------------------------------------------

NoRecord = Annotated[bool, typer.Option(
    "--no-history", "--no-record",
    help="keep the games out of the game history (see `plyground games`)")]


def history_for(record: bool) -> Any:
    """The game history the games go to, opened and tried for writing now: one that
    cannot be used or written is an error before any game is played, not after the
    first (whose game would then be lost). With --no-history, a context holding None,
    and a line saying so. The data folder is checked either way: logs go there."""
    data_home()
    if not record:
        print("the games are not kept in the game history (--no-history)", file=sys.stderr)
        return nullcontext()
    history = History()
    try:
        history.check_writable()
    except PlygroundError as error:
        history.close()
        raise PlygroundError(f"{error} (--no-history plays without it)") from None
    return history


def record_game(history: History | None, source: str, game: Game, start: State,
                moves: list[Move], outcome: Outcome | None, players: tuple[str, str],
                seed: int | None = None, reason: str = "",
                headers: dict[str, str] | None = None) -> None:
    """Store a game a command played in the history (not with --no-record); an
    unfinished game's `reason` says why it stopped."""
    if history is not None:
        history.add(played_record(game, start, moves, outcome, players, seed, reason,
                                  headers), source)


def record_match_game(history: History | None, source: str, game: Game,
                      players: tuple[Agent, Agent], result: GameResult, event: str
                      ) -> None:
    """Store a game of a match between `players` (in a tournament, one pair's):
    `event`, the command that replays the match, and the game's number go in its
    Event header (each agent's seed derives from them)."""
    if history is None:
        return
    first, start = result.first, game.start()
    winner = None if result.winner is None else result.winner ^ first
    record_game(history, source, game, start, moves_of_line(game, start, result.record),
                Outcome(winner, result.reason),
                (players[first].spec, players[1 - first].spec),
                headers={"Event": f"{event}, game {result.number}"})


def recorded(running: Iterator[T], record: Callable[[T], None]) -> Iterator[T]:
    """`running`'s results, each stored by `record` as it comes (so that Ctrl-C keeps
    the games finished)."""
    with closing(running):
        for result in running:
            record(result)
            yield result


# --- demo ----------------------------------------------------------------------------


def demo_agent(game: Game, side: int, spec: str, seed: int | None) -> Agent:
    """The agent `spec` names for `side`, seeded from the demo seed as the app seeds
    it (`seeded`), so that `play --seed` replays the demo."""
    if is_human(spec):
        raise PlygroundError(f"{game.side_labels[side]} is human, but a demo plays agents "
                             "only (use `plyground play` to play)")
    return seeded(game_agent(game, spec), seed, side)


def move_line(game: Game, state: State, agent: Agent, done: SearchDone) -> Text:
    """`5. X plays 4   Alpha-Beta (0.5s), value +35, depth 7` for the decision in `state`."""
    details = [agent.label]
    if done.value is not None:
        details.append(f"value {describe_value(done.value, state.ply, done.scale)}")
    if done.depth is not None:
        details.append(f"depth {done.depth}")
    return Text.assemble(
        (f"{state.ply + 1}. {game.side_labels[state.to_move]}", "bold"),
        f" plays {game.format_move(done.best_move)}   ",
        (", ".join(details), "dim"),
    )


@app.command()
def demo(
    game_spec: GameSpec,
    first: DemoFirst,
    second: DemoSecond,
    position: Position = None,
    seed: GameSeed = None,
    quiet: Annotated[bool, typer.Option(
        "--quiet", help="print only the result and the moves of the game")] = False,
    no_record: NoRecord = False,
) -> None:
    """Watch two agents play each other.

    The board is drawn after every move; the last two lines are the result and the
    game's moves. An agent from outside plyground decides in a process of its own;
    if it fails (raises, plays an illegal move, overruns its time, dies), its side
    forfeits: a line says why, before the result. The game goes to the game
    history (unless --no-record), as does one cut short by Ctrl-C.
    """
    game = parse_game(game_spec)
    agents = [demo_agent(game, side, spec, seed) for side, spec in enumerate((first, second))]
    players = (side_spec(game, first), side_spec(game, second))  # as the app writes them
    start = state = starting_state(game, position)
    recording = history_for(not no_record)
    warm_up(game.id)  # else loading the kernels eats into the first move's time budget
    console = Console(highlight=False)
    if not quiet:
        console.print(Text(f"{game.title}: " + ", ".join(
            f"{label} = {agent.label}" for label, agent in zip(game.side_labels, agents))))
        console.print(render_board(state))
    played: list = []
    with recording as history, Isolation() as isolation:
        agents = [isolation.isolate(agent, game.side_labels[side], game.spec)
                  for side, agent in enumerate(agents)]
        for agent in agents:
            agent.prepare()
        try:
            for before, done, state in turns(start, agents):
                played.append(done.best_move)
                if not quiet:
                    console.print()
                    console.print(move_line(game, before, agents[before.to_move], done))
                    console.print(render_board(state))
            outcome = state.outcome()
        except AgentFault as fault:
            outcome = forfeit_outcome(state, fault)
            if not quiet:
                console.print()
            console.print(Text.assemble((f"{state.ply + 1}. ", "bold"), outcome.reason),
                          soft_wrap=True)  # one line, for whoever reads the output
        except KeyboardInterrupt:
            if played:
                record_game(history, "demo", game, start, played, None, players, seed,
                            "abandoned: the demo was interrupted")
            print("interrupted; the game so far: "
                  f"{game.format_record(start, played) or '(no moves)'}", file=sys.stderr)
            raise typer.Exit(INTERRUPTED) from None
        record_game(history, "demo", game, start, played, outcome, players, seed)
    typer.echo(game.describe_outcome(outcome))
    typer.echo(game.format_record(start, played))


# --- match and tournament -------------------------------------------------------------

MatchFirst = Annotated[str, typer.Option(
    "--first", metavar="AGENT", help="one agent: it moves first in odd-numbered games",
    show_default=False)]
MatchSecond = Annotated[str, typer.Option(
    "--second", metavar="AGENT", help="the other agent: it moves first in even-numbered "
    "games", show_default=False)]
Seed = Annotated[Optional[int], typer.Option(
    help="the seed of the games (default: a random one, shown in the line that "
         "reproduces the run)", show_default=False)]
Jobs = Annotated[Optional[int], typer.Option(
    min=1, help="worker processes (default: one per core)", show_default=False)]


def game_agent(game: Game, spec: str) -> Agent:
    """The agent `spec` names, checked to play `game` (`check_plays`) before a game
    starts, a worker runs or the app opens."""
    agent = parse_agent(spec)
    check_plays(agent, game)
    return agent


def collect(running: Iterator[T], total: int, quiet: bool,
            describe: Callable[[T], str]) -> tuple[list[T], bool]:
    """The results of `total` games as `running` yields them, and whether Ctrl-C cut
    them short, which stops the games under way. Progress goes to stderr: a bar when
    it is a terminal (unless `quiet`), else a line per finished game (`describe`
    says the game), so a log or a pipe shows the match moving."""
    stderr = Console(stderr=True)
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=stderr, transient=True,
                        disable=quiet or not stderr.is_terminal)
    results: list[T] = []
    started = time.monotonic()
    try:
        with progress, closing(running):
            task = progress.add_task("games", total=total)
            for result in running:
                results.append(result)
                progress.advance(task)
                if not stderr.is_terminal:
                    print(f"[{len(results)}/{total}, {time.monotonic() - started:.0f} s] "
                          f"{describe(result)}", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        return results, True
    return results, False


def game_line(specs: tuple[str, str] | list[str], result: GameResult) -> str:
    """One finished game of two agents, for the progress lines: `game 3: alphabeta
    (first) beat seed, Blue connects four, 61 plies`."""
    first = specs[result.first]
    other = specs[1 - result.first]
    if result.winner is None:
        said = f"{first} (first) drew with {other}"
    elif result.winner == result.first:
        said = f"{first} (first) beat {other}"
    else:
        said = f"{other} beat {first} (first)"
    plies = f"{result.plies} {'ply' if result.plies == 1 else 'plies'}"
    return f"game {result.number}: {said}, {result.reason}, {plies}"


def exit_if_interrupted(interrupted: bool, played: int, total: int) -> None:
    if interrupted:
        print(f"interrupted after {played} of {total} games", file=sys.stderr)
        raise typer.Exit(INTERRUPTED)


def forfeits(specs: list[str], lost: Iterable[tuple[int, str]]) -> list[dict]:
    """The games agents forfeited, given as (the loser's index, its fault): for each
    agent, in the order given, each fault with how many games it cost, the commonest
    first."""
    counts = sorted(Counter(lost).items(), key=lambda item: (item[0][0], -item[1]))
    return [{"agent": specs[loser], "fault": fault, "games": games}
            for (loser, fault), games in counts]


def print_forfeits(report: dict) -> None:
    if report["forfeits"]:
        typer.echo("forfeits (games lost by failing to play):")
    for entry in report["forfeits"]:
        games = entry["games"]
        typer.echo(f"  {entry['agent']}, {games} game{'' if games == 1 else 's'}: "
                   f"{entry['fault']}")


def match_report(game: Game, specs: tuple[str, str], seed: int, command: str,
                 results: list[GameResult]) -> dict:
    """Everything `match` says, as plain data: `--json` prints it, the text view
    renders it. A game's `first` and `winner` are 0 (the --first agent) or 1; its
    `reason` says how it ended; `fault` is the forfeiting agent's (the loser's)."""
    return {
        "game": game.spec,
        "agents": list(specs),
        "seed": seed,
        "command": command,
        "results": [asdict(result) for result in results],
        "totals": [{"agent": spec, **asdict(total), "points": total.points,
                    "score": total.score} for spec, total in zip(specs, tally(results))],
        "forfeits": forfeits(list(specs), [(1 - result.winner, result.fault)
                                           for result in results if result.fault]),
    }


def percent(score: float | None) -> str:
    return "-" if score is None else f"{score:.1f}%"


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


@app.command()
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
        seed = secrets.randbelow(1_000_000)
    command = shlex.join(["plyground", "match", game.spec, "--first", specs[0], "--second",
                          specs[1], "--games", str(games), "--seed", str(seed)])
    with history_for(not no_record) as history:
        results, interrupted = collect(recorded(
            run_match(game, players, games, seed, jobs or os.cpu_count() or 1),
            lambda result: record_match_game(history, "match", game, players, result,
                                             command)), games, as_json,
            partial(game_line, specs))
    results.sort(key=lambda result: result.number)
    report = match_report(game, specs, seed, command, results)
    if as_json:
        typer.echo(json.dumps(report, indent=2))
    else:
        print_match(game, report)
    exit_if_interrupted(interrupted, len(results), games)


def tournament_report(game: Game, specs: list[str], games: int, seed: int, command: str,
                      results: list[tuple[int, GameResult]]) -> dict:
    """Everything `tournament` says, as plain data: `--json` prints it, the text view
    renders it. Agents are numbered from 0 in the order given. Each pair's games are
    a match: their `first` and `winner` are 0 (the pair's first agent) or 1.
    `cross_table[a][b]` is agent a's tally against b; `ratings` go best first;
    `forfeits`, each agent's faults and the games each cost it."""
    players = len(specs)
    pairs = round_robin(players)
    table = cross_table(players, results)
    standings = []
    for agent, (rating, row) in enumerate(zip(elo_ratings(players, scores(players, results)),
                                              table)):
        tallies = [cell for cell in row if cell is not None]
        played, points = sum(t.games for t in tallies), sum(t.points for t in tallies)
        standings.append({"agent": agent, "spec": specs[agent], "elo": rating.elo,
                          "error": rating.error, "games": played, "points": points,
                          "score": 100 * points / played if played else None})
    standings.sort(key=lambda standing: -standing["elo"])
    return {
        "game": game.spec,
        "agents": specs,
        "games_per_pair": games,
        "seed": seed,
        "command": command,
        "pairs": [{"agents": list(pair), "seed": pair_seed(seed, index),
                   "results": [asdict(result) for played, result in results
                               if played == index]}
                  for index, pair in enumerate(pairs)],
        "cross_table": [[None if cell is None else asdict(cell) for cell in row]
                        for row in table],
        "ratings": [{"rank": rank, **standing}
                    for rank, standing in enumerate(standings, 1)],
        "forfeits": forfeits(specs, [(pairs[pair][1 - result.winner], result.fault)
                                     for pair, result in results if result.fault]),
    }


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


@app.command(context_settings={"allow_extra_args": True})
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
        seed = secrets.randbelow(1_000_000)
    command = shlex.join(["plyground", "tournament", game.spec, "--agents", *specs,
                          "--games", str(games), "--seed", str(seed)])
    pairs = round_robin(len(specs))
    total = games * len(pairs)

    def record(result: tuple[int, GameResult]) -> None:
        pair, played = result
        a, b = pairs[pair]
        record_match_game(history, "tournament", game, (players[a], players[b]), played,
                          f"{command}: {specs[a]} v {specs[b]}")

    with history_for(not no_record) as history:
        results, interrupted = collect(recorded(
            run_tournament(game, players, games, seed, jobs or os.cpu_count() or 1),
            record), total, as_json,
            lambda result: game_line([specs[a] for a in pairs[result[0]]], result[1]))
    results.sort(key=lambda result: (result[0], result[1].number))
    report = tournament_report(game, specs, games, seed, command, results)
    if as_json:
        typer.echo(json.dumps(report, indent=2))
    else:
        print_tournament(game, report)
    exit_if_interrupted(interrupted, len(results), total)


# --- analyze -------------------------------------------------------------------------


def analysis_report(game: Game, state: State, agent: Agent, done: SearchDone,
                    exact: dict | None = None) -> dict:
    """Everything `analyze` says, as plain data: `--json` prints it, the text view
    renders it. Values are for the side to move; moves are in the game's notation and
    in the order the rules list them. `value_kind` says what the decision's value is
    (exact, heuristic or mean result); `exact`, what is known exactly of the position
    (tui/verdict.py), and `verdict` says it in a sentence."""

    def valued(value: float | None, bound: str = "exact") -> dict:
        text = None if value is None else \
            describe_bounded(value, bound, state.ply, done.scale)
        return {"value": value, "description": text}

    order = {move: index for index, move in enumerate(state.moves())}
    moves = []
    for move_value in sorted(done.move_values, key=lambda mv: order[mv.move]):
        entry = {"move": game.format_move(move_value.move),
                 **valued(move_value.value, move_value.bound), "bound": move_value.bound}
        if move_value.visits is not None:
            entry["visits"] = move_value.visits
        moves.append(entry)
    return {
        "game": game.spec,
        "position": game.format_position(state),
        "to_move": game.side_labels[state.to_move],
        "agent": agent.spec,
        "best_move": game.format_move(done.best_move),
        **valued(done.value),
        "proof": (proven(game, state, done.value, done.depth)
                  if done.value is not None and done.scale == SCORE else ""),
        "pv": [game.format_move(move) for move in done.pv],
        "depth": done.depth,
        "work": done.work,
        "work_unit": done.work_unit,
        "elapsed": done.elapsed,
        "note": done.note,
        "moves": moves,
        "value_kind": value_kind(game, state, done),
        "exact": exact,
        "verdict": verdict(game, state, exact) if exact else None,
    }


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
            cells = [entry["move"], entry["description"] or "-"]
            if show_visits:
                cells.append(str(entry.get("visits", "")))
            table.add_row(*cells)
        console.print(table)


@app.command()
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
    done = agent.decide(state, exact_root=every_move_exact)
    report = analysis_report(game, state, agent, done, exact_result(game, state, done))
    if as_json:
        typer.echo(json.dumps(report, indent=2))
    else:
        print_analysis(game, state, agent, report)


# --- perft ---------------------------------------------------------------------------


@app.command("perft")
def count_positions(
    game_spec: GameSpec,
    depth: Annotated[int, typer.Option(min=0, help="count up to this many plies",
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


app.command("train")(train_command)
app.command("solve")(solve_command)
app.command("review")(review_command)
app.command("serve")(serve_command)
app.add_typer(games_app, name="games")
app.add_typer(lesson_app, name="lesson")


def main() -> None:
    app()
