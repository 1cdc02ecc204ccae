"""The Quarto board: the 4 x 4 board beside the pool, the piece in hand, a turn in two
steps (place the piece in hand, then give one from the pool), the winning line, and
MCTS attention as heat on squares and on pool pieces.

A piece shows its four attributes at a glance: brackets for the shape ([■] square,
(●) round), the glyph for the fill (■ ● solid, □ ○ hollow), two rows for a tall piece
and one for a short one, and walnut or maple for dark or light (dark and light grey
without colour). At full size each piece on the board also carries its letters (TdSh);
each pool piece carries its number, as the move list writes it (b3:5).
"""
from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.color import Color
from textual.events import Click, MouseMove
from textual.geometry import Size

from plyground.core.games.quarto import QuartoMove, QuartoState, piece_name, piece_words

from .base import BoardWidget, grid_cell

BOARD_LEFT = 2  # the row numbers come first
# Between the board and the pool, and the columns a pool piece takes, at full size /
# compact: at full size a cursor mark and the piece, its number under it; compact, its
# number (which the notation uses: b3:5) before it, the cursor shown by the tray alone.
GAP = {True: 2, False: 1}
POOL_PITCH = {True: 4, False: 5}
# (columns, rows) a square takes, its gap to the next included, at full size / compact.
SQUARE_PITCH = {True: (6, 4), False: (4, 2)}
LETTERS = "abcd"


def token(piece: int) -> str:
    """The piece in three characters: brackets for the shape, the glyph for the fill."""
    if piece & 2:
        return "[□]" if piece & 1 else "[■]"
    return "(○)" if piece & 1 else "(●)"


def is_tall(piece: int) -> bool:
    return bool(piece & 8)


def is_dark(piece: int) -> bool:
    return bool(piece & 4)


