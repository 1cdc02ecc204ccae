"""The game history the commands that play (demo, match, tournament) store their games
in, unless --no-history."""
from __future__ import annotations

import sys
from contextlib import closing, nullcontext
from typing import Any, Callable, Iterator, TypeVar

from plyground.core.agents.base import Agent
from plyground.core import Game, PlygroundError, State
from plyground.core.game import Move, Outcome
from plyground.core.paths import data_home
from plyground.core.play.tournament import GameResult
from plyground.core.errors import shown, visible
from plyground.core.records.history import History, canonical_spec, played_record
from plyground.core.records.runs import add_run_game, load_run

T = TypeVar("T")


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
                headers: dict[str, str] | None = None) -> int | None:
    """Store a game a command played in the history (not with --no-record); an
    unfinished game's `reason` says why it stopped. Its id in the history (None
    without one)."""
    if history is None:
        return None
    return history.add(played_record(game, start, moves, outcome, players, seed, reason,
                                     headers), source)


def record_match_game(history: History | None, source: str, game: Game,
                      players: tuple[Agent, Agent], result: GameResult, event: str,
                      run: tuple[int, str] | None = None) -> int | None:
    """Store a game of a match between `players` (in a tournament, one pair's):
    `event`, the command that replays the match, and the game's number go in its
    Event header (each agent's seed derives from them). A game of a `run` (its id
    and the game's key) is stored with the run (runs.add_run_game), and its Run
    header names both. Its id in the history (None if the run held the key already)."""
    if history is None:
        return None
    first, start = result.first, game.start()
    headers = {"Event": f"{event}, game {result.number}"}
    if run is not None:
        headers["Run"] = f"{run[0]} {run[1]}"
    record = played_record(game, start, game.parse_line(start, result.record),
                           result.outcome, (players[first].spec, players[1 - first].spec),
                           headers=headers)
    if run is None:
        return history.add(record, source)
    return add_run_game(history, *run, result, record, source)


def run_params(resume: int | None, kind: str, game_spec: str | None, given: dict,
               no_record: bool, labels: dict[str, str] | None = None
               ) -> tuple[str | None, dict]:
    """The game spec and parameters of the run to play: those given (options as
    typed, None where left out), or with --resume those of the run stored, which
    any option given must equal. An error names a parameter as its option
    (`max_pairs` as --max-pairs), or as `labels` says (a positional one)."""
    if resume is None:
        return game_spec, given
    if no_record:
        raise PlygroundError("--resume needs the game history: leave out --no-history")
    with History() as history:
        run = load_run(history, resume, kind)
    if game_spec is not None and canonical_spec(game_spec) != run.game:
        raise PlygroundError(f"run {resume} plays {visible(run.game)}, not "
                             f"{visible(game_spec.strip())}: leave the game out to resume "
                             "it")
    for name, value in given.items():
        if value is not None and value != run.params.get(name):
            label = (labels or {}).get(name, "--" + name.replace("_", "-"))
            raise PlygroundError(f"{label} {option_text(value)} differs from run "
                                 f"{resume}'s ({option_text(run.params.get(name))}): "
                                 "leave it out to resume the run")
    return run.game, run.params


def option_text(value: object) -> str:
    if isinstance(value, list):
        return shown(" ".join(value))
    return shown(f"{value:g}" if isinstance(value, float) else str(value))


def recorded(running: Iterator[T], record: Callable[[T], None]) -> Iterator[T]:
    """`running`'s results, each stored by `record` as it comes (so that Ctrl-C keeps
    the games finished)."""
    with closing(running):
        for result in running:
            record(result)
            yield result
