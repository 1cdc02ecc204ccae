"""The game screen's game as a record, kept in the game history (core/records/history.py)
and saved to a file (`w`): a component the screen holds (`screen.history`), one a game.

A game is added to the history once, the first time it is kept (finished, saved, or
left with moves played), then updated: a take-back, a new ending, variations.
"""
from __future__ import annotations

from plyground.core.errors import PlygroundError
from plyground.core.records.history import History
from plyground.core.records.record import now, record_of

from .save import SaveScreen


class GameHistory:
    """The record of one game screen's game and its entry in the history."""

    def __init__(self, screen, history_id: int | None = None) -> None:
        self.screen = screen
        self.history_id = history_id  # the game's entry in the history, once kept
        self.started = now()  # the record's date

    def record(self, left: bool = False):
        """The game as a record: its moves, variations and comments; an unfinished
        game `left` (for another, the setup, the end of the app) is abandoned, one
        still being played has no reason yet."""
        match = self.screen.match
        reason = "abandoned" if left and match.outcome is None else ""
        return record_of(match, self.screen.game_tree, self.started, reason)

    def keep(self, left: bool = False) -> None:
        """Keep the game (finished, saved, or left with moves played) in the game
        history: added once, then updated (a take-back and a new ending, variations).
        A served app keeps nothing: the history is the server's, not its visitor's."""
        screen = self.screen
        if getattr(screen.app, "served", None) is not None:
            return
        if not screen.match.moves and screen.match.outcome is None \
                and not screen.game_tree.root.children:
            return
        try:
            with History() as history:
                if self.history_id is None:
                    self.history_id = history.add(self.record(left), "app")
                else:
                    history.update(self.history_id, self.record(left))
        except PlygroundError as error:
            # Said once an app: each game would fail the same way, and play goes on.
            if getattr(screen.app, "history_failure", None) != str(error):
                screen.app.history_failure = str(error)
                screen.tell(f"The games are not kept in the history: {error}",
                            severity="warning")

    def save(self) -> None:
        """`w`: the save dialog; a game saved is kept in the history too."""
        screen = self.screen

        def saved(path: str | None) -> None:
            if path is not None:
                screen.tell(f"Saved to {path}  (plyground play {screen.match.game.id} "
                            f"--load FILE opens it)")
                self.keep()

        screen.app.push_screen(SaveScreen(self.record()), saved)
