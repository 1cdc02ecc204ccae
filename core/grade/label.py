"""Labelling positions for a `positions` check: each position's best moves and every
move's value, by Connect 4's exact solver or by a deep reference search.

Labels must come out the same whenever they are made again, so the search is bounded
by nodes or depth, never by the clock, and its budget is written into the file's
header; a position whose moves the search cannot tell apart is labelled with every move
that ties.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..catalogue import parse_agent
from ..errors import BadSetting, PlygroundError, shown
from ..game import Game, State, get_game
from ..paths import read_text_file
from ..records.positions import start_state
from .positions import Labelled, PositionsFault, best_of

SOLVER = "solver"  # the labeller's name for Connect 4's exact solver
# the searches whose every root move gets its value at a fixed budget
SEARCHES = ("alphabeta", "minimax")


@dataclass(frozen=True)
class Labeller:
    """What labels a position: `name` (`solver` or an agent spec), the `budget` and
    what the `values` mean, as the file's header records them, and `label`."""

    name: str
    budget: str
    values: str
    label: Callable[[State], Labelled]

    def header(self, command: str) -> dict[str, str]:
        return {"labeller": self.name, "budget": self.budget, "values": self.values,
                "command": command}


def has_solver(game: Game) -> bool:
    """Whether the game is one the exact solver solves: Connect 4 as the rules have it."""
    return game.entry.solver is not None and game == get_game(game.id)


def labeller_for(game: Game, agent: str | None) -> Labeller:
    """The solver for Connect 4 when no agent is named (or `solver`), else the named
    search, which must have a nodes= or depth= budget."""
    if agent is None or agent.strip() == SOLVER:
        if not has_solver(game):
            raise PlygroundError(f"{game.title} has no exact solver: name a reference "
                                 "search with --agent, e.g. alphabeta:depth=6")
        return solver_labeller()
    return search_labeller(agent)


def solver_labeller() -> Labeller:
    def label(state: State) -> Labelled:
        from ..connect4.solver import solving
        from ..fast.c4solver import INVALID

        with solving() as solver:
            scores = solver.analyze(state)
        values = tuple((column, score) for column, score in enumerate(scores)
                       if score != INVALID)
        return Labelled(state, best_of(values), values)

    return Labeller(SOLVER, "exact (no limit)", "the exact solver's score for the side to "
                    "move: 22 - k a win with its k-th stone, 0 a draw, negative a loss",
                    label)


def search_labeller(spec: str) -> Labeller:
    # the kind is looked at before the spec is read, so that a spec naming code from
    # outside (`bot.py:Bot`) is refused without importing it
    if spec.strip().partition(":")[0] not in SEARCHES:
        raise BadSetting(f"{shown(spec)} cannot label positions: the reference is a "
                         f"search that values every move ({' or '.join(SEARCHES)}), "
                         "with a nodes= or depth= budget")
    agent = parse_agent(spec)
    settings = agent.settings
    if settings.get("time") is not None or ("time" in agent.given):
        raise BadSetting(f"{shown(spec)}: labels must be reproducible, so the reference "
                         "search is bounded by nodes= or depth=, never by time=")
    if "nodes" not in agent.given and "depth" not in agent.given:
        raise BadSetting(f"{shown(spec)}: give the reference search a nodes= or depth= "
                         "budget (labels must be reproducible; the clock is not)")
    budget = ",".join(f"{name}={settings[name]}" for name in ("depth", "nodes")
                      if name in agent.given)

    def label(state: State) -> Labelled:
        done = agent.decide(state, agent.budget(), exact_root=True)
        found = {value.move: value.value for value in done.move_values}
        values = tuple((move, found[move]) for move in state.moves() if move in found)
        best = best_of(values) if values else (done.best_move,)
        return Labelled(state, best, values)

    return Labeller(agent.spec, budget, f"{agent.spec}'s value of each move for the side "
                    "to move, in the game's heuristic units", label)


def read_unlabelled(path: Path | str, game: Game) -> list[State]:
    """The positions of a file of one position a line (`#` lines are comments);
    the first that is not a running position of `game` raises a PositionsFault."""
    text = read_text_file(path, "positions")
    states: list[State] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        try:
            state = start_state(game, line)
        except PlygroundError as error:
            raise PositionsFault(path, number, f"not a {game.title} position: {error}"
                                 ) from None
        if state.outcome() is not None:
            raise PositionsFault(path, number, "the game is over in this position: "
                                 "there is no move to label")
        states.append(state)
    if not states:
        raise PositionsFault(path, len(text.splitlines()) or 1, "the file has no positions")
    return states


def label_all(states: list[State], labeller: Labeller,
              progress: Callable[[int, int], None] = lambda done, total: None
              ) -> list[Labelled]:
    """Every position labelled, in order; `progress(n, total)` before the n-th."""
    labelled = []
    for number, state in enumerate(states, start=1):
        progress(number, len(states))
        labelled.append(labeller.label(state))
    return labelled


def recheck(entry: Labelled, labeller: Labeller) -> Labelled | None:
    """None if labelling `entry`'s position again gives its labels, else the new ones."""
    fresh = labeller.label(entry.state)
    same = set(fresh.best) == set(entry.best) and (
        not entry.values or dict(fresh.values) == dict(entry.values))
    return None if same else fresh
