"""What the game screen says of the game: the players' bar above the board (who plays
which side, the seed that replays the game, paused and trace flags) and the status line
for the position shown (whose turn, the outcome, a failed search, a pause). A component
the screen holds (`screen.status`); the status line itself is the screen's set_status.
"""
from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.widgets import Static

from plyground.core.agents.learned.agent import AzAgent, shipped_net
from plyground.core.errors import visible

from .result import sentence


def network_name(agent, game) -> str | None:
    """The file an az player's network comes from, as the players' bar names it: the
    one given (net=FILE), by its name, or the game's shipped one; None for an agent
    that has no network."""
    if not isinstance(agent, AzAgent):
        return None
    given = agent.settings["net"]
    if given:
        return Path(given).name
    shipped = shipped_net(game)
    return None if shipped is None else f"{shipped.name} (shipped)"


class GameStatus:
    """The players' bar and the turn's status line of one game screen."""

    def __init__(self, screen) -> None:
        self.screen = screen

    def player_name(self, side: int, narrow: bool = False) -> str:
        """Who plays `side`: You, Human, or the agent's label with, for an az player,
        its network's file (`narrow`: the file's name alone)."""
        match = self.screen.match
        agent = match.agents[side]
        if agent is not None:
            net = network_name(agent, match.game)
            if net is None:
                return agent.label
            return f"{agent.label}, {net.removesuffix(' (shipped)')}" if narrow else \
                f"{agent.label}, net {net}"
        humans = sum(match.is_human(s) for s in (0, 1))
        return "You" if humans == 1 else "Human"

    def refresh_players(self) -> None:
        """The players' bar; where it does not fit, narrower spacing and shorter names
        (what still does not fit is cut at its end)."""
        screen = self.screen
        room = screen.app.size.width - 2  # (its padding)
        text = self.players_text(narrow=False)
        if text.cell_len > room:
            text = self.players_text(narrow=True)
        screen.query_one("#players", Static).update(text, layout=False)

    def players_text(self, narrow: bool) -> Text:
        screen = self.screen
        match, game = screen.match, screen.match.game
        gap = "  " if narrow else "   "
        sides = gap.join(f"{game.side_labels[s]}: {self.player_name(s, narrow)}"
                         for s in (0, 1))
        flags = [flag for flag, on in (("paused", screen.paused and match.watching),
                                       ("trace on", screen.trace_mode)) if on]
        text = Text(f"{game.title}{gap}", style="bold")
        text.append(visible(sides))  # an engine names itself: its escapes shown
        if match.seed is not None:  # to replay the game: play --seed, or Seed
            text.append(f"{gap}seed {match.seed}", style="dim")
        if flags:
            text.append(f"{gap}[" + ", ".join(flags) + "]", style="bold")
        return text

    def show_turn(self) -> None:
        """The status line and the board's cursor for the current position."""
        screen = self.screen
        if screen.viewing is not None:
            screen.walk.show_status()
            return
        match = screen.match
        outcome = match.outcome
        agent = match.agent_to_move()
        screen.board.set_interactive(outcome is None and agent is None)
        side = screen.side_label()
        if screen.failed is not None:
            screen.set_status(f"The search failed: {screen.failed}  The game is unchanged: "
                              "r tries again.", error=True)
        elif match.forfeit is not None:
            screen.set_status(f"{match.game.describe_outcome(outcome)}: "
                              f"{sentence(outcome.reason)}  o: another player for that "
                              "side, and go on · n: new game · Esc: setup", error=True)
        elif outcome is not None:
            screen.set_status(f"{match.game.describe_outcome(outcome)}: "
                              f"{sentence(outcome.reason)}  n: new game · u: undo · Esc: "
                              "setup")
        elif agent is None:
            yours = "" if match.is_human(1 - match.state.to_move) else " — your turn"
            hint = "" if screen.short else f": {screen.board.hint}"  # short: the footer's
            screen.set_status(f"{side} to move{yours}{hint}")
        elif screen.paused:  # a short screen's two lines: the players' bar names the agent
            who = side if screen.short else f"{side} ({agent.label})"
            screen.set_status(f"Paused. {who} is next: press . for one move, p to resume.")
        else:
            screen.set_status(f"{side} ({agent.label}) is about to move…")
