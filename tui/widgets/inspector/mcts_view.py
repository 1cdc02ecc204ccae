"""Live MCTS statistics: each root move's visits, share of visits, mean value (or,
once the solver proves it, `win in 1`, `loss in ≤3`, `draw`), UCT; for a search guided
by a network (PUCT, a PuctSnapshot) its prior P, Q and exploration bonus U instead.

Snapshots arrive up to five times a second and the user may re-sort at any time, so the
rows are places, not moves: each snapshot writes the root moves, sorted, into rows
0..n-1 cell by cell. Nothing is cleared (that would reset the scroll) and every column
has a fixed width (a width fitted to the cells would depend on when a snapshot came).
A table too narrow for every column first writes each move in the game's notation
instead of its description, then closes up the cells' padding, so that the move, its
visits and its mean keep their place; then it drops whole columns in a planned order
(KEEP: the bar first, then UCT, then the share), never a column cut in half.

Values are on the one scale of MCTS means, for the side to move at the root: a
percentage, a draw 50% (values.py's Scale.MEAN). PUCT's Q (−1..1) is shown so, and its
U in the same points (U × 50), so that the move with the highest Q + U is the one the
table's Q + U makes highest.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rich.cells import cell_len
from rich.text import Text
from textual.binding import Binding
from textual.cache import LRUCache
from textual.widgets import DataTable

from plyground.core.search.events import MctsSnapshot, MoveStat, PuctMoveStat, PuctSnapshot
from plyground.core.search.mcts import chosen, describe_proven
from plyground.core.search.puct import played_stat

BAR_WIDTH = 24
EIGHTHS = " ▏▎▍▌▋▊▉"


@dataclass(frozen=True)
class Columns:
    """A table's columns: keys, headers and fixed widths (None: the move's, fitted to
    the root's legal moves when a search begins); KEEP, the columns a narrow table
    keeps, the most needed first (it shows them, in `keys`' order, up to the first
    that does not fit); the value each sort sorts by, the column whose header shows
    its arrow, and the sort a header's click picks."""

    keys: tuple[str, ...]
    headers: tuple[str, ...]
    widths: tuple[int | None, ...]
    keep: tuple[str, ...]
    sort_values: dict[str, Callable]
    sort_column: dict[str, str]
    header_sort: dict[str, str]
    must: int = 3  # the first `keep` columns a narrow table gives up its descriptions
    # and padding for (notation instead of descriptions, no cell padding)


# Fixed widths for the columns whose text grows as a search runs ("91" becomes
# "1,234"): a width fitted to the first snapshot would depend on when it arrived.
UCT_COLUMNS = Columns(
    ("move", "visits", "bar", "share", "mean", "uct"),
    ("Move", "Visits", "Share of visits", "", "Mean", "UCT"),
    (None, len("9,999,999"), BAR_WIDTH, len("100.0%"), len("loss in ≤99"), len("99.999")),
    ("move", "visits", "mean", "share", "uct", "bar"),
    {"visits": lambda s: s.visits, "mean": lambda s: s.mean, "uct": lambda s: s.uct},
    {"visits": "visits", "mean": "mean", "uct": "uct", "order": "move"},
    {"move": "order", "visits": "visits", "bar": "visits", "share": "visits",
     "mean": "mean", "uct": "uct"})
# P, N, Q and U are what a PUCT search is: a narrow table keeps all four
PUCT_COLUMNS = Columns(
    ("move", "visits", "bar", "share", "prior", "mean", "uct"),
    ("Move", "N", "Share of visits", "", "P", "Q", "U"),
    # U is as wide as its points usually are (a bonus of 10,000 points needs millions
    # of simulations), so that P, N, Q and U fit at 80x24
    (None, len("9,999,999"), BAR_WIDTH, len("100.0%"), len("100.0%"), len("100.0%"),
     len("+9,999")),
    ("move", "visits", "mean", "prior", "uct", "share", "bar"),
    {"visits": lambda s: s.visits, "mean": lambda s: s.mean, "uct": lambda s: s.u,
     "prior": lambda s: s.prior},
    {"visits": "visits", "mean": "mean", "uct": "uct", "prior": "prior",
     "order": "move"},
    {"move": "order", "visits": "visits", "bar": "visits", "share": "visits",
     "prior": "prior", "mean": "mean", "uct": "uct"}, must=5)
