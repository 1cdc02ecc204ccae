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
from plyground.core.records.history import History, played_record

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
    record_game(history, source, game, start, game.parse_line(start, result.record),
                result.outcome,
                (players[first].spec, players[1 - first].spec),
                headers={"Event": f"{event}, game {result.number}"})


def recorded(running: Iterator[T], record: Callable[[T], None]) -> Iterator[T]:
    """`running`'s results, each stored by `record` as it comes (so that Ctrl-C keeps
    the games finished)."""
    with closing(running):
        for result in running:
            record(result)
            yield result
