"""The end-of-game dialog: who won and why, and what to do next."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label


class ResultScreen(ModalScreen[str | None]):
    """Dismisses with "again", "setup", or None (close and look at the board)."""

    DEFAULT_CSS = """
    ResultScreen { align: center middle; }
    ResultScreen > Vertical {
        width: 66; height: auto; padding: 1 2;
        border: thick $accent; background: $surface;
    }
    ResultScreen #result-title { width: 1fr; content-align: center middle; text-style: bold; }
    ResultScreen #result-reason { width: 1fr; content-align: center middle; margin-bottom: 1; }
    ResultScreen Horizontal { height: auto; align: center middle; }
    ResultScreen Button { margin: 0 1; }
    """
    BINDINGS = [
        Binding("enter", "choose('again')", "Play again", show=False),
        Binding("a", "choose('again')", "Play again"),
        Binding("s", "choose('setup')", "Setup"),
        Binding("escape", "choose(None)", "Close"),
    ]

    def __init__(self, title: str, reason: str) -> None:
        super().__init__()
        self.title_text = title
        self.reason = reason

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text.capitalize(), id="result-title")
            yield Label(self.reason.capitalize() + ".", id="result-reason")
            with Horizontal():
                yield Button("Play again", id="again", variant="primary")
                yield Button("Setup", id="setup")
                yield Button("Close", id="close")

    def on_mount(self) -> None:
        self.query_one("#again", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None if event.button.id == "close" else event.button.id)

    def action_choose(self, choice: str | None) -> None:
        self.dismiss(choice)
