"""Grading a class: every student's checks played on one Pool, the results journaled
as they end, the grades made from them.

Each student's agent is started once first (a `start` unit); one that fails to start
is marked so, with its reason, and none of its checks is played. The others' checks
are fed to the pool together, the students in order, so that the pool is kept full
and students finish roughly one after another. The ladder waits for every student's
own checks (a Swiss is seeded by their strength), then plays the students whose
agents started. A unit already in the journal is taken from it instead of being
played: running the same run again resumes it. Nothing a student's agent does stops
the run: its faults are results (units.py); an error of the run itself (a worker
lost, the disk full) is a PlygroundError, and a rerun resumes after it.
"""
from __future__ import annotations

import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, wait
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, ContextManager

from ..errors import PlygroundError
from ..play.tournament import Pool
from .evidence import ClassGrades, StudentGrade
from .feeders import Feeder, NotRun, Unit
from .journal import Journal
from .ladder_feeder import LadderFeeder
from .plan import ClassPlan
from .submission import Student
from . import units

AHEAD_PER_WORKER = 2  # units in play or waiting on a worker: a full pool, little lost
LOGS = "logs"  # OUT's folder of what each student's processes wrote, a file each
OUTPUT_CAP = 10 << 20  # the bytes a student's log may reach: past it, a forfeit


@dataclass
class Progress:
    """Where the run stands: students whose checks are all done, checks in play,
    units done (played or taken from the journal) and known so far, the seconds
    played and an estimate of those left (None until a unit was played)."""

    students: int
    students_done: int
    checks_running: int
    units_done: int
    units_known: int
    units_replayed: int
    elapsed: float
    left: float | None


class StudentRun:
    """One student: its start, then a feeder a check (its ladder aside)."""

    def __init__(self, student: Student, plan: ClassPlan) -> None:
        self.student, self.plan = student, plan
        self.feeders: list[Feeder] = []
        self.fault: str | None = student.problem
        self.started = False
        self.start_wanted = False
        if student.agent is None:
            self.fail(student.problem or "it cannot be run")

    def fail(self, why: str) -> None:
        self.fault = why
        self.feeders = [NotRun(check, f"not run: its agent did not start ({why})")
                        for check in self.plan.own_checks]

    @property
    def decided(self) -> bool:
        return self.fault is not None or self.started

    @property
    def finished(self) -> bool:
        return self.decided and all(feeder.finished for feeder in self.feeders)

    def wanted(self) -> list[tuple[Unit, object]]:
        if not self.decided:
            if self.start_wanted:
                return []
            self.start_wanted = True
            job = units.StartJob(self.plan.game.spec, self.student.agent)
            return [(Unit(f"start/{self.student.name}", "start", job), self)]
        return [(unit, feeder) for feeder in self.feeders for unit in feeder.wanted()]

    def take(self, key: str, fault: str) -> None:
        if fault:
            self.fail(fault)
        else:
            self.started = True
            self.feeders = self.plan.feeders(self.student)


