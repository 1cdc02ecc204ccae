"""`plyground grade run` and `grade student`: grade a class's submissions (or one
student's own agent, by the public checks) into a folder with the report.

Naming the submissions on the command line is the teacher's consent to run them: no
prompt. Each student's agent runs boxed (its whole process tree, the spec's memory
and clock). Ctrl-C keeps every finished unit in OUT/journal.jsonl and prints the
command that resumes; the same command run again resumes any stopped run.
"""
from __future__ import annotations

import shlex
import shutil
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from plyground.core.errors import PlygroundError, visible

from .options import Cluster, ClusterSecurity, Jobs

Out = Annotated[Path, typer.Option(
    "--out", metavar="DIR", show_default=False,
    help="the folder for the report (report.html, grades.csv, grades.json) and the "
         "run's journal; the same --out again resumes the run")]
SpecFile = Annotated[Path, typer.Argument(
    metavar="SPEC", help="a grading spec (.toml)", show_default=False)]
GradeSeed = Annotated[int, typer.Option(
    min=0, max=2**63 - 1, help="the seed of the games (part of the run: a resumed run "
    "needs the same)")]


def duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


class ProgressLine:
    """The run's progress on stderr: one line rewritten on a terminal, else a line
    when a student is done and at most every 10 s."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.last = 0.0
        self.done = -1
        self.text = ""

    def __call__(self, where) -> None:
        now = time.monotonic()
        finished = where.units_done == where.units_known
        if not finished and where.students_done == self.done and \
                now - self.last < (0.2 if self.tty else 10):
            return
        left = "" if where.left is None or finished else \
            f", about {duration(where.left)} left"
        text = (f"{where.students_done} of {where.students} students done, "
                f"{where.checks_running} check{'s' if where.checks_running != 1 else ''} "
                f"running, {where.units_done} of "
                f"{where.units_known} units{left}")
        if text == self.text:
            return
        self.last, self.done, self.text = now, where.students_done, text
        if self.tty:  # (cut to the terminal's width: a wrapped line would stay)
            width = shutil.get_terminal_size().columns - 1
            print(f"\r\x1b[2K{text[:width]}", end="", file=sys.stderr, flush=True)
        else:
            print(text, file=sys.stderr, flush=True)

    def end(self) -> None:
        if self.tty and self.done >= 0:
            print(file=sys.stderr)


def load_plan(spec_path: Path, seed: int, words: list[str], public_only: bool = False):
    from plyground.core.grade.plan import ClassPlan
    from plyground.core.grade.spec import load_spec

    spec = load_spec(spec_path)
    checks = spec.public if public_only else spec.checks
    if not checks:
        raise PlygroundError(f"{visible(str(spec_path))} has no public checks to run")
    return ClassPlan(spec, seed, shlex.join(["plyground", *words]), list(checks))


def print_grades(grades, out: Path) -> None:
    """The grades as a table (the CLI's, whole at 80 columns: a check's name folds
    onto a second line where it must), then where the report is."""
    from rich.console import Console
    from rich.text import Text

    from ..tables import Spec, cli_table, number_column, text_column

    table = cli_table()
    text_column(table, "student")
    for name, _, points in grades.checks:
        number_column(table, f"{fold(name)}\n({points:g})")
    number_column(table, f"total\n({grades.most:g})")
    for student in grades.students:
        table.add_row(Spec(student.student + (" (did not start)" if student.start_fault
                                              else "")),
                      *(f"{check.points:g}" for check in student.checks),
                      f"{student.total:g}")
    console = Console(highlight=False)
    console.print(table)
    console.print(Text(f"the report: {visible(str(out / 'report.html'))}"))


def fold(header: str, width: int = 8) -> str:
    """A header on lines of at most `width` characters where it has spaces or -."""
    lines, line = [], ""
    for word in header.replace("-", "- ").split(" "):
        if line and len(line) + len(word) + (not line.endswith("-")) > width:
            lines.append(line)
            line = ""
        line += word if not line or line.endswith("-") else " " + word
    return "\n".join([*lines, line])


def draw_board(state):
    """The board as `plyground analyze` prints it (the game's text renderer), for the
    report's missed positions; None for a game without one."""
    from plyground.core.game import load_ref

    ref = state.game.entry.renderer
    return load_ref(ref)(state) if ref else None


def run_grading(plan, roster, out: Path, jobs: int | None, cluster: str | None,
                resume: str) -> None:
    from plyground.core.grade.report import write_report
    from plyground.core.grade.runner import grade
    from plyground.core.play.cluster import open_pool

    progress = ProgressLine()
    try:
        grades = grade(plan, roster, out, lambda: open_pool(plan.game, jobs, cluster),
                       progress)
    except KeyboardInterrupt:
        progress.end()
        print(f"stopped: every finished game and search is kept in "
              f"{visible(str(out))}; resume with:\n  {resume}", file=sys.stderr)
        raise typer.Exit(130) from None
    progress.end()
    write_report(grades, out, draw_board)
    print_grades(grades, out)


def dry_run(plan, students: int, jobs: int | None) -> None:
    import os

    from plyground.core.grade.estimate import estimate, stand_in, total_seconds

    workers = jobs or os.cpu_count() or 1
    counts = estimate(plan, students)
    for count in counts:
        games = f"{count.games[0]:,}" if count.games[0] == count.games[1] else \
            f"{count.games[0]:,} to {count.games[1]:,}"
        work = f"{count.searches:,} searches" if count.searches else f"{games} games"
        print(f"{count.name} ({count.kind}): {work}")
    quick, likely, slow = total_seconds(counts, students, workers)
    print(f"{students} students on {workers} worker{'s' if workers != 1 else ''}: "
          f"about {duration(likely)} if they play as {stand_in(plan)} does "
          f"({duration(quick)} if they moved at once; at most {duration(slow)}, every "
          f"move taking its whole clock of {plan.spec.time:g}s)")


def run_command(
    spec: SpecFile,
    submissions: Annotated[Path, typer.Argument(
        metavar="SUBMISSIONS", show_default=False,
        help="a folder with one folder a student, named for the student")],
    out: Out,
    jobs: Jobs = None,
    cluster: Cluster = None,
    cluster_security: ClusterSecurity = None,  # (carried in `cluster`)
    seed: GradeSeed = 1,
    dry: Annotated[bool, typer.Option(
        "--dry-run", help="print the games and searches the spec means for this class "
        "and an estimate of the time; run nothing")] = False,
) -> None:
    """Grade a class: every student's agent by every check of the spec.

    Naming SUBMISSIONS is your consent to run each student's code: each runs
    boxed, with the spec's clock and memory for its whole process tree. A crash,
    a hang, a flood of output or a fork costs that student the check, never the
    run. Writes OUT/report.html, grades.csv and grades.json. Ctrl-C keeps every
    finished game; the same command resumes.

    Example: plyground grade run examples/class/minimax.toml
    examples/class/submissions --out grades
    """
    from plyground.core.grade.submission import student, students

    words = ["grade", "run", str(spec), str(submissions), "--out", str(out)]
    if seed != 1:
        words += ["--seed", str(seed)]
    plan = load_plan(spec, seed, words)
    folders = students(submissions)
    if dry:
        dry_run(plan, len(folders), jobs)
        return
    roster = [student(plan.spec, folder) for folder in folders]
    resume = shlex.join(["plyground", *words, *(["--jobs", str(jobs)] if jobs else []),
                         *(["--cluster", cluster] if cluster else [])])
    run_grading(plan, roster, out, jobs, cluster, resume)


def student_command(
    public: Annotated[Path, typer.Argument(
        metavar="PUBLIC.toml", show_default=False,
        help="the public part of a grading spec, as the teacher handed it out")],
    agent: Annotated[str, typer.Argument(
        metavar="AGENT", show_default=False,
        help="your agent: path/to/bot.py:MyBot, or engine:cmd=\"./mybot\"")],
    out: Out,
    jobs: Jobs = None,
    seed: GradeSeed = 1,
) -> None:
    """Run the public checks of a grading spec on your own agent.

    Writes the same report the teacher's run writes, for you alone, so you know
    before submitting what will be checked. The ladder, which needs the class,
    is not played.

    Example: plyground grade student public.toml mybot/bot.py:MyBot --out mine
    """
    from plyground.core.grade.submission import one_student

    words = ["grade", "student", str(public), agent, "--out", str(out)]
    plan = load_plan(public, seed, words, public_only=True)
    roster = [one_student(plan.spec, agent)]
    run_grading(plan, roster, out, jobs, None, shlex.join(["plyground", *words]))
