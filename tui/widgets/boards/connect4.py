"""The Connect 4 board: discs on a blue grid, a column cursor, falling pieces.

Other games on a gravity board (BOOM) subclass it: the grid's size comes from the
game's `GravityBoard`, and `side_at`, `disc` and `animate_move` are where they differ.
"""
from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.events import Click, MouseMove
from textual.geometry import Size
from textual.reactive import reactive

from plyground.core.games.connect4 import BOARD, Connect4State
from plyground.core.games.gravity import GravityBoard

from .base import BoardWidget

WIDTH = BOARD.width  # the column keys 1-7
# A disc drawn with half blocks, per cell size: (cell width, the cell's text rows).
LARGE = (6, (" ▄▄▄▄ ", " ████ ", " ▀▀▀▀ "))
SMALL = (5, (" ▄▄▄ ", " ▀▀▀ "))


def line_cells(board: GravityBoard, state) -> int:
    """The bits of every four in a row on the board, whoever it belongs to."""
    return board.four_cells(state.pieces[0]) | board.four_cells(state.pieces[1])


class Connect4Board(BoardWidget):
    hint = "1-7, or ←/→ and Enter, or click a column"
    draws_shares = False  # a search's shares are not drawn here, only marked columns
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
        self.board: GravityBoard = game.board
        self.cursor = self.board.width // 2
        self.falling: tuple[int, int, int] | None = None  # column, row, side
        self.win_cells = 0

    # --- what the screen calls ---------------------------------------------------

    def show(self, state: Connect4State, animate: bool = False) -> None:
        previous = self.state
        self.state = state
        self.win_cells = line_cells(self.board, state)
        self.falling = None
        if animate and state.ply == previous.ply + 1:
            self.animate_move(previous, state)
        self.refresh(layout=True)

    def animate_move(self, previous, state) -> None:
        """Animate the move that led from `previous` to `state`: its disc falls."""
        column = state.history[-1]
        row = state.column_height(column) - 1
        height = self.board.height
        self.falling = (column, row, 1 - state.to_move)
        self.fall_y = float(height)
        self.animate("fall_y", float(row), duration=0.08 * (height - row) + 0.1,
                     easing="in_quad", on_complete=self._landed, level="basic")

    def _landed(self) -> None:
        self.falling = None
        self.refresh()

    # --- input -------------------------------------------------------------------

    def action_move_cursor(self, step: int) -> None:
        self.cursor = (self.cursor + step) % self.board.width
        self.refresh()

    def action_drop(self) -> None:
        self.post_message(self.MoveChosen(self.cursor))

    def action_drop_in(self, column: int) -> None:
        self.cursor = column
        self.refresh()
        self.post_message(self.MoveChosen(column))

    def _column_at(self, event) -> int | None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y >= self.grid_height:
            return None
        column = offset.x // self.cell_width
        return column if 0 <= column < self.board.width else None

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

    @property
    def grid_height(self) -> int:
        """The cursor line, the cells and the column labels."""
        return self.board.height * len(self.glyph_rows) + 2

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.board.width * self.cell_width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.grid_height

    def side_at(self, column: int, row: int) -> int | None:
        if self.falling is not None:
            fall_column, fall_row, side = self.falling
            if column == fall_column:
                if row == fall_row:
                    return None  # still on its way down
                if row == round(self.fall_y) and self.state.cell(column, row) is None:
                    return side
        return self.state.cell(column, row)

    def disc(self, column: int, row: int, line: int, style: Style) -> Text:
        """Text row `line` of the cell at (column, row), drawn in `style`."""
        return Text(self.glyph_rows[line], style)

    def render(self) -> Text:
        style = self.get_component_rich_style
        width, columns = self.cell_width, range(self.board.width)
        text = Text(no_wrap=True)
        for column in columns:
            mark = "▼" if self.interactive and column == self.cursor else " "
            text.append(mark.center(width), style("board--cursor"))
        text.append("\n")
        piece_styles = (style("board--first"), style("board--second"))
        hole, win = style("board--hole"), style("board--win")
        # marked columns (a hint, a lesson's highlight; a move is its column) are
        # tinted; a search's shares are not drawn on this board
        marks = self.heat_by() if self.marked else {}
        holes = [self.heat_tint(hole, marks.get(column, 0.0)) for column in columns]
        for row in reversed(range(self.board.height)):
            for line in range(len(self.glyph_rows)):
                for column in columns:
                    side = self.side_at(column, row)
                    cell_style: Style = holes[column] if side is None else piece_styles[side]
                    if self.win_cells & self.board.bit(column, row):
                        cell_style = cell_style + Style(bgcolor=win.bgcolor)
                    text.append_text(self.disc(column, row, line, cell_style))
                text.append("\n")
        last = self.state.history[-1] if self.state.history else None
        for column in columns:
            label = f"{column + 1}".center(width)
            text.append(label, style("board--last" if column == last else "board--label"))
        return text
