"""The Cephalopod board: dice faces in their owner's colour, a cell cursor, capture
choice, dice leaving when captured, and MCTS attention as a heat map.

Placing on a cell with several possible captures opens a choice: the dice that can be
taken are marked, the player toggles them (arrow towards the die, or a click on it) and
confirms with Enter (or a click on the cell); Esc backs out. A cell with only one legal
move plays it at once.
"""
from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.events import Click, MouseMove
from textual.geometry import Size

from plyground.core.games.cephalopod import CephalopodMove, CephalopodState

from .base import BoardWidget, grid_cell

# Pip positions on a 3 x 3 grid (row, column) for each number of pips.
PIPS = {
    1: {(1, 1)},
    2: {(0, 0), (2, 2)},
    3: {(0, 0), (1, 1), (2, 2)},
    4: {(0, 0), (0, 2), (2, 0), (2, 2)},
    5: {(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)},
    6: {(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)},
}
LEAVE_SECONDS = 0.6  # how long captured dice stay visible, leaving


def dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def face_rows(pips: int, large: bool) -> list[str]:
    """A die face: 3 rows of 7 characters (large), or 1 row of 5 (small)."""
    if not large:
        return [f" {pips}  ".center(5)]
    rows = []
    for row in range(3):
        cells = ["●" if (row, col) in PIPS[pips] else " " for col in range(3)]
        rows.append(" " + " ".join(cells) + " ")
    return rows


