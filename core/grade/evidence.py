"""What grading a class found: each student's points per check and the evidence behind
them, as `grade run` and `grade student` hand it to the report (report.py), and as
grades.json holds it.

Plain dataclasses of strings and numbers, so that the whole of it is JSON
(`to_json`) and nothing in it needs the game to be read. Positions
and moves are text in the game's notation; a game is its record (the moves from the
start, as `plyground play --load` takes them after the game's spec).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class GameEvidence:
    """One game a check played with the student's agent (or, in a ladder, two
    students'): who moved first, the moves, and how it ended for the student."""

    opponent: str  # the agent's spec, or the other student's name
    number: int  # the game's number within the student's games of that opponent
    student_first: bool
    record: str  # the whole game in the game's notation, from the start
    opening: str  # the moves it started from ("": the game's start)
    result: str  # "win", "draw" or "loss", for the student
    reason: str  # how it ended, as the game's result says it
    fault: str | None = None  # the student's agent's fault that ended it, if any


@dataclass
class SearchEvidence:
    """One position a check asked the student's agent to decide in."""

    position: str  # in the game's notation
    move: str | None  # the move it chose (None: it chose none, `fault` says why)
    best: list[str] = field(default_factory=list)  # positions: the best moves
    nodes: int | None = None  # nodes: what the agent reported (None: nothing)
    expected_nodes: int | None = None  # nodes: the reference's count
    fault: str | None = None
    passed: bool = False


@dataclass
class LadderPlace:
    """A student's place in the class ladder (core/grade/ladder.py's LadderRating)."""

    rank: int
    elo: float  # +inf / -inf / nan as LadderRating says; JSON writes them as text
    low: float
    high: float
    games: int
    points: float
    group: str
    describe: str  # the rating in words


@dataclass
class CheckResult:
    """One check of one student: points of `most`, a one-line summary, the evidence."""

    check: str  # the check's name
    kind: str
    points: float
    most: float
    summary: str
    games: list[GameEvidence] = field(default_factory=list)
    searches: list[SearchEvidence] = field(default_factory=list)
    ladder: LadderPlace | None = None
    verdict: str | None = None  # a strength check's SPRT: "H1", "H0" or "undecided"


@dataclass
class StudentGrade:
    student: str  # the folder's name
    agent: str  # the spec it ran as ("" if it never started)
    start_fault: str | None  # why it did not start (then every check is 0)
    checks: list[CheckResult] = field(default_factory=list)

    @property
    def total(self) -> float:
        """The checks' points (each to two decimals) added, to two decimals."""
        return round(sum(check.points for check in self.checks), 2)

    def check(self, name: str) -> CheckResult | None:
        return next((check for check in self.checks if check.check == name), None)


@dataclass
class ClassGrades:
    """The whole class: the spec's title and game, its checks (name, kind, points) in
    order, and every student's grade, by folder name."""

    title: str
    game: str  # the game's spec, as `plyground play` takes it
    spec: str  # the spec file's path, as given
    checks: list[tuple[str, str, float]]  # (name, kind, points)
    students: list[StudentGrade]
    command: str = ""  # the command that made it (report footers)

    @property
    def most(self) -> float:
        return sum(points for _, _, points in self.checks)


def _number(value: float) -> Any:
    """A float JSON can hold: ±inf and nan as text."""
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return value


def to_json(grades: ClassGrades) -> dict:
    """grades.json: `students` as the issue's format ({"student", "checks": {name:
    points}, "total"}), and `evidence` beside it with everything else."""
    return {
        "title": grades.title, "game": grades.game, "spec": grades.spec,
        "checks": [{"name": name, "kind": kind, "points": points}
                   for name, kind, points in grades.checks],
        "most": grades.most,
        "students": [{"student": student.student,
                      "checks": {check.check: check.points for check in student.checks},
                      "total": student.total} for student in grades.students],
        "evidence": [_floats(asdict(student)) for student in grades.students],
    }


def _floats(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _floats(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_floats(item) for item in value]
    return _number(value)
