"""`plyground lesson`: a teacher's scripted demos (core/study/lesson.py, docs/lessons.md):
list the shipped lessons, check a lesson file, present one in the app, export it as
slides (tui/lesson_export.py).

A lesson is named by its file or, for a shipped one, by its name (`minimax`).
"""
from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from plyground.core import PlygroundError
from plyground.core.errors import visible
from plyground.core.study.lesson import (ceiling_notes, load_lesson, played_through,
                                         read_lesson)
from plyground.core.study.lessons import lesson_file, shipped
from plyground.core.paths import NotReplaced, read_text_file

from .options import TrustAgents

CHECK_BUDGET = 10.0  # minutes: `lesson check` stops after this long unless told more

lesson_app = typer.Typer()

LessonName = Annotated[str, typer.Argument(
    metavar="LESSON", help="a lesson file (.toml), or a shipped lesson's name "
    "(`plyground lesson list`)", show_default=False)]


@lesson_app.callback(invoke_without_command=True)
def lesson(ctx: typer.Context) -> None:
    """Scripted lessons: positions, searches and captions, a step at a time.

    The format of a lesson file: docs/lessons.md.
    """
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())


@lesson_app.command("list")
def list_lessons() -> None:
    """The lessons shipped with plyground."""
    for name, path in shipped().items():
        lesson, _ = read_lesson(path)
        print(f"{name:<12} {lesson.title}  ({path})")


@lesson_app.command("check")
def check(name: LessonName, trust_agents: TrustAgents = False,
          budget: Annotated[float, typer.Option(
              "--budget", metavar="MINUTES", min=0.01, max=24 * 60.0,
              help="stop the check after this long, with an error")] = CHECK_BUDGET,
          ) -> None:
    """Check a lesson headless: every position, move, agent and step.

    Plays every scene through and runs every search, saying on stderr where
    it is. Prints each fault with its file, line and scene; exit code 1 if
    there is any (2, as for any usage error, if the file cannot be read).
    """
    path = lesson_file(name)
    # a file that is missing or cannot be read is a usage error (2), as an unknown
    # lesson's name is: exit code 1 says the lesson has faults
    read_text_file(path, "lesson")
    print(f"checking {path}…", file=sys.stderr, flush=True)
    lesson, slides, faults = played_through(path, trust_agents,
                                            check_progress(path, budget))
    for fault in faults:  # (they may quote the lesson file: its escapes shown)
        print(visible(str(fault)))
    for note in ceiling_notes(lesson, slides):
        print(visible(str(note)))
    scenes = len({slide.scene.number for slide in slides})
    if faults:
        print(f"{len(faults)} fault{'s' if len(faults) != 1 else ''} in {path}",
              file=sys.stderr)
        raise typer.Exit(1)
    print(f"{path}: no faults ({scenes} scene{'s' if scenes != 1 else ''}, "
          f"{len(slides)} slides)")


def check_progress(path: Path, minutes: float):
    """`lesson check`'s progress: a line on stderr for each scene and each search, and
    a PlygroundError once the check has taken longer than `minutes`."""
    started = time.monotonic()

    def progress(scene, step) -> None:
        took = time.monotonic() - started
        if took > 60 * minutes:
            raise PlygroundError(f"lesson check: {visible(str(path))} was not checked "
                                 f"within its budget of {minutes:g} minutes (stopped at "
                                 f"scene {scene.number}; --budget MINUTES gives it "
                                 "longer)")
        if step is scene.steps[0]:
            print(f"  scene {scene.number} ({took:.0f} s in)", file=sys.stderr,
                  flush=True)
        if step.action == "search":
            agent = step.value if isinstance(step.value, str) else "the side to move"
            print(f"  scene {scene.number}: searching with {visible(agent)}",
                  file=sys.stderr, flush=True)

    return progress


@lesson_app.command("run")
def run(name: LessonName, trust_agents: TrustAgents = False) -> None:
    """Present a lesson in the app, a step at a time.

    Space, Enter or → moves on, ← or Backspace goes back, Home and End jump,
    q quits.
    """
    from .. import app as tui_app  # Textual loads only when the app opens

    path = lesson_file(name)
    print(f"preparing {path}…", file=sys.stderr, flush=True)
    served = tui_app.SERVED  # served: what the server's user allowed
    trust = trust_agents or (served.allowed_agents if served is not None else False)
    lesson, slides = load_lesson(path, trust)  # a LessonError names every fault
    for note in ceiling_notes(lesson, slides):
        print(note, file=sys.stderr)

    tui_app.create_app(lesson=(lesson, slides)).run()


@lesson_app.command("export")
def export(
    name: LessonName,
    svg: Annotated[Optional[Path], typer.Option(
        "--svg", metavar="DIR", help="write each step's screen as an SVG into DIR",
        show_default=False)] = None,
    html: Annotated[bool, typer.Option(
        "--html", help="also write DIR/index.html, one page that flips through them "
        "(← and →)")] = False,
    size: Annotated[str, typer.Option(
        "--size", metavar="COLSxROWS", help="the terminal size the screens are drawn at")
    ] = "160x50",
    trust_agents: TrustAgents = False,
    force: Annotated[bool, typer.Option(
        "--force", help="replace slides already in DIR (never a symbolic link)")] = False,
) -> None:
    """Export a lesson as slides: an SVG of the screen for every step.

    The same lesson gives the same files.
    """
    if svg is None:
        raise PlygroundError("export needs --svg DIR: the folder to write the slides to")
    columns, _, rows = size.lower().partition("x")
    # a screen that can be drawn: from 60x20 to 1000x500, in ASCII digits
    if not (re.fullmatch("[0-9]{1,4}", columns) and re.fullmatch("[0-9]{1,3}", rows)
            and 60 <= int(columns) <= 1000 and 20 <= int(rows) <= 500):
        raise PlygroundError(f"--size {size!r}: columns x rows, as in 160x50 (from "
                             "60x20 to 1000x500)")
    path = lesson_file(name)
    print(f"preparing {path}…", file=sys.stderr, flush=True)
    lesson, slides = load_lesson(path, trust_agents)
    for note in ceiling_notes(lesson, slides):
        print(note, file=sys.stderr)
    if svg.exists() and not svg.is_dir():
        raise PlygroundError(f"--svg {svg}: it is a file, not a folder")
    from ..lesson_export import export_lesson, in_the_way  # Textual: only to export

    taken = in_the_way(svg, len(slides), html, force)
    if taken:
        more = f" (and {len(taken) - 1} more)" if len(taken) > 1 else ""
        raise PlygroundError(
            f"--svg {svg}: {taken[0].name} is a symbolic link{more}; choose another folder"
            if taken[0].is_symlink() else
            f"--svg {svg}: {taken[0].name} already exists{more} (--force replaces them)")
    try:
        written = export_lesson(lesson, slides, svg, html, (int(columns), int(rows)),
                                overwrite=force)
    except NotReplaced as refused:
        raise PlygroundError(f"--svg {svg}: {refused}") from None
    except OSError as error:
        raise PlygroundError(f"cannot write to {svg}: {error.strerror or error}") from None
    print(f"wrote {len(written)} files to {svg}"
          + (f" (open {svg / 'index.html'})" if html else ""))
