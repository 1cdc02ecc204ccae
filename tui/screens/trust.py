"""Asking before a record runs code from outside plyground: the dialog names each agent
and the exact command or file it would run. No is the default (the focused button,
Esc and Enter); only Yes runs them."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from .dialog import Dialog


class TrustScreen(Dialog):
    """Dismisses with True (run them) or False (play those sides by hand)."""

    def __init__(self, where: str, outside: list[tuple[str, str]]) -> None:
        super().__init__()
        self.where = where
        self.outside = outside

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"{self.where} names agents from outside plyground",
                         classes="dialog-title")
            lines = Text()
            for spec, what in self.outside:
                lines.append(f"{spec}\n", style="bold")
                lines.append(f"  runs {what}\n")
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
