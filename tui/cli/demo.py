"""`plyground demo`: two agents play a game in the terminal, the board drawn after
every move."""
from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from plyground.core.agents.base import Agent
from plyground.core import Game, PlygroundError, State, parse_game
from plyground.core.errors import AgentFault, visible
from plyground.core.fast import kernels_cached, warm_up
from plyground.core.play.isolation import Isolation
from plyground.core.play.match import forfeit_outcome, seeded
from plyground.core.play.tournament import turns
from plyground.core.search.events import SearchDone

from ..exit_codes import INTERRUPTED
from ..text_board import render_board
from ..verdict import decision_words
from .options import GameSeed, GameSpec, NoRecord, Position
from .recording import history_for, record_game
from .sides import game_agent, is_human, side_spec, starting_state

DemoFirst = Annotated[str, typer.Option(
    "--x", "--red", "--first", metavar="AGENT",
    help="the agent that moves first, e.g. greedy", show_default=False)]
DemoSecond = Annotated[str, typer.Option(
    "--o", "--blue", "--second", metavar="AGENT",
    help="the agent that moves second, e.g. mcts:iterations=3000", show_default=False)]


def demo_agent(game: Game, side: int, spec: str, seed: int | None) -> Agent:
    """The agent `spec` names for `side`, seeded from the demo seed as the app seeds
    it (`seeded`), so that `play --seed` replays the demo."""
    if is_human(spec):
        raise PlygroundError(f"{game.side_labels[side]} is human, but a demo plays agents "
                             "only (use `plyground play` to play)")
    return seeded(game_agent(game, spec), seed, side)


def move_line(game: Game, state: State, agent: Agent, done: SearchDone) -> Text:
    """`5. X plays 4   Alpha-Beta (0.5s): heuristic score +35 · depth 7 · 8,120 nodes`
    for the decision in `state`, worded as the app's inspector words it."""
    words = decision_words(game, state, done)
    return Text.assemble(
        (f"{state.ply + 1}. {game.side_labels[state.to_move]}", "bold"),
        f" plays {game.format_move(done.best_move)}   ",
        (agent.label + (f": {words}" if words else ""), "dim"),
    )


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
    if not kernels_cached(game.id):  # (`make play` compiles them at install)
        print("preparing the game's engine (first start only)…", file=sys.stderr,
              flush=True)
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
            console.print(Text.assemble((f"{state.ply + 1}. ", "bold"),
                                        visible(outcome.reason)),
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