KEEP, MUST = UCT_COLUMNS.keep, UCT_COLUMNS.keep[:UCT_COLUMNS.must]  # the MCTS table's
LAYOUTS = ((False, 1), (True, 1), (True, 0))
ARROW = {True: " ▼", False: " ▲"}  # descending: the largest first
LEFT_ALIGNED = ("move", "bar")  # the other columns hold numbers, right-aligned
MARKS = 3  # "★✓ ": the best and played marks before a move's label (not ▶, which
# the tree uses for a row to open)


def percent_text(share: float) -> str:
    """A share or a prior, 0..1, as a percentage."""
    return f"{100 * share:.1f}%"


def value_text(q: float) -> str:
    """A PUCT value (−1..1, for the side to move) on the MCTS mean scale: 0 is 50%."""
    return percent_text((q + 1) / 2)


def bonus_text(u: float) -> str:
    """A PUCT exploration bonus in value_text's points (×50): Q% + U is what the
    selection ranks."""
    points = 50 * u
    return f"{points:+,.1f}" if abs(points) < 1000 else f"{points:+,.0f}"


# how often a live table may be repainted at most (Inspector.live_interval): with each
# batch of live events the game screen hands on (five a second) for a few rows, less
# often as painting the rows costs more (0.5 to 1 ms a row, every visible row at each
# repaint: 16 ms a row between repaints keeps a key from waiting on a table being
# painted but for one key in twenty)
MAX_REPAINT_INTERVAL = 0.5
SECONDS_PER_ROW = 0.016


def share_bar(share: float, width: int = BAR_WIDTH) -> str:
    """A bar of `share` (0..1) of `width` cells, in eighths of a cell."""
    eighths = round(max(0.0, min(1.0, share)) * width * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (EIGHTHS[part] if part else "")).ljust(width)


def sorted_stats(stats, sort: str, descending: bool,
                 columns: Columns = UCT_COLUMNS) -> list[MoveStat]:
    """`stats` by `sort`; ties stay in the rules' order either way, so the order is
    the same for the same snapshot however often it is redrawn."""
    if sort == "order":
        return list(reversed(stats)) if descending else list(stats)
    value, sign = columns.sort_values[sort], -1 if descending else 1
    return [stat for _, stat in sorted(enumerate(stats),
                                       key=lambda pair: (sign * value(pair[1]), pair[0]))]


def mean_text(stat: MoveStat, ply: int) -> str:
    """A root move's mean result, or the value the solver proved (at `ply`, the
    root's): the table's Mean column and the inspector's best move say it alike."""
    if stat.proven is not None:
        return describe_proven(stat.proven, ply)
    return f"{100 * stat.mean:.1f}%"


