"""What a grading run means before it runs (`grade run --dry-run`): the games and
searches each check plays for a class, and an estimate of the time on N workers.

The students' code is not run for it, so the time is given three ways, each from
games measured here between plyground's own agents (a sample of two a pairing):

- *quick*: as if each student's agent moved at once (the reference agents' moves, and
  the cost of starting each student's process and of each move's message to it);
- *likely*: as if each student's agent were the one the assignment asks for: the
  `nodes` check's reference (say `minimax:depth=3`), else plyground's greedy agent,
  with an SPRT stopping after twice the fewest pairs that can decide it;
- *slow*: as if every student's move took its whole clock and every SPRT ran to its
  limit: the most the run can take, a student that hangs costing little more.

A class with students whose agents hang or crash takes longer than *likely* (a hang
costs its deadline) but never more than *slow*.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

from ..agents.base import Agent
from ..catalogue import parse_agent
from ..play.sprt import SPRT
from ..play.tournament import play_game
from .feeders import MOST_PAIRS
from .ladder_feeder import DEFAULT_GAMES, swiss_rounds
from .plan import ClassPlan

START_SECONDS = 0.5  # starting a student's boxed process: Python and plyground's imports
MESSAGE_SECONDS = 0.003  # a move's round trip to a student's process
SAMPLE_GAMES = 2  # measured a pairing
STAND_IN = "greedy"  # a student's agent in *likely*, when no nodes check names one


@dataclass
class CheckCount:
    name: str
    kind: str
    games: tuple[int, int]  # the fewest and most games for the class
    searches: int  # positions asked, for the class
    seconds: tuple[float, float, float]  # quick, likely, slow: on one worker


def fewest_pairs(test: SPRT) -> int:
    """The fewest pairs after which the test can stop (all won, or all lost)."""
    for pairs in range(1, MOST_PAIRS + 1):
        if test.status([0, 0, 0, 0, pairs]).result or \
                test.status([pairs, 0, 0, 0, 0]).result:
            return pairs
    return MOST_PAIRS


class Timing:
    """Seconds a game between two of plyground's agents takes, its plies, and the
    seconds of the second agent's moves, measured once a pairing."""

    def __init__(self, plan: ClassPlan) -> None:
        self.plan = plan
        self.measured: dict[tuple[str, str], tuple[float, float, float]] = {}

    def game(self, student: str, opponent: str) -> tuple[float, float, float]:
        """(seconds a game, plies a game, seconds of `student`'s moves a game)."""
        key = (student, opponent)
        if key not in self.measured:
            game = self.plan.game
            mover = Timed(parse_agent(student))
            reference = parse_agent(opponent)
            seconds = plies = own = 0.0
            for number in range(SAMPLE_GAMES):
                sides = [mover, reference] if number % 2 else [reference, mover]
                began = time.perf_counter()
                played = play_game(game.start(), sides)
                seconds += time.perf_counter() - began
                plies += len(played.moves)
            own, mover.seconds = mover.seconds, 0.0
            self.measured[key] = (seconds / SAMPLE_GAMES, plies / SAMPLE_GAMES,
                                  own / SAMPLE_GAMES)
        return self.measured[key]


class Timed(Agent):
    """An agent that counts the seconds of its decisions."""

    def __init__(self, agent: Agent) -> None:
        super().__init__()
        self.agent, self.seconds = agent, 0.0

    def budget(self):
        return self.agent.budget()

    def decide(self, state, budget=None, observer=None, control=None, *,
               exact_root=False):
        began = time.perf_counter()
        try:
            return self.agent.decide(state, budget, observer, control,
                                     exact_root=exact_root)
        finally:
            self.seconds += time.perf_counter() - began


def stand_in(plan: ClassPlan) -> str:
    """The agent the assignment asks the students for, as near as the spec says."""
    for check in plan.checks:
        if check.kind == "nodes":
            return check.fields["reference"]
    return STAND_IN


def estimate(plan: ClassPlan, students: int) -> list[CheckCount]:
    """Each check's work for a class of `students` (all of them starting)."""
    timing, likely_agent, clock = Timing(plan), stand_in(plan), plan.spec.time
    counts = []
    for check in plan.checks:
        fields = check.fields
        if check.kind in ("positions", "nodes"):
            asked = len(plan._searches[check.name][0]) * students
            _, plies, own = timing.game(likely_agent, "random")
            per_move = own / max(1.0, plies / 2) + MESSAGE_SECONDS
            counts.append(CheckCount(check.name, check.kind, (0, 0), asked,
                                     (MESSAGE_SECONDS * asked, per_move * asked,
                                      clock * asked)))
            continue
        if check.kind == "ladder":
            if fields["format"] == "swiss":
                games = (fields.get("games") or swiss_rounds(students)) * (students // 2)
            else:
                games = math.comb(students, 2) * fields.get("games", DEFAULT_GAMES)
            seconds, plies, _ = timing.game(likely_agent, likely_agent)
            counts.append(CheckCount(check.name, check.kind, (games, games), 0,
                                     (MESSAGE_SECONDS * plies * games,
                                      (seconds + MESSAGE_SECONDS * plies) * games,
                                      plies * clock * games)))
            continue
        if "sprt" in fields:
            few = 2 * fewest_pairs(fields["sprt"])
            likely, most = 2 * few, 2 * MOST_PAIRS
        else:
            few = likely = most = fields["games"]
        quick = middle = slow = 0.0
        for opponent in fields["against"]:
            seconds, plies, own = timing.game(likely_agent, opponent)
            reference = seconds - own  # the opponent's moves
            messages = MESSAGE_SECONDS * plies / 2
            quick += (reference + messages) * few * students
            middle += (seconds + messages) * likely * students
            slow += (reference + plies / 2 * clock) * most * students
        counts.append(CheckCount(check.name, check.kind,
                                 (few * len(fields["against"]) * students,
                                  most * len(fields["against"]) * students), 0,
                                 (quick, middle, slow)))
    return counts


def total_seconds(counts: list[CheckCount], students: int, workers: int
                  ) -> tuple[float, float, float]:
    """The run's quick, likely and slow time on `workers` (the work spread evenly)."""
    start = START_SECONDS * students
    return tuple((start + sum(count.seconds[way] for count in counts)) / workers
                 for way in range(3))
