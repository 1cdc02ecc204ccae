"""The end of a game on the game screen: the result dialog (again, setup, or after a
forfeit another player for the side that forfeited, `o`, and play goes on). A component
the screen holds (`screen.end`).
"""
from __future__ import annotations

from .opponent import OpponentScreen
from .result import ResultScreen


class GameEnd:
    """The result of one game screen's game, and what the user chooses after it."""

    def __init__(self, screen) -> None:
        self.screen = screen

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
                                            replace=screen.match.forfeit is not None),
                               self.result_chosen)

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
