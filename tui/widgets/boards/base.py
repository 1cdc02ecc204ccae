"""What every board widget offers the game screen."""
from __future__ import annotations

from typing import Any

from textual.message import Message
from textual.widget import Widget


class BoardWidget(Widget, can_focus=True):
    """Shows a State; turns clicks and keys into `MoveChosen` messages.

    A board asks the State which moves exist (to offer choices) but never judges a
    move: the screen plays it, and the rules say why one is refused.
    """

    game_id: str = ""
    hint: str = ""  # how to move, for the status line

    class MoveChosen(Message):
        def __init__(self, move: Any) -> None:
            super().__init__()
            self.move = move

    class Prompt(Message):
        """What the board asks of the player now ("" when it asks nothing special)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, game, **kwargs) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.state = game.start()
        self.interactive = False
        self.large = True
        self.heat: dict[Any, float] = {}  # move -> share of the search's attention

    def show(self, state: Any, animate: bool = False) -> None:
        """Display `state`; with `animate`, its last move is animated in."""
        raise NotImplementedError

    def set_interactive(self, interactive: bool) -> None:
        """Whether a human may pick a move now (shows or hides the cursor)."""
        self.interactive = interactive
        self.refresh()

    def set_large(self, large: bool) -> None:
        """Draw at full size, or compact (small screens, previews)."""
        if large != self.large:
            self.large = large
            self.refresh(layout=True)

    def show_heat(self, shares: dict[Any, float]) -> None:
        """Tint where a search looks: `shares` maps moves to their share of visits."""
        self.heat = shares
        self.refresh()
