"""The value graph: a game's value per ply (-1..1, for the first side; core/study/review.py
computes it) as bars up and down from a zero line, as wide as the widget, with the
ply on the board marked. `show(values, current)` draws it; a click on a column asks
for its ply (`ValueGraph.Chosen`).

    ValueGraph()          # 5 rows by default: two above the line, the line, two below
    graph.show([0.0, 0.2, None, -1.0], current=1)
"""
from __future__ import annotations

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from plyground.tui.value_chart import chart, marked_columns, plies_of


class ValueGraph(Widget):
    DEFAULT_CSS = """
    ValueGraph { height: 5; width: 1fr; }
    ValueGraph > .value-graph--first { color: $success; }
    ValueGraph > .value-graph--second { color: $error; }
    ValueGraph > .value-graph--line { color: $text-muted; }
    ValueGraph > .value-graph--marker { color: $accent; text-style: bold; }
    """
    COMPONENT_CLASSES = {"value-graph--first", "value-graph--second",
                         "value-graph--line", "value-graph--marker"}

    class Chosen(Message):
        """The user clicked the graph at ply `ply`."""

        def __init__(self, ply: int) -> None:
            super().__init__()
            self.ply = ply

    def __init__(self, values: list[float | None] | None = None,
                 current: int | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.values: list[float | None] = list(values or [])
        self.current = current

    def show(self, values: list[float | None], current: int | None = None) -> None:
        """Draw `values` (one a ply; None: not known yet) with ply `current` marked."""
        self.values, self.current = list(values), current
        self.refresh()

    def rows(self) -> list[str]:
        """The chart's rows as plain text, at the widget's size."""
        width, height = self.size
        return chart(self.values, width, max(1, (height - 1) // 2), self.current)

    def render(self) -> Text:
        """Bars in the first side's colour above the line, the second's below; the
        marked ply's column in the marker's colour."""
        rows = self.rows()
        half = len(rows) // 2
        marked = marked_columns(len(self.values), self.size.width, self.current)
        styles = {name: self.get_component_rich_style(f"value-graph--{name}")
                  for name in ("first", "second", "line", "marker")}
        row_styles = ([styles["first"]] * half + [styles["line"]]
                      + [styles["second"]] * half)
        text = Text(no_wrap=True, overflow="crop")
        for index, row in enumerate(rows):
            if index:
                text.append("\n")
            for column, char in enumerate(row):
                text.append(char, style=styles["marker"] if column in marked
                            else row_styles[index])
        return text

    def on_click(self, event: Click) -> None:
        if self.values and 0 <= event.x < self.size.width:
            plies = plies_of(event.x, len(self.values), self.size.width)
            self.post_message(self.Chosen(plies[-1]))
