"""The end-of-game dialog: who won and why, and what to do next."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from plyground.core.errors import visible


def first_capital(text: str) -> str:
    """`text` with its first letter a capital, the rest as it is (a reason may quote
    names and errors)."""
    return text[:1].upper() + text[1:]


def sentence(text: str) -> str:
    """`text` as the end of a sentence: a full stop, unless it ends in its own (a
    reason may quote an agent's message, which often does)."""
    return text if text.rstrip().endswith((".", "!", "?", "…")) else text + "."


class ResultScreen(ModalScreen[str | None]):
    """Dismisses with "again", "setup", "replace" (another player for the side that
    forfeited, offered after a forfeit), or None (close and look at the board).

    "Play again" is offered only for a game played here (`again`): a game opened from
    a record or from the Match screen's list is there to be looked at, and its dialog
    offers closing (the default) and leaving, `back` naming where to."""

    DEFAULT_CSS = """
    ResultScreen { align: center middle; }
    ResultScreen > Vertical {
        width: 66; height: auto; padding: 1 2;
        border: thick $accent; background: $surface;
    }
    ResultScreen.-replace > Vertical { width: 80; max-width: 100%; }
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
        Binding("o", "choose('replace')", "Other player"),
    ]

    def __init__(self, title: str, reason: str, replace: bool = False,
                 again: bool = True, back: str = "Setup") -> None:
        super().__init__()
        self.title_text = title
        self.reason = reason
        self.replace = replace
        self.again = again
        self.back = back

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(first_capital(self.title_text), id="result-title")
            # a reason may be a record's or an engine's words: no markup, escapes shown
            yield Label(visible(sentence(first_capital(self.reason)), lines=True),
                        id="result-reason", markup=False)
            with Horizontal():
                if self.replace:
                    yield Button("Other player, go on", id="replace", variant="primary")
                if self.again:
                    yield Button("Play again", id="again", variant="primary")
                    yield Button(self.back, id="setup")
                    yield Button("Close", id="close")
                else:
                    yield Button("Close", id="close", variant="primary")
                    yield Button(self.back, id="setup")

    def on_mount(self) -> None:
        self.set_class(self.replace, "-replace")
        first = "#replace" if self.replace else "#again" if self.again else "#close"
        self.query_one(first, Button).focus()

    def check_action(self, action: str, parameters) -> bool | None:
        if action == "choose" and parameters == ("replace",):
            return self.replace
        if action == "choose" and parameters == ("again",):
            return self.again
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None if event.button.id == "close" else event.button.id)

    def action_choose(self, choice: str | None) -> None:
        self.dismiss(choice)
