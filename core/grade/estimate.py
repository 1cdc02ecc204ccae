"""What a grading run means before it runs (`grade run --dry-run`): the games and
searches each check plays for a class, and an estimate of the time on N workers.

The students' code is not run for it, so the time is a range: *quick*, as if each
student's agent moved at once (the reference agents' moves, measured here over a
sample game each, and the cost of starting each student's process), and *slow*, as if
every student's move took its whole clock. An SPRT's games are counted at the fewest
that can decide it and at its limit.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

from ..catalogue import parse_agent
from ..play.sprt import SPRT
from ..play.tournament import play_game
from .feeders import MOST_PAIRS
from .ladder_feeder import DEFAULT_GAMES, swiss_rounds
from .plan import ClassPlan

START_SECONDS = 0.5  # starting a student's boxed process: Python and plyground's imports
SAMPLE_GAMES = 2  # measured per reference agent


@dataclass
class CheckCount:
    name: str
    kind: str
    games: tuple[int, int]  # the fewest and most games for the class
    searches: int  # positions asked, for the class
    seconds: tuple[float, float]  # quick and slow, on one worker


def fewest_pairs(test: SPRT) -> int:
    """The fewest pairs after which the test can stop (all won, or all lost)."""
    for pairs in range(1, MOST_PAIRS + 1):
        if test.status([0, 0, 0, 0, pairs]).result or \
                test.status([pairs, 0, 0, 0, 0]).result:
            return pairs
    return MOST_PAIRS


class Timing:
    """Seconds a reference agent's game takes when the other side moves at once, and
    the plies of such a game, measured once per agent."""

    def __init__(self, plan: ClassPlan) -> None:
        self.plan = plan
        self.measured: dict[str, tuple[float, float]] = {}

    def game(self, spec: str) -> tuple[float, float]:
        if spec not in self.measured:
            game = self.plan.game
            reference, mover = parse_agent(spec), parse_agent("random:seed=1")
            seconds = plies = 0.0
            for number in range(SAMPLE_GAMES):
                sides = [mover, reference] if number % 2 else [reference, mover]
                began = time.perf_counter()
                played = play_game(game.start(), sides)
                seconds += time.perf_counter() - began
                plies += len(played.moves)
            self.measured[spec] = (seconds / SAMPLE_GAMES, plies / SAMPLE_GAMES)
        return self.measured[spec]


def estimate(plan: ClassPlan, students: int) -> list[CheckCount]:
    """Each check's work for a class of `students` (all of them starting)."""
    timing = Timing(plan)
    clock = plan.spec.time
    counts = []
    for check in plan.checks:
        fields = check.fields
        if check.kind in ("positions", "nodes"):
            positions = len(plan._searches[check.name][0])
            counts.append(CheckCount(check.name, check.kind, (0, 0),
                                     positions * students,
                                     (0.05 * positions * students,
                                      clock * positions * students)))
            continue
        if check.kind == "ladder":
            if fields["format"] == "swiss":
                rounds = fields.get("games") or swiss_rounds(students)
                games = rounds * (students // 2)
            else:
                games = math.comb(students, 2) * fields.get("games", DEFAULT_GAMES)
            _, plies = timing.game("random")
            counts.append(CheckCount(check.name, check.kind, (games, games), 0,
                                     (0.05 * games, games * plies * clock)))
            continue
        against = fields["against"]
        if "sprt" in fields:
            few, most = 2 * fewest_pairs(fields["sprt"]), 2 * MOST_PAIRS
        else:
            few = most = fields["games"]
        quick = slow = 0.0
        for spec in against:
            seconds, plies = timing.game(spec)
            quick += seconds * few * students
            slow += (seconds + plies / 2 * clock) * most * students
        counts.append(CheckCount(check.name, check.kind,
                                 (few * len(against) * students,
                                  most * len(against) * students), 0, (quick, slow)))
    return counts


def total_seconds(counts: list[CheckCount], students: int, workers: int
                  ) -> tuple[float, float]:
    """The run's quick and slow time on `workers` (the work spread evenly)."""
    start = START_SECONDS * students
    quick = (start + sum(count.seconds[0] for count in counts)) / workers
    slow = (start + sum(count.seconds[1] for count in counts)) / workers
    return quick, slow
