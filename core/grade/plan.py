"""A grading spec made ready to run: its reference agents made, its openings and
positions read, its node counts worked out once for the class, and for each student
the feeders (feeders.py) of its own checks.

Nothing here runs a student's code: a student's agent is a Submission (its spec
only) until a worker's boxed child loads it.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Sequence

from ..agents.base import Agent
from ..catalogue import parse_agent
from ..game import Game
from ..play.openings import NO_OPENINGS, Suite, load_suite
from .evidence import ClassGrades, StudentGrade
from .feeders import Feeder, GamesFeeder, SearchFeeder, SprtFeeder
from .journal import run_identity
from .label import read_unlabelled
from .positions import read_positions
from .spec import Check, GradingSpec
from .submission import Student

DEFAULT_SEED = 1


@dataclass
class ClassPlan:
    spec: GradingSpec
    seed: int = DEFAULT_SEED
    command: str = ""  # the command line that runs it (the report says it)
    checks: list[Check] = field(default_factory=list)  # those to play, in order
    _suites: dict[str, Suite | None] = field(default_factory=dict)
    _opponents: dict[str, list[Agent]] = field(default_factory=dict)
    _searches: dict[str, tuple[list[str], list, list]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.checks:
            self.checks = list(self.spec.checks)
        game = self.game
        for check in self.checks:
            fields = check.fields
            self._suites[check.name] = self._suite(fields.get("openings", NO_OPENINGS))
            if "against" in fields:
                self._opponents[check.name] = [parse_agent(spec)
                                               for spec in fields["against"]]
            if check.kind == "positions":
                read = read_positions(fields["file"], game).positions
                self._searches[check.name] = (
                    [game.format_position(entry.state) for entry in read],
                    [[game.format_move(move) for move in entry.best] for entry in read],
                    [])
            elif check.kind == "nodes":
                from .nodes import reference_counts  # (the class's counts, once)

                states = read_unlabelled(fields["file"], game)
                kind = parse_agent(fields["reference"]).kind
                positions = [game.format_position(state) for state in states]
                counts = reference_counts(game, positions, kind, fields["depth"],
                                          fields["order"])
                self._searches[check.name] = (positions, [], counts)

    @property
    def game(self) -> Game:
        return self.spec.game

    @property
    def own_checks(self) -> list[Check]:
        """The checks each student plays alone (all but the ladder)."""
        return [check for check in self.checks if check.kind != "ladder"]

    @property
    def ladder_checks(self) -> list[Check]:
        return [check for check in self.checks if check.kind == "ladder"]

    def _suite(self, openings: str) -> Suite | None:
        if openings == NO_OPENINGS:
            return None
        return load_suite(self.game, str(openings))

    def suite(self, check: Check) -> Suite | None:
        return self._suites[check.name]

    def feeders(self, student: Student) -> list[Feeder]:
        """The feeders of a student's own checks, once its agent has started."""
        made: list[Feeder] = []
        for check in self.own_checks:
            suite = self._suites[check.name]
            if check.kind in ("positions", "nodes"):
                positions, best, counts = self._searches[check.name]
                made.append(SearchFeeder(check, student.name, self.game.spec,
                                         student.agent, positions, best, counts))
            elif check.kind == "strength" and "sprt" in check.fields:
                made.append(SprtFeeder(check, student.name, student.agent,
                                       self._opponents[check.name], suite, self.seed))
            else:
                made.append(GamesFeeder(check, student.name, student.agent,
                                        self._opponents[check.name], suite, self.seed))
        return made

    def ratings(self, runs: Sequence) -> dict[str, float]:
        """A Swiss ladder's seeding: each started student's share of the points in
        its strength games (its legal games if the spec has no strength check)."""
        kinds = [check.kind for check in self.own_checks]
        wanted = "strength" if "strength" in kinds else "legal"
        ratings = {}
        for run in runs:
            if not run.started:
                continue
            games = [game for feeder in run.feeders if feeder.check.kind == wanted
                     for game in feeder.result().games]
            if games:
                ratings[run.student.name] = sum(
                    {"win": 1.0, "draw": 0.5}.get(game.result, 0.0)
                    for game in games) / len(games)
        return ratings

    def identity(self, students: Sequence[str]) -> str:
        names = ",".join(check.name for check in self.checks)
        return run_identity(self.spec.source, list(students), self.seed, names)

    def class_grades(self, students: list[StudentGrade]) -> ClassGrades:
        return ClassGrades(self.spec.title, self.game.spec, str(self.spec.path),
                           [(check.name, check.kind, check.points)
                            for check in self.checks], students, self.command)


def command_line(words: Sequence[str]) -> str:
    return shlex.join(["plyground", *words])
