"""Live MCTS statistics: each root move's visits, share of visits, mean value, UCT."""
from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from plyground.core.search.events import MctsSnapshot

BAR_WIDTH = 24
EIGHTHS = " ▏▎▍▌▋▊▉"


def share_bar(share: float, width: int = BAR_WIDTH) -> str:
    """A bar of `share` (0..1) of `width` cells, in eighths of a cell."""
    eighths = round(max(0.0, min(1.0, share)) * width * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (EIGHTHS[part] if part else "")).ljust(width)


def snapshot_table(game, snapshot: MctsSnapshot, best_style, quiet_style) -> Table:
    table = Table(box=None, padding=(0, 1), show_edge=False)
    for header, justify in (("Move", "left"), ("Visits", "right"), ("Share of visits", "left"),
                            ("", "right"), ("Mean", "right"), ("UCT", "right")):
        table.add_column(header, justify=justify, no_wrap=True)
    total = sum(stat.visits for stat in snapshot.stats) or 1
    best = max(snapshot.stats, key=lambda s: s.visits, default=None)
    for stat in snapshot.stats:
        style = best_style if stat is best else None
        table.add_row(
            Text(("★ " if stat is best else "  ") + game.format_move(stat.move)),
            f"{stat.visits:,}",
            share_bar(stat.visits / total),
            f"{100 * stat.visits / total:.1f}%",
            f"{100 * stat.mean:.1f}%",
            f"{stat.uct:.3f}",
            style=style,
        )
    if not snapshot.stats:
        table.add_row(Text("no playout yet", style=quiet_style))
    return table


class MctsView(Static):
    DEFAULT_CSS = """
    MctsView { height: 1fr; background: $surface; padding: 0 1; }
    MctsView > .mcts--best { color: $accent; text-style: bold; }
    MctsView > .mcts--quiet { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"mcts--best", "mcts--quiet"}

    def __init__(self, **kwargs) -> None:
        super().__init__("", **kwargs)
        self.game = None
        self.snapshot: MctsSnapshot | None = None

    def begin(self, game) -> None:
        self.game, self.snapshot = game, None
        self.update(Text("waiting for the first playouts…"))

    def feed(self, events: list) -> None:
        snapshots = [e for e in events if isinstance(e, MctsSnapshot)]
        if snapshots:
            self.snapshot = snapshots[-1]
            self.update(snapshot_table(self.game, self.snapshot,
                                       self.get_component_rich_style("mcts--best"),
                                       self.get_component_rich_style("mcts--quiet")))
