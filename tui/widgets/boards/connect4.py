"""The Connect 4 board: discs on a blue grid, a column cursor, falling pieces."""
from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.events import Click, MouseMove
from textual.geometry import Size
from textual.reactive import reactive

from plyground.core.games.connect4 import BOARD, Connect4State

from .base import BoardWidget

WIDTH, HEIGHT = BOARD.width, BOARD.height
# A disc drawn with half blocks, per cell size: (cell width, the cell's text rows).
LARGE = (6, (" ▄▄▄▄ ", " ████ ", " ▀▀▀▀ "))
SMALL = (5, (" ▄▄▄ ", " ▀▀▀ "))


def winning_cells(state: Connect4State) -> int:
    """The bits of every four-in-a-row of the winner (0 if nobody has won)."""
    winner = state.winner()
    if winner is None:
        return 0
    pieces, cells = state.pieces[winner], 0
    for window in BOARD.windows:
        if pieces & window == window:
            cells |= window
    return cells


class Connect4Board(BoardWidget):
    game_id = "connect4"
    hint = "1-7, or ←/→ and Enter, or click a column"
    DEFAULT_CSS = """
    Connect4Board {
        width: auto;
        height: auto;
        padding: 0 1;
    }
    Connect4Board:focus {
        background: $boost;
    }
    Connect4Board > .board--frame { background: $board; }
    Connect4Board > .board--hole { color: $board-hole; background: $board; }
    Connect4Board > .board--first { color: $piece-first; background: $board; }
    Connect4Board > .board--second { color: $piece-second; background: $board; }
    Connect4Board > .board--win { background: $board-win; }
    Connect4Board > .board--cursor { color: $accent; text-style: bold; }
    Connect4Board > .board--label { color: $text-muted; }
    Connect4Board > .board--last { color: $accent; text-style: bold reverse; }
    """
    COMPONENT_CLASSES = {
        "board--frame", "board--hole", "board--first", "board--second", "board--win",
        "board--cursor", "board--label", "board--last",
    }
    BINDINGS = [
        Binding("left", "move_cursor(-1)", "Column ←", show=False),
        Binding("right", "move_cursor(1)", "Column →", show=False),
        Binding("enter,space", "drop", "Drop"),
        *(
            Binding(str(c + 1), f"drop_in({c})", "Drop in column", key_display="1-7",
                    show=c == 0)
            for c in range(WIDTH)
        ),
    ]

    fall_y = reactive(0.0)

    def __init__(self, game, **kwargs) -> None:
        super().__init__(game, **kwargs)
        self.cursor = WIDTH // 2
        self.falling: tuple[int, int, int] | None = None  # column, row, side
        self.win_cells = 0

    # --- what the screen calls ---------------------------------------------------

    def show(self, state: Connect4State, animate: bool = False) -> None:
        previous = self.state
        self.state = state
        self.win_cells = winning_cells(state)
        if animate and state.ply == previous.ply + 1:
            column = state.history[-1]
            row = state.column_height(column) - 1
            self.falling = (column, row, 1 - state.to_move)
            self.fall_y = float(HEIGHT)
            self.animate("fall_y", float(row), duration=0.08 * (HEIGHT - row) + 0.1,
                         easing="in_quad", on_complete=self._landed, level="basic")
        else:
            self.falling = None
        self.refresh(layout=True)

    def _landed(self) -> None:
        self.falling = None
        self.refresh()

    # --- input -------------------------------------------------------------------

    def action_move_cursor(self, step: int) -> None:
        self.cursor = (self.cursor + step) % WIDTH
        self.refresh()

    def action_drop(self) -> None:
        self.post_message(self.MoveChosen(self.cursor))

    def action_drop_in(self, column: int) -> None:
        self.cursor = column
        self.refresh()
        self.post_message(self.MoveChosen(column))

    def _column_at(self, event) -> int | None:
        offset = event.get_content_offset(self)
        if offset is None:
            return None
        column = offset.x // self.cell_width
        return column if 0 <= column < WIDTH else None

    def on_click(self, event: Click) -> None:
        column = self._column_at(event)
        if column is not None:
            self.focus()
            self.action_drop_in(column)

    def on_mouse_move(self, event: MouseMove) -> None:
        column = self._column_at(event)
        if column is not None and column != self.cursor and self.interactive:
            self.cursor = column
            self.refresh()

    # --- drawing -------------------------------------------------------------------

    @property
    def cell_width(self) -> int:
        return (LARGE if self.large else SMALL)[0]

    @property
    def glyph_rows(self) -> tuple[str, ...]:
        return (LARGE if self.large else SMALL)[1]

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return WIDTH * self.cell_width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return HEIGHT * len(self.glyph_rows) + 2  # cursor line and column labels

    def side_at(self, column: int, row: int) -> int | None:
        if self.falling is not None:
            fall_column, fall_row, side = self.falling
            if column == fall_column:
                if row == fall_row:
                    return None  # still on its way down
                if row == round(self.fall_y) and self.state.cell(column, row) is None:
                    return side
        return self.state.cell(column, row)

    def render(self) -> Text:
        style = self.get_component_rich_style
        width = self.cell_width
        text = Text(no_wrap=True)
        for column in range(WIDTH):
            mark = "▼" if self.interactive and column == self.cursor else " "
            text.append(mark.center(width), style("board--cursor"))
        text.append("\n")
        piece_styles = (style("board--first"), style("board--second"))
        hole, win = style("board--hole"), style("board--win")
        for row in reversed(range(HEIGHT)):
            for glyph in self.glyph_rows:
                for column in range(WIDTH):
                    side = self.side_at(column, row)
                    cell_style: Style = hole if side is None else piece_styles[side]
                    if self.win_cells & BOARD.bit(column, row):
                        cell_style = cell_style + Style(bgcolor=win.bgcolor)
                    text.append(glyph, cell_style)
                text.append("\n")
        last = self.state.history[-1] if self.state.history else None
        for column in range(WIDTH):
            label = f"{column + 1}".center(width)
            text.append(label, style("board--last" if column == last else "board--label"))
        return text
