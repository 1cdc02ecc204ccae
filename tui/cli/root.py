"""The root of the `plyground` command and its error policy.

Every mistake a user can make ends the same way: one `error: ...` line on stderr and
exit code 2, never a traceback or a usage box. Core errors (PlygroundError) and typer's
own usage errors become that line in one place, `OneLineErrors.main`.
"""
from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperGroup

from plyground.core import PlygroundError
from plyground.core.errors import visible

from ..exit_codes import INTERRUPTED, USAGE_ERROR
from ..served_saves import MB, QUOTA_FILES, QUOTA_MB
from .play import launch


class OneLineErrors(TyperGroup):
    """Runs the commands non-standalone, so that errors reach us as exceptions instead
    of typer's usage box, and reports each as one line. `--help` still works: typer
    returns its exit code (0) instead of raising."""

    def main(self, args: Any = None, prog_name: str | None = None, **extra: Any) -> Any:
        extra["standalone_mode"] = False
        hide_flag_types(self)
        rejoin_paragraphs(self)
        try:
            code = super().main(args, prog_name, **extra)
        except (PlygroundError, typer.TyperException) as error:
            # typer vendors click: its UsageError / BadParameter are TyperExceptions.
            message = (error.format_message() if isinstance(error, typer.TyperException)
                       else str(error))
            # a message may quote a file, a net or an engine: its escapes are shown
            print("error: " + visible(" ".join(message.split())), file=sys.stderr)
            sys.exit(USAGE_ERROR)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: Any) -> Any:
        """Ctrl-C in a command that does not report it itself (analyze, perft, solve)
        ends it with a line that says so; typer alone would end it silently."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            raise typer.Exit(INTERRUPTED) from None

# the longest range `--help` shows beside an option's type (`1<=x<=256`); a longer one
# (a seed's 0<=x<=18446744073709551615) is a limit of the machine, not advice, and
# would squeeze the help's text into a narrow column at 80 columns
SHOWN_RANGE = 12


def hide_flag_types(command: Any) -> None:
    """A flag takes no value, so `--help` shows none for it (typer writes `<bool>`):
    every flag of `command` and its subcommands, `--help` too, gets an empty metavar.
    A number's range that is too long to help is left out of the help (it is still
    checked), and its type is written as a plain `<int>` or `<float>`."""
    help_option = command.get_help_option(command.context_class(command))
    for param in [*command.params, *([help_option] if help_option else [])]:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
        described = getattr(param, "_get_number_range_help_str", lambda: None)()
        if not described:
            continue
        if len(described) > SHOWN_RANGE:
            param._get_number_range_help_str = lambda: None
        if param.param_type_name == "option" and param.metavar is None:
            param.metavar = f"<{param.type_descriptor.ranged_type_name}>"
    for sub in getattr(command, "commands", {}).values():
        hide_flag_types(sub)


def rejoin_paragraphs(command: Any) -> None:
    """Each paragraph of a command's help (and its subcommands') made one line, for
    Rich to wrap at the terminal's width: typer's rich help keeps a docstring's line
    breaks, so that a docstring line longer than the room left broke mid-sentence
    (`each as` / `soon as it is counted`), and the commands' list broke after a
    first paragraph's first line. A paragraph that starts with \\b keeps its lines
    (click's mark for lines written as they are)."""
    if command.help:
        command.help = "\n\n".join(
            paragraph if paragraph.startswith("\b") else " ".join(paragraph.split())
            for paragraph in inspect.cleandoc(command.help).split("\n\n"))
    for sub in getattr(command, "commands", {}).values():
        rejoin_paragraphs(sub)


app = typer.Typer(cls=OneLineErrors, add_completion=False,
                  pretty_exceptions_show_locals=False)


def hold_to(text: str | None):
    """The served ceilings `serve` passed (its defaults if none): the app holds its
    searches to them (core/agents/ceilings.py)."""
    from plyground.core.agents.ceilings import Ceilings

    try:
        return Ceilings.from_text(text) if text else Ceilings()
    except ValueError:
        raise PlygroundError(f"--served-ceilings {text!r}: not ceilings as "
                             "`plyground serve` writes them") from None


@app.callback(invoke_without_command=True)
def setup(
    ctx: typer.Context,
    served: Annotated[bool, typer.Option("--served", hidden=True)] = False,
    served_agents: Annotated[Optional[list[str]], typer.Option(
        "--served-allow-agent", hidden=True)] = None,
    served_save_dir: Annotated[Optional[Path], typer.Option(
        "--served-save-dir", hidden=True)] = None,
    served_quota_files: Annotated[int, typer.Option(
        "--served-save-quota-files", hidden=True, min=1, max=100_000)] = QUOTA_FILES,
    served_quota_mb: Annotated[int, typer.Option(
        "--served-save-quota-mb", hidden=True, min=1, max=100_000)] = QUOTA_MB,
    served_ceilings: Annotated[Optional[str], typer.Option(
        "--served-ceilings", hidden=True)] = None,
) -> None:
    """A terminal workbench for game-playing AI.

    With no command, opens the app's setup screen.
    """
    if served:  # started by `plyground serve` (serve.served_command)
        from plyground.tui import app as tui_app  # Textual: only for the app

        tui_app.SERVED = tui_app.ServedLimits(tuple(served_agents or ()),
                                              served_save_dir,
                                              save_quota_files=served_quota_files,
                                              save_quota_bytes=served_quota_mb * MB,
                                              ceilings=hold_to(served_ceilings))
    if ctx.invoked_subcommand is None:
        launch()
