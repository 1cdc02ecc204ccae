"""Who plays whom in a class ladder: a round robin, or a Swiss for a large class.

Both give game jobs a runner can play in order (or a round at a time in parallel: no
player appears twice in one round), each deterministic for its arguments.

Round robin: the circle method (one player fixed, the others rotating), so that each
round of a cycle pairs every player at most once and a cycle of n-1 rounds (n when n
is odd: each player sits out one) meets every pair once; cycles repeat
`games_per_pair` times with colours swapped each cycle, and within a cycle the fixed
player alternates colour by round while the others take the colour of their row, which
keeps every player's first moves within one of half its games.

Swiss: before each round the players stand by points (a bye counts one), then by
`ratings` (a gauntlet's, when given), then by a draw from the seed. Going down the
standings, each player meets the nearest one below it not met before; when that leaves
no way to pair the rest without a repeat, the search backs up (depth first), and only
when no pairing at all avoids a repeat are neighbours paired regardless. With an odd
number, the lowest standing player with the fewest byes sits out (the next such
candidate when the rest could not then be paired without a repeat). Of a pair, the one
with fewer first moves so far moves first (then the one that moved second last, then
the higher standing one).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from plyground.core.errors import PlygroundError

SEARCH_LIMIT = 200_000  # steps of the no-repeat search before pairing neighbours as they stand


@dataclass(frozen=True)
class GameJob:
    """One game to play: `first` moves first; `game` numbers it in the schedule (from 0);
    `round` is the round it belongs to (from 0)."""
    first: str
    second: str
    game: int
    round: int


def round_robin(names: Sequence[str], games_per_pair: int) -> list[GameJob]:
    """Every pair `games_per_pair` times, colours alternated, one cycle after another."""
    players = _checked(names, minimum=2)
    if games_per_pair < 1:
        raise PlygroundError(f"A round robin needs at least one game a pair, not "
                             f"{games_per_pair}.")
    seats: list[str | None] = list(players) + ([None] if len(players) % 2 else [])
    half = len(seats) // 2
    jobs: list[GameJob] = []
    round_number = 0
    for cycle in range(games_per_pair):
        circle = list(seats)
        for turn in range(len(seats) - 1):
            for k in range(half):
                top, bottom = circle[k], circle[-1 - k]
                if top is None or bottom is None:
                    continue  # a bye
                if k == 0 and turn % 2:
                    top, bottom = bottom, top  # the fixed player alternates
                if cycle % 2:
                    top, bottom = bottom, top
                jobs.append(GameJob(top, bottom, len(jobs), round_number))
            circle = [circle[0], circle[-1]] + circle[1:-1]
            round_number += 1
    return jobs


def swiss(names: Sequence[str], rounds: int, seed: int,
          ratings: Mapping[str, float] | None = None,
          play: Callable[[GameJob], float] | None = None) -> list[GameJob]:
    """`rounds` Swiss rounds. `play` gives the first player's points of a job (1, 0.5, 0)
    once it is played, so that later rounds pair by score; without it every round is
    paired by `ratings` and the seed alone (a schedule fixed in advance)."""
    players = _checked(names, minimum=2)
    if rounds < 0:
        raise PlygroundError(f"A Swiss needs a number of rounds, not {rounds}.")
    history: list[tuple[GameJob, float | None]] = []
    byes: list[str] = []
    for number in range(rounds):
        jobs, bye = swiss_round(players, number, seed, ratings, history, byes)
        history += [(job, play(job) if play else None) for job in jobs]
        if bye is not None:
            byes.append(bye)
    return [job for job, _ in history]


def swiss_round(names: Sequence[str], number: int, seed: int,
                ratings: Mapping[str, float] | None = None,
                history: Sequence[tuple[GameJob, float | None]] = (),
                byes: Sequence[str] = ()) -> tuple[list[GameJob], str | None]:
    """Round `number`'s jobs and the player that sits it out (None when even), after
    the `history` of (job, first's points or None when not known) and the `byes`."""
    players = _checked(names, minimum=2)
    points = {name: float(byes.count(name)) for name in players}
    firsts = {name: 0 for name in players}
    last_second: set[str] = set()
    met: set[frozenset[str]] = set()
    for job, score in history:
        met.add(frozenset((job.first, job.second)))
        firsts[job.first] = firsts.get(job.first, 0) + 1
        last_second.discard(job.first)
        last_second.add(job.second)
        if score is not None:
            points[job.first] = points.get(job.first, 0.0) + score
            points[job.second] = points.get(job.second, 0.0) + 1 - score
    rating = ratings or {}
    standing = sorted(players, key=lambda name: (
        -points[name], -rating.get(name, 0.0), random.Random(f"{seed}:{name}").random()))
    bye, pairs = _bye_and_pairs(standing, byes, met)
    if bye is not None:
        standing.remove(bye)
    place = {name: k for k, name in enumerate(standing)}
    start = len(history)
    jobs = []
    for upper, lower in pairs:
        first, second = upper, lower
        if (firsts[lower], lower not in last_second, place[lower]) < \
                (firsts[upper], upper not in last_second, place[upper]):
            first, second = lower, upper
        jobs.append(GameJob(first, second, start + len(jobs), number))
    return jobs, bye


def _bye_and_pairs(standing: list[str], byes: Sequence[str], met: set[frozenset[str]]
                   ) -> tuple[str | None, list[tuple[str, str]]]:
    """Who sits out (None when even) and the pairs of the rest: of the players with
    the fewest byes, the lowest standing one that lets the rest be paired without a
    repeat; when none does, the lowest of them, neighbours paired (a second bye is
    worse than a repeat)."""
    budget = [SEARCH_LIMIT]
    if len(standing) % 2 == 0:
        pairs = _pair(standing, met, budget)
        return None, pairs or list(zip(standing[::2], standing[1::2]))
    fewest = min(byes.count(name) for name in standing)
    candidates = [name for name in reversed(standing) if byes.count(name) == fewest]
    for bye in candidates:
        rest = [name for name in standing if name != bye]
        pairs = _pair(rest, met, budget)
        if pairs is not None:
            return bye, pairs
    rest = [name for name in standing if name != candidates[0]]
    return candidates[0], list(zip(rest[::2], rest[1::2]))


def _pair(standing: list[str], met: set[frozenset[str]],
          budget: list[int]) -> list[tuple[str, str]] | None:
    """Pairs without a repeat, each player with the nearest one below it that still
    lets the rest be paired; None when there are none (or the search ran out)."""
    if not standing:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    top, rest = standing[0], standing[1:]
    for k, other in enumerate(rest):
        if frozenset((top, other)) in met:
            continue
        tail = _pair(rest[:k] + rest[k + 1:], met, budget)
        if tail is not None:
            return [(top, other)] + tail
        if budget[0] < 0:
            return None
    return None


def _checked(names: Sequence[str], minimum: int) -> list[str]:
    players = list(names)
    if len(set(players)) != len(players):
        raise PlygroundError("A pairing names a player twice; each submission's name "
                             "must be unique.")
    if len(players) < minimum:
        raise PlygroundError(f"A pairing needs at least {minimum} players, not "
                             f"{len(players)}.")
    return players
