"""The class ladder as a feeder: the students whose agents started play each other
(a round robin, or a Swiss a round at a time, seeded by the students' strength
against the references), and each gets a rank and an Elo with its 95% interval
(ladder.py). Its points: the check's points times the share of the ladder games'
points the student scored.
"""
from __future__ import annotations

import math
from itertools import combinations
from typing import Mapping

from ..agents.base import Agent
from ..play.openings import Suite
from ..play.tournament import GameJob, GameResult
from .evidence import CheckResult, GameEvidence, LadderPlace
from .feeders import Feeder, Unit, unit_seed
from .ladder import ladder
from .pairings import GameJob as Pairing, round_robin, swiss_round
from .spec import Check

DEFAULT_GAMES = 2  # a round robin's games a pair


def swiss_rounds(players: int) -> int:
    """A Swiss's rounds when the spec gives none: enough to tell first from last."""
    return max(3, math.ceil(math.log2(max(players, 2))) + 2)


class LadderFeeder(Feeder):
    """Waits (wants nothing) until `begin` names the players, then plays them."""

    def __init__(self, check: Check, suite: Suite | None, seed: int) -> None:
        self.check, self.suite, self.seed = check, suite, seed
        self.agents: dict[str, Agent] = {}
        self.pairings: list[Pairing] = []
        self.jobs: dict[str, tuple[Pairing, GameJob]] = {}
        self.results: dict[str, GameResult] = {}
        self.ratings: Mapping[str, float] = {}
        self.byes: list[str] = []
        self.rounds = 0
        self.started = False
        self.pending: list[str] = []  # keys made but not yet wanted

    @property
    def swiss(self) -> bool:
        return self.check.fields["format"] == "swiss"

    def begin(self, agents: dict[str, Agent], ratings: Mapping[str, float]) -> None:
        """Play among `agents` (by student), `ratings` seeding a Swiss's first round."""
        self.agents, self.ratings, self.started = dict(agents), ratings, True
        names = sorted(agents)
        if len(names) < 2:
            self.finished = True
            return
        if self.swiss:
            self.rounds = self.check.fields.get("games") or swiss_rounds(len(names))
            self.next_round()
        else:
            games = self.check.fields.get("games", DEFAULT_GAMES)
            for pairing in round_robin(names, games):
                self.add(pairing)

    def add(self, pairing: Pairing) -> None:
        first, second = pairing.first, pairing.second
        pairs = list(combinations(sorted(self.agents), 2))
        pair = pairs.index(tuple(sorted((first, second))))
        met = sum(1 for earlier in self.pairings
                  if {earlier.first, earlier.second} == {first, second})
        opening = self.suite.opening(pair + len(pairs) * (met // 2)) if self.suite else ""
        seed = unit_seed(self.seed, self.check.name, first, second, str(pairing.game))
        job = GameJob(pairing.game, 1, seed, (self.agents[first], self.agents[second]),
                      opening)
        key = f"ladder/{self.check.name}/{pairing.game}/{first}/{second}"
        self.pairings.append(pairing)
        self.jobs[key] = (pairing, job)
        self.pending.append(key)

    def next_round(self) -> None:
        number = len({pairing.round for pairing in self.pairings})
        history = [(pairing, self.first_points(key)) for key, (pairing, _) in
                   self.jobs.items()]
        jobs, bye = swiss_round(sorted(self.agents), number, self.seed, self.ratings,
                                history, self.byes)
        if bye is not None:
            self.byes.append(bye)
        for pairing in jobs:
            self.add(pairing)

    def first_points(self, key: str) -> float:
        result = self.results[key]
        return 0.5 if result.winner is None else float(result.winner == 0)

    def wanted(self) -> list[Unit]:
        units = [Unit(key, "game", self.jobs[key][1]) for key in self.pending]
        self.pending = []
        return units

    def take(self, key: str, result: GameResult) -> None:
        self.results[key] = result
        if len(self.results) < len(self.jobs):
            return
        rounds_played = len({pairing.round for pairing in self.pairings})
        if self.swiss and rounds_played < self.rounds:
            self.next_round()
        else:
            self.finished = True

    def result_of(self, student: str) -> CheckResult:
        """The student's place and points (the ladder must be finished)."""
        if student not in self.agents:
            return self._result(0, "not in the ladder: its agent did not start")
        if len(self.agents) < 2:
            return self._result(0, "not played: a ladder needs two or more students "
                                "whose agents started (a class's run plays it)")
        scores = [(pairing.first, pairing.second, self.first_points(key))
                  for key, (pairing, _) in self.jobs.items()]
        place = next(rating for rating in ladder(scores, names=sorted(self.agents))
                     if rating.name == student)
        games = [self.evidence(student, key) for key, (pairing, _) in self.jobs.items()
                 if student in (pairing.first, pairing.second)]
        share = place.points / place.games if place.games else 0.0
        where = LadderPlace(place.rank, place.elo, place.low, place.high, place.games,
                            place.points, place.group, place.describe())
        return self._result(self.check.points * share,
                            f"rank {place.rank} of {len(self.agents)}, Elo "
                            f"{place.describe()}; {place.points:g} of {place.games} "
                            "points", games=games, ladder=where)

    def evidence(self, student: str, key: str) -> GameEvidence:
        pairing, job = self.jobs[key]
        result = self.results[key]
        me = 0 if pairing.first == student else 1
        other = pairing.second if me == 0 else pairing.first
        outcome = "draw" if result.winner is None else (
            "win" if result.winner == me else "loss")
        fault = result.fault if result.fault and result.winner == 1 - me else None
        return GameEvidence(other, pairing.game + 1, me == 0, result.record,
                            result.opening, outcome, result.reason, fault)

    def result(self) -> CheckResult:  # (per student: result_of)
        raise NotImplementedError
