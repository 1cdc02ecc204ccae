"""The game screen's walk through the past: a position chosen in the move list, or
reached with `[ ]` and `{ }`, is shown on the board while the live game goes on; a move
played there starts a variation, kept in the game tree; `l` goes back to the live game.

A component the screen holds (`screen.walk`); the inspector shows, for the position
viewed, what decided the move that led there and the one played from there.
"""
from __future__ import annotations

from rich.text import Text

from plyground.core.errors import IllegalMove
from plyground.core.records.tree import GameNode

from ..widgets.move_list import MoveList


class GameWalk:
    """The position viewed on one game screen (None: the live game's), and what
    decided each move a search played."""

    def __init__(self, screen) -> None:
        self.screen = screen
        self.viewing: GameNode | None = None  # a position chosen in the move list
        self.decided: dict[GameNode, Text] = {}  # a searched move: what decided it

    def view(self, node: GameNode | None) -> None:
        """Show `node`'s position (None or the live node: the live game)."""
        screen = self.screen
        if node is screen.live:
            node = None
        if node is None and self.viewing is None:
            return
        self.viewing = node
        screen.analysis.stop_hint()
        if node is None:
            screen.board.show(screen.match.state)
            screen.board.show_heat({})
            screen.inspector.show_live()
        else:
            screen.board.show_reached(node.state, node.parent and node.parent.state)
            screen.board.show_heat({})
            screen.inspector.show_past(*self.past_decision(node))
        screen.refresh_moves()
        screen.show_turn()
        screen.analysis.analyse()
        screen.refresh_bindings()

    def leave(self) -> None:
        """Back to the live game, if a position of the past is viewed."""
        if self.viewing is not None:
            self.view(None)

    def past_decision(self, node: GameNode) -> tuple[Text, Text]:
        """The inspector's summary and text for an earlier position: how its move was
        decided (a search's summary, kept when it decided), and how the next one was."""
        game = self.screen.match.game
        where = "a variation" if not node.on_main_line else \
            "the start" if node.parent is None else "the game"
        summary = Text(f"Viewing {where}: {self.position_name(node)}. "
                       "The live game goes on; l or End: back to it.", style="bold")
        text = Text()
        for title, decided in (("The move that led here", node),
                               ("The move played from here", node.children[0]
                                if node.children else None)):
            if decided is None or decided.move is None:
                continue
            text.append(f"{title}: {game.format_move(decided.move)}\n", style="bold")
            text.append_text(self.decided.get(decided, Text(
                "played by a human, or in a variation: no search decided it")))
            text.append("\n\n")
        return summary, text or Text("No move yet.")

    def position_name(self, node: GameNode) -> str:
        if node.parent is None:
            return "the start position"
        moves = self.screen.match.game.format_line(node.moves())
        return f"after {moves}" if len(moves) <= 40 else f"after …{moves[-38:]}"

    def show_status(self) -> None:
        """The status line and the board's cursor for the position viewed."""
        screen, node = self.screen, self.viewing
        outcome = node.state.outcome()
        screen.board.set_interactive(outcome is None)
        side = screen.side_label(node.state.to_move)
        if outcome is not None:
            what = f"{screen.match.game.describe_outcome(outcome)}: {outcome.reason}."
        elif screen.short:  # two short lines: the keys must stay in them
            what = "A move here starts a variation."
        else:
            what = (f"{side} to move: a move played here starts a variation "
                    "(no agent answers it).")
        keys = "[ ] walk · l live" if screen.short else "[ ]: walk · l: live game"
        screen.set_status(f"Viewing {self.position_name(node)}. {what}  {keys}")

    def play_variation(self, move) -> None:
        """A move played on a position of the past: a variation (or the move that
        was played there, walking on), kept in the tree."""
        try:
            node = self.viewing.add(move)
        except IllegalMove as error:
            self.screen.refuse(error)
            return
        self.view(node)

    def walk(self, step: int) -> None:
        """Back, or forward along the line walked (or the move chosen at a branch)."""
        screen = self.screen
        node = self.viewing or screen.live
        target = node.parent if step < 0 else screen.query_one(MoveList).next_node(node)
        if target is None:
            screen.refuse("That is the start of the game." if step < 0 else
                          "No move after this one: l goes back to the live game.")
            return
        self.view(target)

    def choose(self, step: int) -> None:
        """At a branch of the position shown, the move `]` plays: one above or below."""
        if not self.screen.query_one(MoveList).choose(step):
            self.screen.refuse("Only one move follows this position: { } choose where "
                               "several do (a branch, shown in the move list).")

    def live(self) -> None:
        """`l`: back to the live game."""
        if self.viewing is None:
            self.screen.refuse("This is the live game already: [ walks back through "
                               "its moves.")
        self.view(None)
