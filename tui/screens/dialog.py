"""A small dialog over the screen: a bordered box in the middle, a title, an error
line and a row of buttons; Esc cancels (dismisses with None)."""
from __future__ import annotations

from textual.binding import Binding
from textual.screen import ModalScreen


class Dialog(ModalScreen):
    DEFAULT_CSS = """
    Dialog { align: center middle; }
    Dialog > Vertical {
        width: 90; max-width: 100%; height: auto; padding: 1 2;
        border: thick $accent; background: $surface;
    }
    Dialog .dialog-title { text-style: bold; margin-bottom: 1; }
    Dialog .dialog-error { color: $error; height: auto; }
    Dialog Horizontal.dialog-buttons { height: auto; margin-top: 1; }
    Dialog Button { margin-right: 2; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def action_cancel(self) -> None:
        self.dismiss(None)
