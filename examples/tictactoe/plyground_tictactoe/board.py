"""The tic-tac-toe board for plyground's app: a 3 x 3 grid, a cell cursor, the last
move bracketed, a finished line lit up, and MCTS attention as heat on empty cells.

A player moves with the arrows and Enter, with the keys 1-9 laid out as on a numeric
keypad (1 is a1 at the bottom left, 9 is c3), or with a click. Empty cells show their
key (after an MCTS search, their share of its playouts instead). The board only posts
the cell chosen; the rules say whether it can be played.
"""
from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.events import Click, MouseMove
from textual.geometry import Size

from plyground.tui.widgets.boards.base import BoardWidget, grid_cell

from .rules import CELLS, COLUMNS, TicTacToeState

LABEL_WIDTH = 2  # the row numbers, left of the grid
# A cell's (columns, text rows) at full size and compact; grid lines come between.
CELL_SIZE = {True: (7, 3), False: (5, 1)}
# The pieces at full size, three rows of three characters.
GLYPHS = (("╲ ╱", " ╳ ", "╱ ╲"), ("╭─╮", "│ │", "╰─╯"))
# Arrow keys: (columns, rows) to step, rows counted upwards as the notation counts them.
STEPS = {"up": (0, 1), "down": (0, -1), "left": (-1, 0), "right": (1, 0)}


class TicTacToeBoard(BoardWidget):
    hint = "1-9 (keypad order: 1 is a1), or arrows and Enter, or click a cell"
    DEFAULT_CSS = """
    TicTacToeBoard { width: auto; height: auto; padding: 1 2; }
    TicTacToeBoard:focus { background: $boost; }
    TicTacToeBoard > .board--line { color: $board; }
    TicTacToeBoard > .board--hole { color: $text-muted; background: $board-hole; }
    TicTacToeBoard > .board--x { color: $ttt-x; background: $board-hole; text-style: bold; }
    TicTacToeBoard > .board--o { color: $ttt-o; background: $board-hole; text-style: bold; }
    TicTacToeBoard > .board--win { background: $board-win; }
    TicTacToeBoard > .board--cursor { background: $accent; color: $background; }
    TicTacToeBoard > .board--last { color: $accent; text-style: bold; }
    TicTacToeBoard > .board--label { color: $text-muted; }
    """
    COMPONENT_CLASSES = {
        "board--line", "board--hole", "board--x", "board--o", "board--win",
        "board--cursor", "board--last", "board--label",
    }
    BINDINGS = [
        *(Binding(key, f"move_cursor({dx}, {dy})", key.title(), show=False)
          for key, (dx, dy) in STEPS.items()),
        Binding("enter,space", "place", "Place"),
        *(Binding(str(cell + 1), f"place_at({cell})", "Place on a cell", key_display="1-9",
                  show=cell == 0)
          for cell in range(CELLS)),
    ]

    def __init__(self, game, **kwargs) -> None:
        super().__init__(game, **kwargs)
        self.cursor = 4  # the centre
        self.win_cells = 0

    # --- what the screen calls ---------------------------------------------------

    def show(self, state: TicTacToeState, animate: bool = False) -> None:
        self.state = state
        self.win_cells = state.line_cells()
        self.refresh(layout=True)

    # --- input -------------------------------------------------------------------

    def action_move_cursor(self, dx: int, dy: int) -> None:
        row, column = divmod(self.cursor, 3)
        self.cursor = 3 * min(2, max(0, row + dy)) + min(2, max(0, column + dx))
        self.refresh()

    def action_place(self) -> None:
        self.post_message(self.MoveChosen(self.cursor))

    def action_place_at(self, cell: int) -> None:
        self.cursor = cell
        self.refresh()
        self.post_message(self.MoveChosen(cell))

    def cell_at(self, event) -> int | None:
        offset = event.get_content_offset(self)
        if offset is None:
            return None
        width, height = self.cell_size
        index = grid_cell(offset, (LABEL_WIDTH, 0), (width + 1, height + 1), 3, 3)
        if index is None:
            return None
        row_from_top, column = divmod(index, 3)
        return 3 * (2 - row_from_top) + column

    def on_click(self, event: Click) -> None:
        cell = self.cell_at(event)
        if cell is not None:
            self.focus()
            self.action_place_at(cell)

    def on_mouse_move(self, event: MouseMove) -> None:
        cell = self.cell_at(event)
        if cell is not None and cell != self.cursor and self.interactive:
            self.cursor = cell
            self.refresh()

    # --- drawing -------------------------------------------------------------------

    @property
    def cell_size(self) -> tuple[int, int]:
        return CELL_SIZE[self.large]

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return LABEL_WIDTH + 3 * self.cell_size[0] + 2

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 3 * self.cell_size[1] + 2 + 1  # the cells, two grid lines, the letters

    def cell_style(self, cell: int) -> Style:
        style = self.get_component_rich_style
        side = self.state.cell(cell)
        if side is None:
            base = self.heat_tint(style("board--hole"), self.heat.get(cell, 0.0))
        else:
            base = style(("board--x", "board--o")[side])
        if self.win_cells >> cell & 1:
            base += Style(bgcolor=style("board--win").bgcolor)
        if self.interactive and cell == self.cursor:
            base += Style(reverse=True) if side is not None else style("board--cursor")
        return base

    def cell_line(self, cell: int, line: int, style: Style) -> Text:
        """Text row `line` of `cell`: its piece (bracketed if it was the last move), or
        when empty its key, or the share of a search's attention it has."""
        width, height = self.cell_size
        side = self.state.cell(cell)
        middle = line == height // 2
        if side is None:
            share = self.heat.get(cell)
            label = (f"{share:.0%}" if share and not self.marked else str(cell + 1)) \
                if middle else ""
            return Text(label.center(width), style)
        piece = GLYPHS[side][line] if self.large else self.game.side_labels[side]
        if middle and cell == self.state.last_move:
            pad = (width - len(piece)) // 2
            mark = self.get_component_rich_style("board--last")
            last = style + Style(color=mark.color, bold=True)  # on the cell's background
            return Text.assemble((" " * (pad - 1), style), ("[", last), (piece, style),
                                 ("]", last), (" " * (width - pad - len(piece) - 1), style))
        return Text(piece.center(width), style)

    def render(self) -> Text:
        style = self.get_component_rich_style
        grid, label = style("board--line"), style("board--label")
        width, height = self.cell_size
        text = Text(no_wrap=True)
        for row in reversed(range(3)):
            cells = range(3 * row, 3 * row + 3)
            styles = {cell: self.cell_style(cell) for cell in cells}
            for line in range(height):
                text.append(f"{row + 1} " if line == height // 2 else "  ", label)
                for cell in cells:
                    if cell % 3:
                        text.append("│", grid)
                    text.append_text(self.cell_line(cell, line, styles[cell]))
                text.append("\n")
            if row:
                text.append(" " * LABEL_WIDTH + "┼".join(["─" * width] * 3) + "\n", grid)
        text.append(" " * LABEL_WIDTH + " ".join(c.center(width) for c in COLUMNS), label)
        return text