class Runner:
    """The run's loop: `open_pool` gives the pool (opened only if something is left to
    play), `progress` is told where the run stands after each unit and each second."""

    def __init__(self, plan: ClassPlan, roster: list[Student], journal: Journal,
                 open_pool: Callable[[], ContextManager[Pool]],
                 progress: Callable[[Progress], None] | None = None) -> None:
        self.plan, self.journal, self.open_pool = plan, journal, open_pool
        self.progress = progress or (lambda _: None)
        self.runs = [StudentRun(student, plan) for student in roster]
        self.ladders = [LadderFeeder(check, plan.suite(check), plan.seed)
                        for check in plan.ladder_checks]
        self.queue: deque[tuple[Unit, object]] = deque()
        self.owners: dict[str, object] = {}
        self.done = self.replayed = self.played = 0
        self.started_at = time.monotonic()

    # --- the work ----------------------------------------------------------------

    def pump(self) -> None:
        """Queue every unit wanted now, taking from the journal those it holds (which
        may make more wanted: until nothing changes)."""
        changed = True
        while changed:
            changed = False
            wanted: list[tuple[Unit, object]] = []
            for run in self.runs:
                wanted += run.wanted()
            if all(run.finished for run in self.runs):
                for ladder in self.ladders:
                    if not ladder.started:
                        ladder.begin(self.ladder_players(), self.plan.ratings(self.runs))
                    wanted += [(unit, ladder) for unit in ladder.wanted()]
            for unit, owner in wanted:
                if unit.key in self.journal.done:
                    result = units.decode(unit.kind, self.journal.done[unit.key])
                    owner.take(unit.key, result)
                    self.done += 1
                    self.replayed += 1
                    changed = True
                else:
                    self.owners[unit.key] = owner
                    self.queue.append((unit, owner))

    def ladder_players(self) -> dict:
        return {run.student.name: run.student.agent for run in self.runs
                if run.started}

    @property
    def finished(self) -> bool:
        return all(run.finished for run in self.runs) and \
            all(ladder.finished for ladder in self.ladders)

    def run(self) -> ClassGrades:
        self.pump()
        with ExitStack() as stack:
            pool: Pool | None = None
            running: dict = {}
            while not self.finished:
                if pool is None:
                    pool = stack.enter_context(self.open_pool())
                while self.queue and len(running) < AHEAD_PER_WORKER * pool.size:
                    unit, _ = self.queue.popleft()
                    running[self.submit(pool, unit)] = unit
                if not running:
                    raise PlygroundError("the grading run has work it cannot start "
                                         "(a bug of plyground's)")
                ended, _ = wait(running, timeout=1.0, return_when=FIRST_COMPLETED)
                for future in ended:
                    unit = running.pop(future)
                    result = self.result_of(future, unit)
                    self.journal.add(unit.key, units.encode(result))
                    self.owners.pop(unit.key).take(unit.key, result)
                    self.done += 1
                    self.played += 1
                self.pump()
                self.progress(self.where(len(running)))
        self.progress(self.where(0))
        return self.grades()

    @staticmethod
    def result_of(future, unit: Unit):
        """The unit's result; a PlygroundError if the pool could not give one (a
        worker lost, the cluster gone): the run stops, and the same command resumes
        it. A student's agent never causes this: its faults are results."""
        try:
            return future.result()
        except PlygroundError:
            raise
        except Exception as error:
            raise PlygroundError(f"the grading run stopped: {unit.key} could not be "
                                 f"played ({type(error).__name__}: {error}); the "
                                 "finished units are kept, and the same command "
                                 "resumes") from None

    def submit(self, pool: Pool, unit: Unit):
        if unit.kind == "game":
            return pool.executor.submit(units.play, self.plan.game.spec, unit.job)
        function = units.start if unit.kind == "start" else units.search
        return pool.executor.submit(function, unit.job)

    # --- where it stands ---------------------------------------------------------

    def where(self, running: int) -> Progress:
        elapsed = time.monotonic() - self.started_at
        known = self.done + len(self.queue) + running
        left = None
        if self.played:
            left = elapsed / self.played * (known - self.done)
        checks = sum(1 for run in self.runs for feeder in run.feeders
                     if not feeder.finished) + \
            sum(1 for ladder in self.ladders if ladder.started and not ladder.finished)
        return Progress(len(self.runs), sum(run.finished for run in self.runs), checks,
                        self.done, known, self.replayed, elapsed, left)

    def grades(self) -> ClassGrades:
        students = []
        for run in self.runs:
            grade = StudentGrade(run.student.name,
                                 run.student.agent.spec if run.student.agent else "",
                                 run.fault)
            own = {feeder.check.name: feeder.result() for feeder in run.feeders}
            ladders = {ladder.check.name: ladder.result_of(run.student.name)
                       for ladder in self.ladders}
            grade.checks = [own.get(check.name) or ladders[check.name]
                            for check in self.plan.checks]
            students.append(grade)
        return self.plan.class_grades(students)


def grade(plan: ClassPlan, roster: list[Student], out: Path,
          open_pool: Callable[[], ContextManager[Pool]],
          progress: Callable[[Progress], None] | None = None) -> ClassGrades:
    """Grade `roster` by `plan` into `out` (its journal; the report is the caller's)."""
    journal = Journal(out, plan.identity([student.name for student in roster]))
    logs = out / LOGS
    logs.mkdir(exist_ok=True)
    for student in roster:
        if student.agent is not None:
            student.agent.output = (str((logs / f"{student.name}.log").resolve()),
                                    OUTPUT_CAP)
    try:
        return Runner(plan, roster, journal, open_pool, progress).run()
    finally:
        journal.close()
