"""What every board widget offers the game screen."""
from __future__ import annotations

from typing import Any

from textual.message import Message
from textual.widget import Widget


class BoardWidget(Widget, can_focus=True):
    """Shows a State; turns clicks and keys into `MoveChosen` messages."""

    game_id: str = ""
    hint: str = ""  # how to move, for the status line

    class MoveChosen(Message):
        def __init__(self, move: Any) -> None:
            super().__init__()
            self.move = move

    def show(self, state: Any, animate: bool = False) -> None:
        """Display `state`; with `animate`, its last move is animated in."""
        raise NotImplementedError

    def set_interactive(self, interactive: bool) -> None:
        """Whether a human may pick a move now (shows or hides the cursor)."""
        raise NotImplementedError

    def set_large(self, large: bool) -> None:
        """Draw at full size, or compact (small screens, previews)."""
        raise NotImplementedError
