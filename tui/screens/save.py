"""Saving the game as a record file: the user confirms or edits the file name; the
file is written atomically, and a failure is said in the dialog, which stays open."""
from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from plyground.core.record import GameRecord, save_record

from .dialog import Dialog


def default_name(record: GameRecord) -> str:
    """`connect4-2026-11-23-1402.txt`: the game and when it was played."""
    stamp = record.date.replace("T", "-").replace(":", "")[:15] or "game"
    return f"{record.game.id}-{stamp}.txt"


class SaveScreen(Dialog):
    """Dismisses with the path written, or None (cancelled)."""


    def __init__(self, record: GameRecord, folder: Path | None = None) -> None:
        super().__init__()
        self.record = record
        self.folder = folder or Path.cwd()

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Save the game (moves, variations and comments) as a record "
                         "file", id="save-title", classes="dialog-title")
            yield Input(str(self.folder / default_name(self.record)), id="save-path")
            yield Static(id="save-error", classes="dialog-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save", id="save", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.save()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.save()
        else:
            self.dismiss(None)

    def save(self) -> None:
        text = self.query_one("#save-path", Input).value.strip()
        error = self.query_one("#save-error", Static)
        if not text:
            error.update("Give a file name.")
            return
        path = Path(text).expanduser()
        if path.is_dir():
            error.update(Text(f"{path} is a folder: give a file name in it."))
            return
        try:
            save_record(path, self.record)
        except OSError as problem:
            error.update(Text(f"Cannot write {path}: {problem.strerror or problem}. "
                              "Nothing was changed."))
            return
        self.dismiss(str(path))