class MctsView(DataTable):
    DEFAULT_CSS = """
    MctsView { height: auto; max-height: 1fr; background: $surface; }
    MctsView > .mcts--best { color: $accent; text-style: bold; }
    MctsView > .mcts--played { color: $success; text-style: bold; }
    """
    COMPONENT_CLASSES = {"mcts--best", "mcts--played"}
    # One footer entry, "v m c o Sort", so the game screen's keys still fit; the
    # header's arrow says which column sorts, the keys panel names each key.
    SORT_KEYS = Binding.Group("Sort")
    BINDINGS = [
        Binding("v", "sort('visits')", "Sort by visits", group=SORT_KEYS),
        Binding("m", "sort('mean')", "Sort by mean", group=SORT_KEYS),
        Binding("c", "sort('uct')", "Sort by UCT", group=SORT_KEYS),
        Binding("o", "sort('order')", "Sort in move order", group=SORT_KEYS),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="none", zebra_stripes=False, **kwargs)
        self.game = None
        self.state = None
        self.labels: dict = {}  # move -> its label, for the root's legal moves
        self.snapshot: MctsSnapshot | None = None
        self.played_move = None
        self.sort_by, self.descending = "visits", True
        self.moves: list = []  # the move shown in each row, top to bottom
        self.short_labels: dict = {}  # move -> its notation, for a narrow table
        self.painted_cells: LRUCache = LRUCache(4096)  # _render_cell's, by what they hold
        self.spec = UCT_COLUMNS  # PUCT_COLUMNS once a PuctSnapshot comes
        self.drawn_layout = (self.spec.keys, False, 1)  # planned_layout's, drawn

    def on_mount(self) -> None:
        self.add_fixed_columns()

    def column_widths(self, short: bool) -> dict[str, int]:
        labels = (self.short_labels if short else self.labels).values()
        move_width = max([cell_len(self.spec.headers[0] + ARROW[True])] +
                         [MARKS + cell_len(label) for label in labels])
        return dict(zip(self.spec.keys, (move_width,) + self.spec.widths[1:]))

    def planned_layout(self) -> tuple[tuple[str, ...], bool, int]:
        """(the columns shown, moves in notation, cell padding): the widest of LAYOUTS
        in which the first `must` columns to keep fit the table's width (the
        narrowest if none does), then the columns in `keep`'s order up to the first
        that does not fit (the move always). All of them, with descriptions, before
        the table has a width."""
        keys, keep = self.spec.keys, self.spec.keep
        if self.size.width == 0:
            return keys, False, 1
        room = self.size.width - self.styles.scrollbar_size_vertical
        for short, padding in LAYOUTS:
            widths = self.column_widths(short)
            if sum(widths[key] + 2 * padding for key in keep[:self.spec.must]) <= room:
                break
        kept, used = set(), 0
        for key in keep:  # the first that does not fit ends it: a planned order
            used += widths[key] + 2 * padding
            if used > room and key != "move":
                break
            kept.add(key)
        return tuple(key for key in keys if key in kept), short, padding

    def add_fixed_columns(self) -> None:
        self.drawn_layout = self.planned_layout()
        _, short, self.cell_padding = self.drawn_layout
        widths = self.column_widths(short)
        for key in self.shown:
            self.add_column(self.header(key), key=key, width=widths[key])

    @property
    def shown(self) -> tuple[str, ...]:
        """The columns drawn."""
        return self.drawn_layout[0]

    def on_resize(self) -> None:
        if self.planned_layout() != self.drawn_layout:
            self.relayout()
            self.redraw()

    def header(self, key: str) -> Text:
        """A column's label, over its column as its cells are: right-aligned over
        numbers (the move and the bar read from the left). The sorted column's ends in
        an arrow; the share takes the bar's label when the bar is left out."""
        text = self.spec.headers[self.spec.keys.index(key)]
        justify = "left" if key in LEFT_ALIGNED else "right"
        if key == "share" and "bar" not in self.shown:
            text = "Share"
        if key not in self.spec.sort_column.values():
            return Text(text, justify=justify)
        sorted_here = self.spec.sort_column.get(self.sort_by) == key
        return Text(text + (ARROW[self.descending] if sorted_here else ""), justify=justify)

    def begin(self, game, state) -> None:
        """A new search: new rows, and a move column as wide as the longest label."""
        self.game, self.state, self.snapshot, self.played_move = game, state, None, None
        self.labels = {move: game.describe_move(move, state) for move in state.moves()}
        self.short_labels = {move: game.format_move(move) for move in state.moves()}
        self.moves = []
        self.spec = UCT_COLUMNS
        self.relayout()

    def relayout(self) -> None:
        self.clear(columns=True)
        self.add_fixed_columns()

    @property
    def settled(self) -> bool:
        """Nothing left to draw: a row for every move of the latest snapshot, and the
        table's own measuring (done when idle) finished."""
        moves = 0 if self.snapshot is None else len(self.snapshot.stats)
        return (len(self.rows) == moves
                and self.drawn_layout == self.planned_layout()
                and not self._updated_cells and not self._require_update_dimensions)

    def feed(self, events: list) -> None:
        snapshots = [e for e in events if isinstance(e, MctsSnapshot)]
        if snapshots:
            self.show(snapshots[-1])

    def show(self, snapshot: MctsSnapshot) -> None:
        """Draw `snapshot`; a network-guided search's first one (a PuctSnapshot) sets
        the table's columns to PUCT's."""
        self.snapshot = snapshot
        columns = PUCT_COLUMNS if isinstance(snapshot, PuctSnapshot) else UCT_COLUMNS
        if columns is not self.spec:
            self.spec = columns
            if self.sort_by not in columns.sort_column:
                self.sort_by, self.descending = "visits", True
            self.relayout()
        self.redraw()

    @property
    def repaint_interval(self) -> float:
        """The least time between two live snapshots for this table. Painting a
        table costs half a millisecond or more a row, so dozens of root moves
        (Quarto's second move has 240) redrawn with every batch of live events would
        keep the app from answering keys. The game screen hands on live events no
        more often than this, so that the summary, the table and the heat map always
        show the same snapshot."""
        return min(MAX_REPAINT_INTERVAL, len(self.labels) * SECONDS_PER_ROW)

    def played(self, move) -> None:
        """The search ended and `move` was played: mark it (✓) next to the best (★)."""
        self.played_move = move
        self.redraw()

    def action_sort(self, sort: str) -> None:
        """Sort by `sort`, largest first (the rules' order first for "order"); the
        same sort again reverses it."""
        if sort == self.sort_by:
            self.descending = not self.descending
        else:
            self.sort_by, self.descending = sort, sort != "order"
        self.redraw()

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        event.stop()
        self.action_sort(self.spec.header_sort[event.column_key.value])

    def redraw(self) -> None:
        """Write the headers and the sorted moves into the rows (which only grow during
        a search: a root's expanded moves never go away).

        Only changed cells are written, as each write redraws the table; but DataTable
        redraws its header only on a write, so a new header label writes them all."""
        headers = [self.header(key) for key in self.shown]
        relabel = headers != [column.label for column in self.ordered_columns]
        for column, label in zip(self.ordered_columns, headers):
            column.label = label
        if self.snapshot is None:
            return
        stats = self.snapshot.stats
        total = sum(stat.visits for stat in stats) or 1
        best = None if not stats else played_stat(stats) \
            if isinstance(self.snapshot, PuctSnapshot) else chosen(stats)
        ordered = sorted_stats(stats, self.sort_by, self.descending, self.spec)
        self.moves = [stat.move for stat in ordered]
        styles = (self.get_component_rich_style("mcts--best"),
                  self.get_component_rich_style("mcts--played"))
        for index, stat in enumerate(ordered):
            every = {
                "move": self.move_cell(stat.move, stat is best, *styles),
                "visits": Text(f"{stat.visits:,}", justify="right"),
                "bar": share_bar(stat.visits / total),
                "share": Text(f"{100 * stat.visits / total:.1f}%", justify="right"),
                "mean": self.mean_cell(stat),
                "uct": Text(bonus_text(stat.u) if isinstance(stat, PuctMoveStat)
                            else f"{stat.uct:.3f}", justify="right"),
                "prior": Text(percent_text(getattr(stat, "prior", 0.0)),
                              justify="right"),
            }
            cells = [every[key] for key in self.shown]
            row = str(index)
            if row in self.rows:
                for column, value in zip(self.shown, cells):
                    if relabel or self.get_cell(row, column) != value:
                        self.update_cell(row, column, value)
            else:
                self.add_row(*cells, key=row)

    def _render_cell(self, row_index: int, column_index: int, base_style, width: int,
                     cursor: bool = False, hover: bool = False):
        """(DataTable's, with a cache that outlives changes to other cells.) DataTable
        paints every visible cell again after any cell changes (its cache is keyed by
        a count of changes), at 0.5 to 1 ms a row; a snapshot changes every row's
        visits, but mostly leaves its move, bar, share and mean as they were. A body
        cell is painted once for what it holds, where it is and how it is styled."""
        body = row_index >= 0 and column_index >= 0  # (the header changes with a sort)
        cell = self._get_row_renderables(row_index).cells[column_index] if body else None
        if not isinstance(cell, Text):
            return super()._render_cell(row_index, column_index, base_style, width,
                                        cursor, hover)
        key = (row_index, column_index, width, base_style, cursor, hover,
               self._show_hover_cursor, self._pseudo_class_state, self.cell_padding,
               cell.plain, tuple(cell.spans), cell.style, cell.justify)
        lines = self.painted_cells.get(key)
        if lines is None:
            lines = super()._render_cell(row_index, column_index, base_style, width,
                                         cursor, hover)
            self.painted_cells[key] = lines
        return lines

    def mean_cell(self, stat: MoveStat) -> Text:
        return Text(mean_text(stat, self.state.ply), justify="right")

    def move_cell(self, move, best: bool, best_style, played_style) -> Text:
        """★ marks the move MCTS plays, ✓ the played one, each in its own place."""
        played = move == self.played_move
        if self.drawn_layout[1]:
            label = self.short_labels.get(move) or self.game.format_move(move)
        else:
            label = self.labels.get(move) or self.game.describe_move(move, self.state)
        return Text.assemble(
            ("★" if best else " ", best_style), ("✓" if played else " ", played_style),
            " ", (label, best_style if best else played_style if played else ""))
