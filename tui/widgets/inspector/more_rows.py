"""The sign that a table in the inspector holds more rows than it shows: on a short
screen the MCTS and az tables show a few of a position's moves, and a scroll bar alone
(a shade, in colour) says nothing to many users, nor in a terminal without colour.

One line under the table, only while rows are out of sight: how many, above and
below, and how to reach them."""
from __future__ import annotations

from typing import Callable

from textual.widgets import DataTable, Static

CHECK = 0.25  # seconds between looks at the table (its size, rows and scroll)


def hidden_rows(table: DataTable, sign_row: int = 0) -> tuple[int, int]:
    """(rows above, rows below) the table's window, its header not counted, once the
    sign takes `sign_row` rows more from it (1: the sign is about to be shown)."""
    if not table.row_count or not table.size.height:
        return 0, 0
    above = round(table.scroll_y)
    window = table.scrollable_content_region.height - table.header_height - sign_row
    below = table.virtual_size.height - table.header_height - above - window
    return max(0, above), max(0, below)


def sign_text(above: int, below: int) -> str:
    """`↓ 3 more moves: i, ↓ scrolls` (i: the inspector's key), at most 31 columns for
    up to 99 rows each way: the inspector beside the board has 35 at 80 columns."""
    if above and below:
        return f"↑ {above} · ↓ {below} more: i, ↑↓ scroll"
    count, arrow = (below, "↓") if below else (above, "↑")
    return f"{arrow} {count} more move{'s' if count != 1 else ''}: i, {arrow} scrolls"


class MoreRows(Static):
    """Says how many rows of the table `shown()` returns (None: no table is shown) are
    out of sight."""

    DEFAULT_CSS = """
    MoreRows { dock: bottom; height: 1; color: $text-muted; }
    """

    def __init__(self, shown: Callable[[], DataTable | None], **kwargs) -> None:
        super().__init__(**kwargs)
        self.shown = shown
        self.hidden: tuple[int, int] = (0, 0)  # what the sign says

    def on_mount(self) -> None:
        self.set_interval(CHECK, self.follow)

    @property
    def current(self) -> bool:
        """Whether the sign says what the table holds now (a screenshot waits for it:
        the sign follows the table every CHECK seconds)."""
        table = self.shown()
        if self.display != (table is not None):
            return False
        return table is None or hidden_rows(table) == self.hidden

    def follow(self) -> None:
        """Say how many rows are out of sight, or nothing. Its row is kept either
        way while a table is shown: a row that came and went would change the
        table's window, and with it the count, as the screen is drawn."""
        table = self.shown()
        hidden = hidden_rows(table) if table is not None else (0, 0)
        if self.display != (table is not None):
            self.display = table is not None
        if hidden == self.hidden:
            return
        self.hidden = hidden
        self.update(sign_text(*hidden) if any(hidden) else "")
