"""An SPRT between two agents, played as engine testers play one: in game pairs, each
opening twice with colours swapped, the pairs counted in order.

Agent A (player 0) moves first in game 2r+1 and second in game 2r+2 of round r, both
from the suite's opening r (the start without a suite). Games run in parallel on a
Pool and end in any order, but a pair is counted only once every earlier pair has
been: the test reads the pairs in round order and stops at the first round where its
log-likelihood ratio leaves its bounds. So the same seed stops at the same pair on
one machine or on a cluster, and a resumed run (its finished games given as `done`)
stops where an uninterrupted one would. Games that finish past that round are played
but not counted. Nothing here prints; callers show the events.
"""
from __future__ import annotations

import shlex
from contextlib import closing
from dataclasses import dataclass
from typing import Callable, Iterator, Mapping

from ..game import Game
from .openings import Suite
from .sprt import SPRT, SprtStatus, pair_class
from .tournament import GameJob, GameResult, Players, Pool, match_jobs, run_games

DEFAULT_MAX_PAIRS = 10_000


def points_of_a(result: GameResult) -> float:
    """Agent A's (player 0's) points in a game: 1, 1/2 or 0."""
    return 0.5 if result.winner is None else float(result.winner == 0)


@dataclass(frozen=True)
class PairDone:
    """Round `round`'s two games (A first, then B first) and the pentanomial class
    of A's points in them (0: lost both ... 4: won both)."""

    round: int
    games: tuple[GameResult, GameResult]

    @property
    def points(self) -> float:
        return sum(points_of_a(result) for result in self.games)

    @property
    def kind(self) -> int:
        return pair_class(*(points_of_a(result) for result in self.games))


@dataclass(frozen=True)
class GameEnded:
    """A game finished (counted or not yet: its pair may wait for earlier ones)."""

    job: GameJob
    result: GameResult


@dataclass(frozen=True)
class PairCounted:
    """A pair entered the test; `status` is the test after it."""

    pair: PairDone
    status: SprtStatus


def sprt_jobs(players: Players, seed: int, max_pairs: int,
              openings: Callable[[int], str] | None = None) -> list[GameJob]:
    """Every game the test may play, in round order."""
    return match_jobs(players, 2 * max_pairs, seed, 0, openings)


def run_sprt(game: Game, players: Players, test: SPRT, seed: int, pool: Pool,
             max_pairs: int = DEFAULT_MAX_PAIRS,
             openings: Callable[[int], str] | None = None,
             done: Mapping[str, GameResult] | None = None
             ) -> Iterator[GameEnded | PairCounted]:
    """Play the test: a GameEnded as each game ends, a PairCounted as each pair is
    counted, until the test accepts H0 or H1 or `max_pairs` pairs are counted (the
    last status then has no result). `done` holds games already played (by key: a
    resumed run); they are counted first and not played again. At most two games a
    worker are in play or waiting, so a decision leaves few games unfinished."""
    done = dict(done or {})
    by_round: dict[int, dict[int, GameResult]] = {}
    counts = [0] * 5
    counted = 0

    def add(job: GameJob, result: GameResult) -> None:
        by_round.setdefault(job.round, {})[job.number] = result

    def countable() -> Iterator[PairCounted]:
        nonlocal counted
        while counted < max_pairs and len(by_round.get(counted, {})) == 2:
            games = by_round[counted]
            pair = PairDone(counted, (games[2 * counted + 1], games[2 * counted + 2]))
            counts[pair.kind] += 1
            counted += 1
            yield PairCounted(pair, test.status(counts))

    def decided(event: PairCounted) -> bool:
        return event.status.result is not None or counted == max_pairs

    jobs = sprt_jobs(players, seed, max_pairs, openings)
    for job in jobs:
        if job.key in done:
            add(job, done[job.key])
    for event in countable():
        yield event
        if decided(event):
            return
    remaining = (job for job in jobs if job.key not in done)
    with closing(run_games(game, remaining, pool, ahead=2 * pool.size)) as running:
        for job, result in running:
            yield GameEnded(job, result)
            add(job, result)
            for event in countable():
                yield event
                if decided(event):
                    return


@dataclass(frozen=True)
class SprtPlan:
    """A test to play: `players` (A, B) as `specs` name them, the test, its seed and
    pair limit, and the openings (`suite`, None for every pair from the start;
    `openings`, how a run keeps them: a shipped name, a full path or "none")."""

    game: Game
    specs: tuple[str, str]
    players: Players
    test: SPRT
    seed: int
    max_pairs: int
    suite: Suite | None
    openings: str | None = None  # as the run keeps it: a shipped name or a full path

    def opening(self, round: int) -> str:
        return self.suite.opening(round) if self.suite else ""

    @property
    def params(self) -> dict:
        """What the history keeps of the run, to play its games again."""
        test = self.test
        return {"players": list(self.specs), "elo0": test.elo0, "elo1": test.elo1,
                "alpha": test.alpha, "beta": test.beta, "model": test.model,
                "max_pairs": self.max_pairs, "seed": self.seed,
                "openings": self.openings}

    @property
    def command(self) -> str:
        """The command line that plays the same test (the history's Event header)."""
        test = self.test
        words = ["plyground", "sprt", self.game.spec, *self.specs,
                 "--elo0", f"{test.elo0:g}", "--elo1", f"{test.elo1:g}",
                 "--alpha", f"{test.alpha:g}", "--beta", f"{test.beta:g}",
                 "--model", test.model, "--max-pairs", str(self.max_pairs),
                 "--seed", str(self.seed)]
        words += ["--openings", self.openings or "none"]
        return shlex.join(words)
