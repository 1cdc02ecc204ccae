"""Each check of a grading spec as the work it needs: a *feeder* hands the runner the
units it wants played now (`wanted`), takes each one's result (`take`) and, once
`finished`, says the check's points and evidence (`result`).

Most checks know all their work at once (a legal check's games, a positions check's
search); an SPRT wants its games a pair or two ahead, as its verdict may come at any
pair, and counts the pairs in order, so a resumed run stops where an uninterrupted one
would; a Swiss ladder wants a round at a time. Every unit's key names it within the
run, whatever plays it and whenever: the journal keeps results by it.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Sequence

from ..agents.base import Agent
from ..play.openings import Suite
from ..play.sprt import SPRT, pair_class
from ..play.tournament import GameJob, GameResult
from ..rng import derive_seed
from .evidence import CheckResult, GameEvidence, SearchEvidence
from .spec import Check
from .units import Answer, SearchJob

DECIMALS = 2  # a check's points, as every file and page shows them
MOST_PAIRS = 200  # an SPRT of a grade stops undecided after so many pairs
PAIRS_AHEAD = 2  # the pairs an SPRT has in play at once


@dataclass(frozen=True)
class Unit:
    key: str
    kind: str  # "start", "search" or "game"
    job: object  # a StartJob, SearchJob or GameJob


def unit_seed(seed: int, *parts: str) -> int:
    """The seed of one match of the run, from the run's seed and the match's names
    (never its place in a list: another student in the class changes no one's
    games)."""
    digest = hashlib.sha256("/".join(parts).encode("utf-8", "surrogateescape"))
    return derive_seed(seed, int.from_bytes(digest.digest()[:8], "big"))


def game_evidence(opponent: str, job: GameJob, result: GameResult) -> GameEvidence:
    """The game as the student (player 0) saw it."""
    outcome = "draw" if result.winner is None else ("win" if result.winner == 0
                                                    else "loss")
    fault = result.fault if result.fault and result.winner == 1 else None
    return GameEvidence(opponent, job.number, result.first == 0, result.record,
                        result.opening, outcome, result.reason, fault)


def student_points(result: GameResult) -> float:
    return 0.5 if result.winner is None else float(result.winner == 0)


class Feeder:
    check: Check
    finished: bool = False

    def wanted(self) -> list[Unit]:
        raise NotImplementedError

    def take(self, key: str, result) -> None:
        raise NotImplementedError

    def result(self) -> CheckResult:
        raise NotImplementedError

    def _result(self, points: float, summary: str, **evidence) -> CheckResult:
        return CheckResult(self.check.name, self.check.kind, round(points, DECIMALS),
                           self.check.points, summary, **evidence)


class GamesFeeder(Feeder):
    """`games` games against each of `opponents` (a legal check, or a strength check
    scored by bands), all wanted at once, each pair of games from one opening."""

    def __init__(self, check: Check, student: str, agent: Agent,
                 opponents: Sequence[Agent], suite: Suite | None, seed: int) -> None:
        self.check, self.student = check, student
        self.jobs: dict[str, tuple[str, GameJob]] = {}
        for index, opponent in enumerate(opponents):
            match_seed = unit_seed(seed, check.name, student, str(index))
            for number in range(1, check.fields["games"] + 1):
                opening = suite.opening((number - 1) // 2) if suite else ""
                job = GameJob(index, number, match_seed, (agent, opponent), opening)
                key = f"game/{check.name}/{student}/{index}/{number}"
                self.jobs[key] = (opponent.spec, job)
        self.results: dict[str, GameResult] = {}
        self.asked = False

    def wanted(self) -> list[Unit]:
        if self.asked:
            return []
        self.asked = True
        return [Unit(key, "game", job) for key, (_, job) in self.jobs.items()]

    def take(self, key: str, result: GameResult) -> None:
        self.results[key] = result
        self.finished = len(self.results) == len(self.jobs)

    def evidence(self) -> list[GameEvidence]:
        return [game_evidence(self.jobs[key][0], self.jobs[key][1], self.results[key])
                for key in self.jobs]

    def result(self) -> CheckResult:
        games = self.evidence()
        if self.check.kind == "legal":
            faults = [game for game in games if game.fault]
            if faults:
                first = faults[0]
                return self._result(0, f"{len(faults)} of {len(games)} games lost by "
                                    f"a fault, first: {first.fault}", games=games)
            return self._result(self.check.points, f"{len(games)} games, every move "
                                "legal and in time", games=games)
        share = sum(student_points(self.results[key]) for key in self.jobs) / len(games)
        points = max((earned for least, earned in self.check.fields["bands"]
                      if share >= least), default=0)
        return self._result(points, f"scored {share:.0%} of the points in "
                            f"{len(games)} games", games=games)


class SprtFeeder(Feeder):
    """A strength check with an SPRT against each of `opponents`: full points for H1
    against all of them (each a share). Games are wanted a pair or two ahead and the
    pairs counted in order; the test stops undecided after MOST_PAIRS pairs."""

    def __init__(self, check: Check, student: str, agent: Agent,
                 opponents: Sequence[Agent], suite: Suite | None, seed: int,
                 most_pairs: int = MOST_PAIRS) -> None:
        self.check, self.student, self.agent = check, student, agent
        self.opponents, self.suite, self.most_pairs = list(opponents), suite, most_pairs
        self.test: SPRT = check.fields["sprt"]
        self.seeds = [unit_seed(seed, check.name, student, str(index))
                      for index in range(len(self.opponents))]
        self.asked = [0] * len(self.opponents)  # games asked for, per opponent
        self.games: list[dict[int, GameResult]] = [{} for _ in self.opponents]
        self.counts = [[0] * 5 for _ in self.opponents]
        self.counted = [0] * len(self.opponents)
        self.verdicts: list[str | None] = [None] * len(self.opponents)

    def key(self, index: int, number: int) -> str:
        return f"game/{self.check.name}/{self.student}/{index}/{number}"

    def wanted(self) -> list[Unit]:
        units = []
        for index, opponent in enumerate(self.opponents):
            if self.verdicts[index] is not None:
                continue
            waiting = self.asked[index] - len(self.games[index])
            while waiting < 2 * PAIRS_AHEAD and self.asked[index] < 2 * self.most_pairs:
                number = self.asked[index] + 1
                opening = self.suite.opening((number - 1) // 2) if self.suite else ""
                job = GameJob(index, number, self.seeds[index], (self.agent, opponent),
                              opening)
                units.append(Unit(self.key(index, number), "game", job))
                self.asked[index] += 1
                waiting += 1
        return units

    def take(self, key: str, result: GameResult) -> None:
        index, number = (int(part) for part in key.split("/")[-2:])
        if self.verdicts[index] is not None:
            return  # played past the verdict: not counted
        games = self.games[index]
        games[number] = result
        while self.verdicts[index] is None and \
                {2 * self.counted[index] + 1, 2 * self.counted[index] + 2} <= set(games):
            pair = self.counted[index]
            first, second = games[2 * pair + 1], games[2 * pair + 2]
            self.counts[index][pair_class(student_points(first),
                                          student_points(second))] += 1
            self.counted[index] += 1
            status = self.test.status(self.counts[index])
            if status.result is not None:
                self.verdicts[index] = status.result
            elif self.counted[index] >= self.most_pairs:
                self.verdicts[index] = "undecided"
        self.finished = all(verdict is not None for verdict in self.verdicts)

    def result(self) -> CheckResult:
        games, words = [], []
        for index, opponent in enumerate(self.opponents):
            counted = 2 * self.counted[index]
            for number in range(1, counted + 1):
                job = GameJob(index, number, self.seeds[index], (self.agent, opponent))
                games.append(game_evidence(opponent.spec, job,
                                           self.games[index][number]))
            verdict = self.verdicts[index]
            said = {"H1": "stronger", "H0": "not stronger"}.get(verdict, "undecided")
            words.append(f"{said} than {opponent.spec} ({verdict} after {counted} "
                         "games)")
        wins = sum(verdict == "H1" for verdict in self.verdicts)
        points = self.check.points * wins / len(self.opponents)
        verdict = "H1" if wins == len(self.opponents) else \
            ("undecided" if "undecided" in self.verdicts else "H0")
        return self._result(points, "; ".join(words), games=games, verdict=verdict)


class SearchFeeder(Feeder):
    """A positions or nodes check: one search job, the agent's answer in each
    position checked against the best moves (`best`) or the reference's node counts
    (`expected`)."""

    def __init__(self, check: Check, student: str, game: str, agent: Agent,
                 positions: Sequence[str], best: Sequence[Sequence[str]] = (),
                 expected: Sequence[int] = ()) -> None:
        self.check, self.student = check, student
        self.positions, self.best, self.expected = list(positions), best, expected
        self.job = SearchJob(game, agent, tuple(self.positions))
        self.key = f"search/{check.name}/{student}"
        self.answers: list[Answer] | None = None
        self.asked = False

    def wanted(self) -> list[Unit]:
        if self.asked:
            return []
        self.asked = True
        return [Unit(self.key, "search", self.job)]

    def take(self, key: str, result: list[Answer]) -> None:
        self.answers = result
        self.finished = True

    def result(self) -> CheckResult:
        searches = []
        for index, (position, answer) in enumerate(zip(self.positions, self.answers)):
            if self.check.kind == "positions":
                best = list(self.best[index])
                searches.append(SearchEvidence(position, answer.move, best,
                                               fault=answer.fault,
                                               passed=answer.move in best))
            else:
                expected = self.expected[index]
                searches.append(SearchEvidence(
                    position, answer.move, nodes=answer.nodes, expected_nodes=expected,
                    fault=answer.fault, passed=answer.nodes == expected))
        passed = sum(search.passed for search in searches)
        what = "best moves" if self.check.kind == "positions" else "exact node counts"
        return self._result(self.check.points * passed / len(searches),
                            f"{passed} of {len(searches)} {what}", searches=searches)


class NotRun(Feeder):
    """A check of a student whose agent never started: nothing to play, no points."""

    def __init__(self, check: Check, why: str) -> None:
        self.check, self.why = check, why
        self.finished = True

    def wanted(self) -> list[Unit]:
        return []

    def result(self) -> CheckResult:
        return self._result(0, self.why)