class QuartoBoard(BoardWidget):
    DEFAULT_CSS = """
    QuartoBoard { width: auto; height: auto; padding: 0 1; }
    QuartoBoard.-compact { padding: 0; }  /* its 39 columns fill the column at 80 */
    QuartoBoard:focus { background: $boost; }
    QuartoBoard > .quarto--square { background: $board; color: $text-muted; }
    QuartoBoard > .quarto--dark { background: $quarto-dark; color: auto 90%; }
    QuartoBoard > .quarto--light { background: $quarto-light; color: auto 90%; }
    QuartoBoard > .quarto--cursor { background: $accent; color: $background; }
    QuartoBoard > .quarto--win { background: $board-win; color: $board; }
    QuartoBoard > .quarto--label { color: $text-muted; }
    QuartoBoard > .quarto--last { color: $accent; text-style: bold reverse; }
    QuartoBoard > .quarto--give { color: $accent; text-style: bold; }
    """
    COMPONENT_CLASSES = {
        "quarto--square", "quarto--dark", "quarto--light", "quarto--cursor",
        "quarto--win", "quarto--label", "quarto--last", "quarto--give",
    }
    BINDINGS = [
        Binding("up", "move_cursor(-1, 0)", "Up", show=False),
        Binding("down", "move_cursor(1, 0)", "Down", show=False),
        Binding("left", "move_cursor(0, -1)", "Left", show=False),
        Binding("right", "move_cursor(0, 1)", "Right", show=False),
        Binding("enter,space", "place", "Place"),
        Binding("enter,space", "give", "Give"),
        Binding("escape", "cancel", "Back to placing"),
    ]

    def __init__(self, game, **kwargs) -> None:
        super().__init__(game, **kwargs)
        self.cursor = 5  # the square under the board's cursor (b3)
        self.pool_cursor = 0  # the piece under the pool's cursor
        self.pending: int | None = None  # where the piece in hand goes, while giving
        self.placed: int | None = None  # the square of the last move
        self.won: set[int] = set()  # the squares of the winning lines

    # --- the turn's step -----------------------------------------------------------

    @property
    def giving(self) -> bool:
        """Whether the player now picks the piece to give: at the game's first move,
        or once the piece in hand has a square."""
        state = self.state
        opening = state.hand is None and state.outcome() is None
        return self.interactive and (opening or self.pending is not None)

    @property
    def hint(self) -> str:
        state = self.state
        other = self.game.side_labels[1 - state.to_move]
        if state.hand is None:
            return f"give {other} a piece: arrows and Enter, or a click in the pool"
        return (f"place {piece_name(state.hand)} (arrows and Enter, or a click on a "
                "square), then give a piece")

    def prompt(self) -> str:
        if self.pending is None:
            return ""
        state = self.state
        other = self.game.side_labels[1 - state.to_move]
        return (f"{piece_name(state.hand)} goes on {self.game.square_name(self.pending)}. "
                f"Now give {other} a piece: arrows and Enter, or a click in the pool; "
                "Esc to place elsewhere.")

    def set_pending(self, square: int | None) -> None:
        """Start (a square) or take back (None) the give step, and say so."""
        self.pending = square
        self.post_message(self.Prompt(self.prompt()))
        self.refresh_bindings()
        self.refresh()

    # --- what the screen calls -----------------------------------------------------

    def show(self, state: QuartoState, animate: bool = False) -> None:
        previous, self.state = self.state, state
        if self.pending is not None:
            self.set_pending(None)
        placed = [s for s in range(16) if previous.board[s] < 0 <= state.board[s]]
        self.placed = placed[0] if len(placed) == 1 else None
        self.won = {square for line in state.winning_lines() for square in line}
        self.pool_cursor = self.available_near(self.pool_cursor)
        self.refresh_bindings()
        self.refresh(layout=True)

    def set_interactive(self, interactive: bool) -> None:
        if not interactive and self.pending is not None:
            self.set_pending(None)
        super().set_interactive(interactive)
        self.refresh_bindings()

    # --- input -----------------------------------------------------------------------

    def check_action(self, action: str, parameters) -> bool | None:
        """Enter places or gives, as the step asks; Esc is the board's only while a
        placement waits for its give (else the screen's)."""
        if action == "place":
            return not self.giving
        if action == "give":
            return self.giving
        if action == "cancel":
            return self.pending is not None
        return True

    def action_move_cursor(self, rows: int, cols: int) -> None:
        if self.giving:
            piece = self.pool_cursor
            while 0 <= piece // 4 + rows < 4 and 0 <= piece % 4 + cols < 4:
                piece += 4 * rows + cols
                if piece in self.state.pool():  # skip the pieces already used
                    self.pool_cursor = piece
                    break
        else:
            row, col = divmod(self.cursor, 4)
            row, col = min(3, max(0, row + rows)), min(3, max(0, col + cols))
            self.cursor = row * 4 + col
        self.refresh()

    def action_place(self) -> None:
        self.place(self.cursor)

    def action_give(self) -> None:
        self.give(self.pool_cursor)

    def action_cancel(self) -> None:
        self.cursor = self.pending
        self.set_pending(None)

    def place(self, square: int) -> None:
        """Put the piece in hand on `square` and go on to the give step; a placement
        that ends the game, or one the rules refuse, goes to the screen at once."""
        state = self.state
        if self.interactive and state.hand is not None and state.board[square] < 0 \
                and not state.wins_at(square) and state.pool():
            self.set_pending(square)
        else:  # ends the game, or the screen says why not
            self.post_message(self.MoveChosen(QuartoMove(square, None)))

    def give(self, piece: int) -> None:
        """Give `piece`: the move is complete (the screen says why if it is refused)."""
        self.post_message(self.MoveChosen(QuartoMove(self.pending, piece)))

    def available_near(self, piece: int) -> int:
        """`piece` if it is still in the pool, else the first piece that is."""
        pool = self.state.pool()
        return piece if piece in pool or not pool else pool[0]

    def target_at(self, event) -> tuple[str, int] | None:
        """("square", square) or ("piece", piece) under the mouse, or None."""
        offset = event.get_content_offset(self)
        if offset is None:
            return None
        square = grid_cell(offset, (BOARD_LEFT, self.board_top), self.square_pitch, 4, 4)
        if square is not None:
            return "square", square
        piece = grid_cell(offset, (self.pool_left, self.board_top),
                          (POOL_PITCH[self.large], self.square_pitch[1]), 4, 4)
        return None if piece is None else ("piece", piece)

    def on_click(self, event: Click) -> None:
        target = self.target_at(event)
        if target is None:
            return
        self.focus()
        kind, index = target
        if kind == "square":
            self.cursor = index
            self.place(index)
        else:
            if self.giving and index in self.state.pool():
                self.pool_cursor = index
            self.give(index)

    def on_mouse_move(self, event: MouseMove) -> None:
        target = self.target_at(event)
        if target is None or not self.interactive:
            return
        kind, index = target
        if kind == "square" and not self.giving and index != self.cursor:
            self.cursor = index
            self.refresh()
        elif kind == "piece" and self.giving and index in self.state.pool() \
                and index != self.pool_cursor:
            self.pool_cursor = index
            self.refresh()

    # --- geometry ----------------------------------------------------------------------

    def set_large(self, large: bool) -> None:
        super().set_large(large)
        self.set_class(not large, "-compact")

    @property
    def square_pitch(self) -> tuple[int, int]:
        return SQUARE_PITCH[self.large]

    @property
    def board_top(self) -> int:
        """The hand's two rows, and at full size a blank row, come first."""
        return 3 if self.large else 2

    @property
    def pool_left(self) -> int:
        return BOARD_LEFT + 4 * self.square_pitch[0] + GAP[self.large]

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.pool_left + 4 * POOL_PITCH[self.large]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.board_top + 4 * self.square_pitch[1] + 1 + self.large + \
            len(self.legend_rows())

    # --- drawing -----------------------------------------------------------------------

    @property
    def square_width(self) -> int:
        """A square's own columns: at full size a gap follows, compact squares touch."""
        return self.square_pitch[0] - self.large

    def piece_style(self, piece: int) -> Style:
        return self.get_component_rich_style("quarto--dark" if is_dark(piece)
                                             else "quarto--light")

    def piece_rows(self, piece: int) -> list[Text]:
        """The piece as its top row (empty unless it is tall) and its body row."""
        shape, style = token(piece), self.piece_style(piece)
        top = Text(f"{shape[0]} {shape[2]}", style) if is_tall(piece) else Text("   ")
        return [top, Text(shape, style)]

    def square_style(self, square: int) -> Style:
        style = self.get_component_rich_style
        base = style("quarto--square")
        if not self.large and sum(divmod(square, 4)) % 2:  # touching squares: chequer
            base += Style(bgcolor=Color.from_rich_color(base.bgcolor).darken(0.12)
                          .rich_color)
        if square == self.pending or (self.interactive and not self.giving
                                      and square == self.cursor):
            return base + style("quarto--cursor")
        if square in self.won:
            return base + style("quarto--win")
        if self.state.board[square] < 0:
            return self.heat_tint(base, self.square_heat().get(square, 0.0))
        return base

    def square_heat(self) -> dict[int, float]:
        return self.heat_by("square")

    def square_rows(self, square: int) -> list[Text]:
        """A square's rows: its piece (or, while giving, the piece in hand placed
        there) with at full size its letters; else a dot, or at full size the heat."""
        piece = self.state.hand if square == self.pending else self.state.board[square]
        if piece is not None and piece >= 0:
            rows = self.piece_rows(piece) + [Text(piece_name(piece))] * self.large
        else:
            share = self.square_heat().get(square, 0.0)
            mark = f"{share:.0%}" if (self.large and share >= 0.005
                                      and not self.marked) else "·"
            rows = [Text(""), Text(mark), Text("")][:2 + self.large]
        style = self.square_style(square)
        return [pad(row, self.square_width, style) for row in rows]

    def pool_rows(self, piece: int) -> list[Text]:
        """A pool piece on its tray, the cursor's mark beside it and at full size its
        number under it (compact, its number before it, and the tray marks the
        cursor); a piece that left the pool leaves a dot, so the others keep their
        places."""
        style = self.get_component_rich_style
        tray = self.heat_tint(style("quarto--square"),
                              self.heat_by("give").get(piece, 0.0))
        if piece not in self.state.pool():
            rows = [Text(""), Text("·", "dim"), Text("")]
        else:
            here = self.giving and piece == self.pool_cursor
            if here:
                tray += style("quarto--cursor")
            top, body = self.piece_rows(piece)
            if self.large:
                rows = [top, Text("▸" if here else " ") + body, Text(f"{piece}")]
            else:
                number = Text(f"{piece:>2}", "" if here else
                              self.get_component_rich_style("quarto--label"))
                rows = [Text("  ") + top, number + body]
        return [pad(row, POOL_PITCH[self.large], tray) for row in rows[:2 + self.large]]

    def hand_rows(self) -> list[Text]:
        """Who holds which piece, and what for; at the start, who gives the first."""
        state, game = self.state, self.game
        side, other = game.side_labels[state.to_move], game.side_labels[1 - state.to_move]
        if state.hand is None:
            if state.outcome() is None:
                return [Text(f"{side} opens: gives {other}"), Text("a piece from the pool")]
            return [Text(f"Game over: {game.describe_outcome(state.outcome())}"),
                    Text("nobody holds a piece")]
        piece = state.hand
        doing = "to place" if self.pending is None else \
            f"placed on {game.square_name(self.pending)}"
        top, body = self.piece_rows(piece)
        words = piece_words(piece) if self.large else ""
        return [Text(f"{side} holds".ljust(15)) + top +
                Text(f" {piece_name(piece)}, piece {piece}"),
                Text(doing.ljust(15)) + body + Text(f" {words}")]

    def legend_rows(self) -> list[Text]:
        muted = self.get_component_rich_style("quarto--label")
        colours = Text.assemble((token(6), self.piece_style(6)), (" dark  ", muted),
                                (token(2), self.piece_style(2)),
                                (" light  2 rows: tall", muted))
        if not self.large:  # in the 39 columns beside the inspector at 80
            return [Text("[■] square (●) round ■● solid □○ hollow", muted), colours,
                    Text("TDSH: tall dark square hollow, and in", muted),
                    Text("lower case short light round solid", muted)]
        return [Text("[■] square  (●) round  ■● solid  □○ hollow", muted), colours,
                Text("Letters TDSH: tall dark square hollow,", muted),
                Text("lower case: short light round solid", muted)]

    def label_style(self, row: int | None = None, col: int | None = None) -> Style:
        """Row numbers and column letters; the last move's pair stands out."""
        if self.placed is not None and (row == self.placed // 4 or col == self.placed % 4):
            return self.get_component_rich_style("quarto--last")
        return self.get_component_rich_style("quarto--label")

    def render(self) -> Text:
        lines = self.hand_rows() + [Text("")] * self.large
        gap = Text(" " * self.large)  # between squares at full size
        for row in range(4):
            squares = [self.square_rows(row * 4 + col) for col in range(4)]
            pieces = [self.pool_rows(row * 4 + col) for col in range(4)]
            for line in range(self.square_pitch[1]):
                text = Text.assemble((str(4 - row), self.label_style(row=row))
                                     if line == 1 else " ", " ")
                for col in range(4):
                    text += squares[col][line] if line < len(squares[col]) else \
                        Text(" " * self.square_width)
                    text += gap
                text += " " * GAP[self.large]
                for col in range(4):
                    if line < len(pieces[col]):
                        text += pieces[col][line]
                lines.append(text)
        letters = Text(" " * BOARD_LEFT)
        for col in range(4):
            letters += pad(Text(LETTERS[col], self.label_style(col=col)),
                           self.square_width, Style()) + gap
        letters += " " * GAP[self.large]
        letters += Text("↑ give one", self.get_component_rich_style("quarto--give")) \
            if self.giving else Text("the pool", self.get_component_rich_style(
                "quarto--label"))
        lines.append(letters)
        lines += [Text("")] * self.large + self.legend_rows()
        return Text("\n", no_wrap=True).join(lines)


def pad(row: Text, width: int, style: Style) -> Text:
    """`row` on `width` columns in `style` (under the row's own styles), centred so that
    a three-column piece sits one column in."""
    left = (width - row.cell_len + 1) // 2
    padded = Text(" " * left) + row + Text(" " * (width - left - row.cell_len))
    padded.stylize_before(style)
    return padded
