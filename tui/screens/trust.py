"""Asking before a record runs code from outside plyground: the dialog names each agent
and what it would run, one argument a line (the program, then each argument as it is
passed; a Python file by its full path). No is the default (the focused button, Esc and
Enter); only Yes runs them.

An agent whose spec holds a character a terminal does not show as it is (a control
character such as ESC, a bidi or zero-width character) is never asked about: such a
character could redraw or hide the very line that says what would run. It is refused
outright (`refused_outright`), its side played by hand, and the line that says so shows
the spec with its escapes."""
from __future__ import annotations

import shlex
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from plyground.core.catalogue import agent_kinds
from plyground.core.errors import visible
from plyground.core.plugins import names_a_file, split_plugin_ref

from .dialog import Dialog

Outside = list[tuple[str, str]]  # (spec, what it would run), as core/trust.py says


def hides_text(spec: str) -> bool:
    """Whether `spec` holds a character a terminal would not show as it is."""
    return visible(spec) != spec


def refused_outright(outside: Outside) -> tuple[Outside, Outside]:
    """(the agents refused outright, those the user may be asked about)."""
    return ([entry for entry in outside if hides_text(entry[0])],
            [entry for entry in outside if not hides_text(entry[0])])


def not_run(specs: list[str]) -> str:
    """The line that says which agents were not run (each with its escapes shown), and
    why for those refused outright."""
    hiding = [visible(spec) for spec in specs if hides_text(spec)]
    why = (f" Never asked about: {', '.join(hiding)}: "
           f"{'it holds' if len(hiding) == 1 else 'they hold'} control or invisible "
           "characters (shown here as escapes) that could hide what would run."
           if hiding else "")
    return (f"Not run: {', '.join(map(visible, specs))}.{why} Those sides are played by "
            "hand here.")


def arguments(spec: str, what: str) -> tuple[str, list[str]]:
    """What `spec` would run, as (what kind of thing, its words one a line): a
    command's program and each argument as it is passed (quoted where a space or a
    quote would blur where one ends), a Python file's full path, a module's name."""
    ref = split_plugin_ref(spec.strip())
    if ref is not None:
        source, name = ref[0].strip(), ref[1].strip()
        if names_a_file(source):
            return (f"the class {name} of the Python file",
                    [str(Path(source).expanduser().resolve())])
        return f"the class {name} of the Python module", [source]
    kind, _, settings = spec.strip().partition(":")
    words = getattr(agent_kinds().get(kind.strip()), "command_words", None)
    argv = words(settings) if words is not None else None
    if argv:
        return "the command", [shlex.quote(word) for word in argv]
    return what, []


class TrustScreen(Dialog):
    """Dismisses with True (run them) or False (play those sides by hand)."""

    def __init__(self, where: str, outside: Outside) -> None:
        super().__init__()
        self.where = where
        self.outside = outside

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"{self.where} names agents from outside plyground",
                         classes="dialog-title")
            lines = Text()
            for spec, what in self.outside:
                # (the app asks about no spec that hides text: visible is a second guard)
                lines.append(f"{visible(spec)}\n", style="bold")
                thing, words = arguments(spec, what)
                lines.append(f"  runs {visible(thing)}" + (":\n" if words else "\n"))
                for word in words:
                    lines.append(f"    {visible(word)}\n")
            lines.append("\nRun them only if you trust whoever gave you this file. "
                         "No: those sides are played by hand, and nothing is run.")
            yield Static(lines, id="trust-what")
            with Horizontal(classes="dialog-buttons"):
                yield Button("No", id="no", variant="primary")
                yield Button("Yes, run them", id="yes", variant="error")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_cancel(self) -> None:
        self.dismiss(False)
