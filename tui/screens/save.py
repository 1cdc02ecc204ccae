"""Saving the game as a record file: the user confirms or edits the file name; the
file is written atomically, and a failure is said in the dialog, which stays open.
An existing file is replaced only when Save is pressed a second time for it; a
symbolic link never (write_atomically). A served app (`plyground serve`) saves only
inside its visitor's own folder in the server's save folder, and only up to the
server's quota (tui/served_saves.py): its visitor must not write where the server's
user or another visitor can, nor fill the server's disk."""
from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from plyground.core import PlygroundError
from plyground.core.paths import NotReplaced, write_atomically
from plyground.core.records.record import GameRecord, format_record

from ..served_saves import OverQuota, check_quota, visitor_folder
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
        self.folder = folder
        self.replacing: Path | None = None  # the existing file Save was pressed for

    @property
    def served(self) -> bool:
        return getattr(self.app, "served", None) is not None

    @property
    def save_dir(self) -> Path | None:
        """The one folder a served app may write in: its visitor's own, inside the
        server's save folder, made at the first save dialog (None: not served, or no
        folder to save in)."""
        if not self.served or self.app.served.save_dir is None:
            return None
        try:
            return visitor_folder(self.app)
        except PlygroundError:
            return None

    def compose(self) -> ComposeResult:
        if self.save_dir is not None:
            self.folder = self.save_dir
        self.folder = self.folder or Path.cwd()
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
        if self.served and self.save_dir is None:
            error.update("This served app has no folder to save in.")
            return
        path = Path(text).expanduser()
        if self.save_dir is not None:
            path = self.save_dir / path  # (an absolute path stays as it is)
            if not path.resolve().is_relative_to(self.save_dir.resolve()):
                error.update(Text(f"Games are saved in {self.save_dir} only: give a file "
                                  "name in it."))
                return
        if path.is_dir() and not path.is_symlink():
            error.update(Text(f"{path} is a folder: give a file name in it."))
            return
        overwrite = self.replacing == path
        content = format_record(self.record)
        try:
            if self.save_dir is not None:
                limits = self.app.served
                check_quota(self.save_dir, path, len(content.encode()),
                            limits.save_quota_files, limits.save_quota_bytes)
            write_atomically(path, content, overwrite=overwrite)
        except OverQuota as refused:
            error.update(Text(str(refused)))
            return
        except NotReplaced as refused:
            self.replacing = None if refused.symlink else path
            error.update(Text(f"{refused}." if refused.symlink else
                              f"{path} already exists: press Save again to replace it."))
            return
        except OSError as problem:
            error.update(Text(f"Cannot write {path}: {problem.strerror or problem}. "
                              "Nothing was changed."))
            return
        self.dismiss(str(path))
