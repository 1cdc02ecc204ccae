"""The BOOM board: the Connect 4 board on 7 x 7 with bombs, a BOOM button, each side's
wait for its next bomb, and the explosion animated (the row flashes, the mover's pieces
in it vanish, what stood above falls)."""
from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.events import Click
from textual.geometry import Size
from textual.reactive import reactive

from plyground.core.games.boom import BOOM, BoomState, cell_of

from .connect4 import Connect4Board, line_cells

BUTTON = " BOOM (b) "
BOMB_MARK = {True: "BOMB", False: "*"}  # across a bomb's disc, at full size / compact
# The explosion's phases, as shares of its run: the row flashes (on, off, on), then the
# mover's pieces in it are gone, then the pieces above have fallen.
FLASHES, VANISHED = (0.0, 0.15, 0.3), 0.45
FALLEN = 0.7


@dataclass(frozen=True)
class Explosion:
    before: BoomState  # the position the BOOM was played in
    row: int  # the bomb's row
    side: int  # the side that set it off


class BoomBoard(Connect4Board):
    hint = "1-7, or ←/→ and Enter, or click a column; b or the button: BOOM"
    DEFAULT_CSS = """
    BoomBoard > .board--hole { color: $background; background: $panel; }
    BoomBoard > .board--first { color: $boom-first; background: $panel; }
    BoomBoard > .board--second { color: $boom-second; background: $panel; }
    BoomBoard > .boom--flash { background: $warning; }
    BoomBoard > .boom--bomb { color: $background; }
    BoomBoard > .boom--button { background: $error; color: $text; text-style: bold; }
    BoomBoard > .boom--button-off { background: $panel; color: $text-disabled; }
    """
    COMPONENT_CLASSES = {"boom--flash", "boom--bomb", "boom--button", "boom--button-off"}
    BINDINGS = [Binding("b", "boom", "BOOM")]

    blast = reactive(0.0)  # how far the explosion has run, 0 to 1

    def __init__(self, game, **kwargs) -> None:
        super().__init__(game, **kwargs)
        self.explosion: Explosion | None = None
        self.after_explosion: BoomState | None = None  # the next move, waiting its turn

    # --- what the screen calls ---------------------------------------------------

    def show(self, state: BoomState, animate: bool = False) -> None:
        """As Connect 4; a move made while an explosion runs (a quick reply) is shown
        once it ends."""
        if animate and self.explosion is not None:
            self.after_explosion = state
            return
        self.explosion = self.after_explosion = None
        super().show(state, animate)

    def animate_move(self, previous: BoomState, state: BoomState) -> None:
        if state.history[-1] != BOOM:
            super().animate_move(previous, state)
        elif previous.history == state.history[:-1] and self.app.animation_level != "none":
            side = previous.to_move
            _, row = cell_of(previous.bombs[side])
            self.explosion = Explosion(previous, row, side)
            self.win_cells = 0  # a line the BOOM makes shows once the pieces fall
            self.blast = 0.0
            self.animate("blast", 1.0, duration=1.0, on_complete=self._exploded,
                         level="basic")

    def _exploded(self) -> None:
        if self.explosion is None:
            return  # the screen showed another position meanwhile
        self.explosion = None
        self.win_cells = line_cells(self.board, self.state)
        if self.after_explosion is not None:
            self.show(self.after_explosion, animate=True)
        self.refresh()

    # --- input -------------------------------------------------------------------

    @property
    def can_boom(self) -> bool:
        """Whether the button is live: a human's turn with a bomb on the board."""
        return self.interactive and BOOM in self.state.moves()

    def action_boom(self) -> None:
        """BOOM; when it is not legal the screen says why."""
        self.post_message(self.MoveChosen(BOOM))

    def on_click(self, event: Click) -> None:
        """The button; Textual then calls Connect4Board's handler, for the columns."""
        offset = event.get_content_offset(self)
        if offset is not None and offset.y == self.button_line and \
                0 <= offset.x < len(BUTTON):
            self.focus()
            self.action_boom()

    # --- what is shown -------------------------------------------------------------

    def shown(self) -> BoomState:
        """The position on the board: before the BOOM while its row flashes and its
        pieces vanish, else the state."""
        if self.explosion is not None and self.blast < FALLEN:
            return self.explosion.before
        return self.state

    def side_at(self, column: int, row: int) -> int | None:
        explosion = self.explosion
        if explosion is None:
            return super().side_at(column, row)
        side = self.shown().cell(column, row)
        if VANISHED <= self.blast < FALLEN and row == explosion.row \
                and side == explosion.side:
            return None
        return side

    def flashing(self, row: int) -> bool:
        """Whether `row` is the exploding row at a moment it lights up."""
        if self.explosion is None or row != self.explosion.row or self.blast >= VANISHED:
            return False
        return sum(self.blast >= start for start in FLASHES) % 2 == 1

    def disc(self, column: int, row: int, line: int, style: Style) -> Text:
        """A disc, with a bomb's mark in its middle row (its top row when compact);
        the exploding row's cells flash."""
        if self.flashing(row):
            style = style + Style(bgcolor=self.get_component_rich_style(
                "boom--flash").bgcolor)
        mark_line = len(self.glyph_rows) // 2 if self.large else 0
        if line != mark_line or self.side_at(column, row) is None or \
                not self.shown().is_bomb(column, row):
            return super().disc(column, row, line, style)
        glyph, mark = self.glyph_rows[line], BOMB_MARK[self.large]
        start = (len(glyph) - len(mark)) // 2
        bomb = self.get_component_rich_style("boom--bomb")
        mark_style = Style(color=bomb.color, bgcolor=style.color)
        return Text.assemble((glyph[:start], style), (mark, mark_style),
                             (glyph[start + len(mark):], style))

    # --- below the grid: the bombs and the button -----------------------------------

    @property
    def button_line(self) -> int:
        """The content row of the BOOM button: after a gap and the two sides' bomb
        lines at full size; compact, after one line for both bombs."""
        return self.grid_height + (3 if self.large else 1)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.button_line + 1

    def side_dot(self, side: int) -> tuple[str, Style]:
        style = self.get_component_rich_style(("board--first", "board--second")[side])
        return "●", Style(color=style.color)

    def bomb_line(self, side: int) -> Text:
        """The side's colour, its name, and its bomb: on the board, or how soon."""
        return Text.assemble(self.side_dot(side), f" {self.game.side_labels[side]}: "
                             f"{self.state.bomb_status(side)}")

    def bombs_line(self) -> Text:
        """Compact, both bombs on one line, each after its side's colour:
        `Bombs: ● on board  ● in 3 turns`."""
        parts: list = ["Bombs:"]
        for side in (0, 1):
            parts += ["  " if side else " ", self.side_dot(side),
                      " " + self.state.bomb_status(side, short=True)]
        return Text.assemble(*parts)

    def button(self) -> Text:
        """Live (and saying whose bomb) only when the player to move may BOOM."""
        if self.can_boom:
            side = self.game.side_labels[self.state.to_move]
            return Text.assemble((BUTTON, self.get_component_rich_style("boom--button")),
                                 f" sets off {side}'s bomb")
        return Text(BUTTON, self.get_component_rich_style("boom--button-off"))

    def render(self) -> Text:
        lines = [super().render()]
        if self.large:
            lines += [Text(""), self.bomb_line(0), self.bomb_line(1)]
        else:
            lines.append(self.bombs_line())
        lines.append(self.button())
        return Text("\n", no_wrap=True).join(lines)
