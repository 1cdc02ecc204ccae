"""Another player for one side, the game going on from where it is: after an agent
forfeits (a plugin that raised, hung or chose an illegal move), the user picks who
plays its side now."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Select, Static

from plyground.core import PlygroundError
from plyground.core.catalogue import DEFAULT_OPPONENT
from plyground.core.agents.base import check_plays
from plyground.core.play.match import parse_side
from plyground.core.errors import visible

from .dialog import Dialog
from .setup import SideRow, player_choices, spec_for


class OpponentScreen(Dialog):
    """Dismisses with the new side's spec, or None (keep the game as it ended)."""


    def __init__(self, game, side: int) -> None:
        super().__init__()
        self.game, self.side = game, side

    def compose(self) -> ComposeResult:
        label = self.game.side_labels[self.side]
        with Vertical():
            yield Static(f"Who plays {label} from here on?", id="opponent-title", classes="dialog-title")
            yield SideRow(self.side, DEFAULT_OPPONENT, "", [])
            yield Static(id="opponent-error", classes="dialog-error")
            with Horizontal(id="opponent-buttons", classes="dialog-buttons"):
                yield Button("Continue the game", id="continue", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        row = self.query_one(SideRow)
        row.query_one(Label).update(self.game.side_labels[self.side])
        row.offer(player_choices(self.game))
        self.query_one("#continue", Button).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        self.query_one(SideRow).describe(event.value)

    def on_input_submitted(self, event) -> None:
        self.choose()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "continue":
            self.choose()
        else:
            self.dismiss(None)

    def choose(self) -> None:
        row = self.query_one(SideRow)
        spec = spec_for(row.kind, row.value)
        try:
            self.app.check_choice(spec)
            agent = parse_side(spec)
            if agent is not None:
                check_plays(agent, self.game)
        except PlygroundError as problem:
            self.query_one("#opponent-error", Static).update(Text(visible(str(problem))))
            return
        self.dismiss(spec)
