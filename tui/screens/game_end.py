"""The end of a game on the game screen: the result dialog (again, setup, or after a
forfeit another player for the side that forfeited, `o`, and play goes on). A component
the screen holds (`screen.end`).

The dialog opens once an ending: the position is redrawn after step mode, a pause or a
recording, and a dialog the user closed must not come back over what they went on to
look at. A take-back, a new game or another player for a forfeit make the game go on,
and its next ending opens it again.
"""
from __future__ import annotations

from .opponent import OpponentScreen
from .result import ResultScreen
from .setup import SetupScreen


class GameEnd:
    """The result of one game screen's game, and what the user chooses after it."""

    def __init__(self, screen) -> None:
        self.screen = screen
        self.offered = False  # whether the dialog opened (or is due) for this ending

    def over(self, delay: float) -> bool:
        """Whether the game is over; if it is, the dialog in `delay` seconds, unless it
        opened for this ending already. A game not over (again, after a take-back, a
        new game or another player for a forfeit) opens it at its next ending."""
        if self.screen.match.outcome is None:
            self.offered = False
            return False
        if not self.offered:
            self.offered = True
            self.screen.later(delay, self.show_result)
        return True

    def show_result(self) -> None:
        """The result dialog, once the game is over (kept in the history first)."""
        screen = self.screen
        screen.timer = None
        outcome = screen.match.outcome
        if outcome is None or isinstance(screen.app.screen, ResultScreen):
            return
        screen.keep_in_history()
        screen.app.engine.release_agents()
        screen.app.push_screen(ResultScreen(screen.match.game.describe_outcome(outcome),
                                            outcome.reason,
                                            replace=screen.match.forfeit is not None,
                                            again=not screen.opened_record,
                                            back=self.back_label()),
                               self.result_chosen)

    def back_label(self) -> str:
        """What leaving the game leads to (GameScreen.action_setup): the setup screen
        it was opened over, or a new one (over the app's blank first screen); else the
        one other screen a game opens over, the Match screen (its finished games)."""
        stack = self.screen.app.screen_stack
        below = stack[stack.index(self.screen) - 1] if self.screen in stack[2:] else None
        return "Back to the match" if below is not None and \
            not isinstance(below, SetupScreen) else "Setup"

    def result_chosen(self, choice: str | None) -> None:
        if choice == "replace":
            self.another_opponent()
        elif choice == "again":
            self.screen.action_new_game()
        elif choice == "setup":
            self.screen.action_setup()

    def another_opponent(self) -> None:
        """After a forfeit: pick who plays the side that forfeited, and go on."""
        screen = self.screen
        forfeit = screen.match.forfeit
        if forfeit is None:
            return
        side = 1 - forfeit.winner

        def chosen(spec: str | None) -> None:
            if spec is None:
                return
            screen.match.replace_side(side, spec)
            agent = screen.match.agents[side]
            screen.tell(f"{screen.side_label(side)} is now played by "
                        f"{'a human' if agent is None else agent.label}.")
            screen.refresh_bindings()
            screen.after_move(animate=False)

        screen.app.push_screen(OpponentScreen(screen.match.game, side), chosen)