class CephalopodBoard(BoardWidget):
    hint = "arrows and Enter, or a click, to place a die"
    DEFAULT_CSS = """
    CephalopodBoard { width: auto; height: auto; padding: 0 1; }
    CephalopodBoard:focus { background: $boost; }
    CephalopodBoard > .board--first { color: $dice-pips; background: $dice-first; }
    CephalopodBoard > .board--second { color: $dice-pips; background: $dice-second; }
    CephalopodBoard > .board--hole { color: $text-muted; background: $board-hole; }
    CephalopodBoard > .board--cursor { background: $accent; color: $background; }
    CephalopodBoard > .board--capturable { color: $warning; }
    CephalopodBoard > .board--chosen { background: $warning; color: $background; }
    CephalopodBoard > .board--leaving { color: $text-disabled; background: $board-hole; }
    CephalopodBoard > .board--label { color: $text-muted; }
    """
    COMPONENT_CLASSES = {
        "board--first", "board--second", "board--hole", "board--cursor",
        "board--capturable", "board--chosen", "board--leaving", "board--label",
    }
    BINDINGS = [
        Binding("up", "move_cursor(0)", "Up", show=False),
        Binding("right", "move_cursor(1)", "Right", show=False),
        Binding("down", "move_cursor(2)", "Down", show=False),
        Binding("left", "move_cursor(3)", "Left", show=False),
        Binding("enter,space", "place", "Place"),
        Binding("escape", "cancel", "Cancel capture"),
    ]

    def __init__(self, game, **kwargs) -> None:
        super().__init__(game, **kwargs)
        self.cursor = (game.rows // 2) * game.cols + game.cols // 2
        self.choosing: int | None = None  # the cell whose capture is being chosen
        self.chosen: set[int] = set()
        self.leaving: dict[int, int] = {}  # captured cell -> its die, while it leaves
        self.placed: int | None = None  # the cell of the last move

    # --- what the screen calls ---------------------------------------------------

    def choose(self, cell: int | None, chosen: set[int]) -> None:
        """Open, change or close (cell None) the capture choice, and say so."""
        self.choosing, self.chosen = cell, chosen
        self.post_message(self.Prompt(self.prompt()))
        self.refresh_bindings()  # Esc is the choice's while it is open (check_action)
        self.refresh()

    def show(self, state: CephalopodState, animate: bool = False) -> None:
        previous, self.state = self.state, state
        if self.choosing is not None:
            self.choose(None, set())
        changed = [c for c, (a, b) in enumerate(zip(previous.cells, state.cells)) if a != b]
        placed = [c for c in changed if previous.cells[c] == 0 and state.cells[c]]
        self.placed = placed[0] if len(placed) == 1 else None
        self.leaving = {}
        if animate and self.placed is not None and self.app.animation_level != "none":
            self.leaving = {c: previous.cells[c] for c in changed
                            if previous.cells[c] and not state.cells[c]}
            if self.leaving:
                self.set_timer(LEAVE_SECONDS, self._left)
        self.refresh(layout=True)

    def _left(self) -> None:
        self.leaving = {}
        self.refresh()

    def set_interactive(self, interactive: bool) -> None:
        if not interactive and self.choosing is not None:
            self.choose(None, set())
        super().set_interactive(interactive)

    # --- input -------------------------------------------------------------------

    def check_action(self, action: str, parameters) -> bool | None:
        """Esc belongs to the capture choice only while one is open (else the screen's)."""
        if action == "cancel":
            return self.choosing is not None
        return True

    def neighbour(self, cell: int, direction: int) -> int:
        return self.game.neighbours[cell][direction]

    def action_move_cursor(self, direction: int) -> None:
        if self.choosing is not None:
            target = self.neighbour(self.choosing, direction)
            if target >= 0:
                self.toggle(target)
            return
        target = self.neighbour(self.cursor, direction)
        if target >= 0:
            self.cursor = target
            self.refresh()

    def action_place(self) -> None:
        if self.choosing is not None:
            self.post_message(self.MoveChosen(CephalopodMove(
                self.choosing, tuple(n for n in self.game.neighbours[self.choosing]
                                     if n in self.chosen))))
            return
        self.place(self.cursor)

    def action_cancel(self) -> None:
        self.choose(None, set())

    def place(self, cell: int) -> None:
        """Play on `cell`: at once if it has one legal move, else open the choice."""
        moves = self.state.moves_at(cell) if self.state.cells[cell] == 0 else []
        if self.interactive and len(moves) > 1:
            self.choose(cell, set())
        else:  # one move, or none (the screen says why)
            self.post_message(self.MoveChosen(moves[0] if moves else CephalopodMove(cell)))

    def capturable(self) -> set[int]:
        """The dice some legal capture on the chosen cell would take."""
        if self.choosing is None:
            return set()
        return {c for move in self.state.moves_at(self.choosing) for c in move.captures}

    def toggle(self, cell: int) -> None:
        if cell in self.capturable():
            self.choose(self.choosing, self.chosen ^ {cell})

    def cell_at(self, event) -> int | None:
        offset = event.get_content_offset(self)
        if offset is None:
            return None
        return grid_cell(offset, (2, 1), self.cell_size, self.game.rows, self.game.cols)

    def on_click(self, event: Click) -> None:
        cell = self.cell_at(event)
        if cell is None:
            return
        self.focus()
        if self.choosing is not None and cell == self.choosing:
            self.action_place()
        elif self.choosing is not None and cell in self.capturable():
            self.toggle(cell)
        else:
            if self.choosing is not None:
                self.choose(None, set())
            self.cursor = cell
            self.place(cell)

    def on_mouse_move(self, event: MouseMove) -> None:
        cell = self.cell_at(event)
        if cell is not None and cell != self.cursor and self.interactive \
                and self.choosing is None:
            self.cursor = cell
            self.refresh()

    # --- drawing -------------------------------------------------------------------

    @property
    def cell_size(self) -> tuple[int, int]:
        """Columns and rows a cell takes, the gap to the next included."""
        return (8, 4) if self.large else (6, 2)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return max(2 + self.game.cols * self.cell_size[0], len(self.counts().plain))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 2 + self.game.rows * self.cell_size[1]  # dice counts, column letters

    def counts(self) -> Text:
        """Each side's dice: the score, always in view."""
        style = self.get_component_rich_style
        text = Text(no_wrap=True)
        text.append(f" Red {dice(self.state.dice(0))} ", style("board--first"))
        text.append("  ")
        text.append(f" Blue {dice(self.state.dice(1))} ", style("board--second"))
        return text

    def cell_style(self, cell: int, value: int) -> Style:
        style = self.get_component_rich_style
        if cell in self.leaving:
            return style("board--leaving")
        if value == 0:
            base = self.heat_tint(style("board--hole"), self.cell_heat().get(cell, 0.0))
        else:
            base = style("board--first" if value > 0 else "board--second")
        if cell == self.choosing or (self.interactive and self.choosing is None
                                     and cell == self.cursor):
            # a die keeps its colour under the cursor, inverted; a hole lights up
            base += Style(reverse=True) if value else style("board--cursor")
        if cell in self.chosen:
            base += style("board--chosen")
        elif cell in self.capturable():  # its pips light up: it can be taken
            base += Style(color=style("board--capturable").color, bold=True)
        if cell == self.placed:
            base += Style(bold=True)
        return base

    def cell_heat(self) -> dict[int, float]:
        return self.heat_by("cell")

    def cell_rows(self, cell: int) -> list[str]:
        """The text rows of a cell: a die face, a leaving die, or an empty hole."""
        value = self.leaving.get(cell, self.state.cells[cell])
        if cell == self.choosing:
            pips = sum(abs(self.state.cells[c]) for c in self.chosen)
            return self.empty_rows(f"={pips}" if pips else "?")
        if value:
            return face_rows(abs(value), self.large)
        share = self.cell_heat().get(cell)
        return self.empty_rows(f"{share:.0%}" if share and not self.marked else "·")

    def empty_rows(self, label: str) -> list[str]:
        width = self.cell_size[0] - 1
        if not self.large:
            return [label.center(width)]
        return [" " * width, label.center(width), " " * width]

    def render(self) -> Text:
        style = self.get_component_rich_style
        game, state = self.game, self.state
        width, height = self.cell_size
        text = self.counts()
        text.append("\n")
        for row in range(game.rows):
            cells = range(row * game.cols, (row + 1) * game.cols)
            faces = {cell: self.cell_rows(cell) for cell in cells}
            for line in range(height - 1):
                label = str(game.rows - row) if line == (height - 1) // 2 else " "
                text.append(f"{label} ", style("board--label"))
                for cell in cells:
                    text.append(faces[cell][line], self.cell_style(cell, state.cells[cell]))
                    text.append(" ")
                text.append("\n")
            text.append("\n")
        text.append("  ")
        for col in range(game.cols):
            text.append("abcdefghi"[col].center(width - 1) + " ", style("board--label"))
        return text

    def prompt(self) -> str:
        if self.choosing is None:
            return ""
        name = self.game.cell_name(self.choosing)
        chosen = sorted(self.chosen)
        taken = "+".join(self.game.cell_name(c) for c in chosen) or "nothing yet"
        pips = sum(abs(self.state.cells[c]) for c in chosen)
        return (f"Capture on {name}: {taken}{f' = {pips}' if chosen else ''}. Toggle dice "
                "with the arrows or clicks, Enter to play, Esc to cancel.")
