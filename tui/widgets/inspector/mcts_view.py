"""Live MCTS statistics: each root move's visits, share of visits, mean value, UCT.

A DataTable updated cell by cell: snapshots arrive up to 20 times a second while the
user is typing, so only what changed is redrawn.
"""
from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

from plyground.core.search.events import MctsSnapshot

BAR_WIDTH = 24
EIGHTHS = " ▏▎▍▌▋▊▉"
COLUMNS = ("move", "visits", "bar", "share", "mean", "uct")
HEADERS = ("Move", "Visits", "Share of visits", "", "Mean", "UCT")


def share_bar(share: float, width: int = BAR_WIDTH) -> str:
    """A bar of `share` (0..1) of `width` cells, in eighths of a cell."""
    eighths = round(max(0.0, min(1.0, share)) * width * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (EIGHTHS[part] if part else "")).ljust(width)


class MctsView(DataTable):
    DEFAULT_CSS = """
    MctsView { height: auto; max-height: 1fr; background: $surface; }
    MctsView > .mcts--best { color: $accent; text-style: bold; }
    """
    COMPONENT_CLASSES = {"mcts--best"}

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="none", zebra_stripes=False, **kwargs)
        self.game = None
        self.state = None
        self.best = None
        self.snapshot: MctsSnapshot | None = None

    def on_mount(self) -> None:
        for key, header in zip(COLUMNS, HEADERS):
            self.add_column(header, key=key)

    def begin(self, game, state) -> None:
        self.game, self.state, self.best, self.snapshot = game, state, None, None
        self.clear()

    def feed(self, events: list) -> None:
        snapshots = [e for e in events if isinstance(e, MctsSnapshot)]
        if snapshots:
            self.show(snapshots[-1])

    def show(self, snapshot: MctsSnapshot) -> None:
        self.snapshot = snapshot
        total = sum(stat.visits for stat in snapshot.stats) or 1
        best = max(snapshot.stats, key=lambda s: s.visits, default=None)
        best_move = best.move if best is not None else None
        for stat in snapshot.stats:
            key = str(stat.move)
            cells = {
                "visits": Text(f"{stat.visits:,}", justify="right"),
                "bar": share_bar(stat.visits / total),
                "share": Text(f"{100 * stat.visits / total:.1f}%", justify="right"),
                "mean": Text(f"{100 * stat.mean:.1f}%", justify="right"),
                "uct": Text(f"{stat.uct:.3f}", justify="right"),
            }
            if key not in self.rows:
                self.add_row(self.move_cell(stat.move, False), *cells.values(), key=key)
            else:
                for column, value in cells.items():
                    self.update_cell(key, column, value)
        if best_move != self.best:
            for move, is_best in ((self.best, False), (best_move, True)):
                if move is not None and str(move) in self.rows:
                    self.update_cell(str(move), "move", self.move_cell(move, is_best))
            self.best = best_move

    def move_cell(self, move, best: bool) -> Text:
        label = self.game.describe_move(move, self.state)
        if best:
            return Text(f"★ {label}", style=self.get_component_rich_style("mcts--best"))
        return Text(f"  {label}")
