"""`plyground grade`: grading a class's agents (core/grade/, docs/grading.md).
`grade check`: read a grading spec, name every fault with its line, and write the
public part a teacher hands to the students; `grade run` and `grade student`
(grade_run.py): grade a class, or one student's agent by the public checks; and
`grade label` (grade_label.py): label the positions a `positions` check scores against.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from plyground.core import PlygroundError
from plyground.core.errors import visible
from plyground.core.paths import NotReplaced, write_atomically

from . import grade_label, grade_run
from .options import Force, refusal

grade_app = typer.Typer()


@grade_app.callback(invoke_without_command=True)
def grade(ctx: typer.Context) -> None:
    """Grade a class's agents by a grading spec (docs/grading.md)."""
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())


@grade_app.command("check")
def check(
    spec: Annotated[Path, typer.Argument(
        metavar="SPEC", help="a grading spec (.toml)", show_default=False)],
    public_out: Annotated[Optional[Path], typer.Option(
        "--public-out", metavar="PUBLIC.toml", show_default=False,
        help="write the spec without its hidden checks, for the students")] = None,
    force: Force = False,
) -> None:
    """Check a grading spec: every value, file and agent it names.

    Runs nothing it names. Prints each fault with its file and line; exit
    code 1 if there is any.
    """
    from plyground.core.grade.public import public_text  # only when grading: other
    from plyground.core.grade.spec import read_spec  # commands start without them

    found, faults = read_spec(spec)
    for fault in faults:  # (they may quote the spec: its escapes shown)
        print(visible(str(fault)))
    name = visible(str(spec))
    if faults:
        print(f"{len(faults)} fault{'s' if len(faults) != 1 else ''} in {name}",
              file=sys.stderr)
        raise typer.Exit(1)
    checks, public = len(found.checks), len(found.public)
    print(f"{name}: ok, {checks} check{'s' if checks != 1 else ''} "
          f"({found.points:g} points; {public} public)")
    if public_out is None:
        return
    text = public_text(found)
    try:
        write_atomically(public_out, text, overwrite=force)
    except NotReplaced as refused:
        raise PlygroundError(refusal(refused)) from None
    except OSError as error:
        raise PlygroundError(f"cannot write {visible(str(public_out))}: "
                             f"{error.strerror or error}") from None
    print(f"the public part ({public} check{'s' if public != 1 else ''}) written to "
          f"{visible(str(public_out))}", file=sys.stderr)


grade_app.command("run")(grade_run.run_command)  # in this order in --help too
grade_app.command("student")(grade_run.student_command)
grade_app.command("label")(grade_label.label_command)
