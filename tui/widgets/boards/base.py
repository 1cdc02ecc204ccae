"""What every board widget offers the game screen."""
from __future__ import annotations

from typing import Any

from rich.style import Style
from textual.color import Color
from textual.geometry import Offset
from textual.message import Message
from textual.widget import Widget


def grid_cell(offset: Offset, origin: tuple[int, int], pitch: tuple[int, int],
              rows: int, cols: int) -> int | None:
    """The index (row by row) of the grid cell under `offset`, or None off the grid.

    The grid's top left is at `origin`; a cell and the gap after it take `pitch`
    (columns, rows)."""
    x, y = offset.x - origin[0], offset.y - origin[1]
    if x < 0 or y < 0:
        return None
    row, col = y // pitch[1], x // pitch[0]
    return row * cols + col if row < rows and col < cols else None


class BoardWidget(Widget, can_focus=True):
    """Shows a State; turns clicks and keys into `MoveChosen` messages.

    A board asks the State which moves exist (to offer choices) but never judges a
    move: the screen plays it, and the rules say why one is refused.
    """

    hint: str = ""  # how to move, for the status line
    draws_shares = True  # whether show_heat's shares show (else it need not repaint)
    DEFAULT_CSS = """
    BoardWidget > .board--heat { background: $accent; }
    """
    COMPONENT_CLASSES = {"board--heat"}

    class MoveChosen(Message):
        def __init__(self, move: Any) -> None:
            super().__init__()
            self.move = move

    class Prompt(Message):
        """What the board asks of the player now ("" when it asks nothing special)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, game, **kwargs) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.state = game.start()
        self.interactive = False
        self.large = True
        self.heat: dict[Any, float] = {}  # move -> share of the search's attention
        self.marked = False  # whether `heat` marks moves (a hint) rather than shares
        self.heat_sums: dict[str | None, dict[Any, float]] = {}  # heat_by's, this heat's
        self.heat_source = "visits"  # or "prior": what a network-guided search's heat is
        self.snapshot = None  # the search snapshot the heat shows, if it shows one
        self.priors_seen = False  # whether a search with priors (PUCT) has shown here

    def show(self, state: Any, animate: bool = False) -> None:
        """Display `state`; with `animate`, its last move is animated in."""
        raise NotImplementedError

    def show_reached(self, state: Any, before: Any | None) -> None:
        """Display `state`, reached from `before` by one move (None: the start), as
        the position chosen in the move list: its last move marked, not animated.
        (Boards find the last move by comparing with the position shown before.)"""
        self.state = state if before is None else before
        self.show(state)

    def set_interactive(self, interactive: bool) -> None:
        """Whether a human may pick a move now (shows or hides the cursor)."""
        self.interactive = interactive
        self.refresh()

    def set_large(self, large: bool) -> None:
        """Draw at full size, or compact (small screens, previews)."""
        if large != self.large:
            self.large = large
            self.refresh(layout=True)

    def show_search(self, snapshot) -> None:
        """A search's root statistics as heat: each move's share of the visits, or,
        for a search guided by a network (moves with a prior) whose heat_source is
        "prior", the network's prior."""
        stats = snapshot.stats
        priors = bool(stats) and all(hasattr(stat, "prior") for stat in stats)
        self.priors_seen = self.priors_seen or priors
        if priors and self.heat_source == "prior":
            shares = {stat.move: stat.prior for stat in stats}
        else:
            total = sum(stat.visits for stat in stats) or 1
            shares = {stat.move: stat.visits / total for stat in stats}
        self.show_heat(shares)
        self.snapshot = snapshot

    def toggle_heat_source(self) -> str:
        """Switch a network-guided search's heat between visits and prior (redrawn at
        once if the heat shows one), and say what it shows now; a board that has shown
        no such search changes nothing and says why."""
        if not self.priors_seen:
            return ("The heat shows a search's visits: a prior comes only from a "
                    "network-guided search (az), and none has run here.")
        self.heat_source = "prior" if self.heat_source == "visits" else "visits"
        if self.snapshot is not None:
            self.show_search(self.snapshot)
        return ("Heat: the network's prior for each move (x: the search's visits)."
                if self.heat_source == "prior" else
                "Heat: the search's share of visits (x: the network's prior).")

    def show_heat(self, shares: dict[Any, float]) -> None:
        """Tint where a search looks: `shares` maps moves to their share of visits
        (boards that have room write it in the cell). The board repaints only if its
        drawing changes: late in a search, the shares move by less than the whole
        percents it writes and tints by, and a repaint costs a key its wait."""
        if not (self.draws_shares or self.marked):
            self.keep_heat(shares, marked=False)
            return
        before = self.render() if self.is_mounted and not self.marked else None
        self.keep_heat(shares, marked=False)
        if before is None or self.render() != before:
            self.refresh()

    def show_marks(self, moves) -> None:
        """Mark the cells of these moves (a hint, a lesson's highlight): the heat's
        tint at its strongest, and no share written."""
        self.keep_heat({move: 1.0 for move in moves}, marked=True)
        self.refresh()

    def keep_heat(self, heat: dict[Any, float], marked: bool) -> None:
        """The heat to draw from now on, and whether it marks moves; heat_by's sums
        of the last heat are let go, and the snapshot it came from (show_search
        keeps its own)."""
        self.heat, self.marked, self.heat_sums = heat, marked, {}
        self.snapshot = None

    def heat_by(self, part: str | None = None) -> dict[Any, float]:
        """The shares summed by a part of each move (`"square"`: move.square; None:
        the move itself), worked out once for each heat: a board asks it for every
        cell it draws, and a search can have hundreds of moves (Quarto's 240)."""
        sums = self.heat_sums.get(part)
        if sums is None:
            sums = self.heat_sums[part] = {}
            for move, share in self.heat.items():
                where = move if part is None else getattr(move, part)
                sums[where] = sums.get(where, 0.0) + share
        return sums

    def heat_tint(self, style: Style, share: float) -> Style:
        """`style` with its background blended towards the heat colour by `share`, in
        whole percents (as a board writes shares: see show_heat)."""
        if share <= 0:
            return style
        cold = Color.from_rich_color(style.bgcolor)
        hot = Color.from_rich_color(self.get_component_rich_style("board--heat").bgcolor)
        amount = min(1.0, 0.15 + round(share, 2))
        return style + Style(bgcolor=cold.blend(hot, amount).rich_color)
