"""What an agent from outside says it thinks (a Python bot's `report`, a protocol
engine's `info` lines): one row per report, newest last. plyground cannot see inside
its search, so this is all there is to show, in the agent's own units."""
from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from plyground.core.search.events import Info

SHOWN = 200  # the newest reports kept on screen


def info_line(game, info: Info) -> str:
    """One report as a line: `depth 5 · score +12 · 40,000 nodes · pv 4 4 3 · text`."""
    parts = []
    if info.depth is not None:
        parts.append(f"depth {info.depth}")
    if info.score is not None:
        parts.append(f"score {info.score:+g}")
    if info.nodes is not None:
        parts.append(f"{info.nodes:,} nodes")
    if info.pv:
        parts.append("pv " + " ".join(game.format_move(move) for move in info.pv))
    if info.text:
        parts.append(info.text)
    return " · ".join(parts) or "(an empty report)"


class InfoView(VerticalScroll):
    """The reports of the search under way, as a table."""

    DEFAULT_CSS = "InfoView { height: 1fr; }"

    def compose(self):
        yield Static(id="info-table")

    def begin(self, game, agent) -> None:
        self.game, self.agent, self.reports = game, agent, []
        self.query_one("#info-table", Static).update(Text(
            f"{agent.label} is an agent from outside plyground: the inspector shows "
            "what it reports while it thinks, in its own units (it has reported "
            "nothing yet)."))

    def feed(self, events: list) -> None:
        reports = [event for event in events if isinstance(event, Info)]
        if not reports:
            return
        self.reports = (self.reports + reports)[-SHOWN:]
        table = Table(box=None, padding=(0, 1), expand=True)
        for title, width in (("depth", 5), ("score", 8), ("nodes", 12)):
            table.add_column(title, justify="right", width=width, no_wrap=True)
        table.add_column("principal variation", ratio=1)
        for info in self.reports:
            line = " ".join(self.game.format_move(move) for move in info.pv)
            table.add_row("" if info.depth is None else str(info.depth),
                          "" if info.score is None else f"{info.score:+g}",
                          "" if info.nodes is None else f"{info.nodes:,}",
                          " · ".join(filter(None, (line, info.text))))
        self.query_one("#info-table", Static).update(table)
        self.scroll_end(animate=False)
