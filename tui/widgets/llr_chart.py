"""The LLR chart: an SPRT's log-likelihood ratio after each counted pair, a point a
column, between its two bounds (H0 below, H1 above), drawn as wide as the widget. More
pairs than columns share a column, which shows the last of them.

    LlrChart()
    chart.show([0.1, 0.4, -0.2], lower=-2.94, upper=2.94)
"""
from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

GUTTER = 7  # the value labels, right-aligned, then the axis
POINT, STEM = "•", "│"


def scale(lower: float, upper: float, llrs: list[float]) -> tuple[float, float]:
    """The values at the chart's top and bottom rows: the bounds, or the LLRs where
    they go past them."""
    return max([upper, *llrs]), min([lower, *llrs])


def row_of(value: float, top: float, bottom: float, height: int) -> int:
    return round((top - value) / (top - bottom) * (height - 1))


def columns(llrs: list[float], width: int) -> list[float]:
    """The LLR each column shows: one a pair, or the last of each column's share."""
    if len(llrs) <= width:
        return list(llrs)
    return [llrs[(column + 1) * len(llrs) // width - 1] for column in range(width)]


def plot(llrs: list[float], lower: float, upper: float, width: int, height: int
         ) -> list[str]:
    """The chart's rows as text: a label and an axis, then the bounds as dashed lines,
    zero as a dotted one, and the LLR's points joined by stems."""
    height = max(height, 3)
    area = max(width - GUTTER, 1)
    top, bottom = scale(lower, upper, llrs)
    grid = [[" "] * area for _ in range(height)]
    labels = [""] * height
    for value, mark in ((0.0, "┈"), (lower, "╌"), (upper, "╌")):
        row = row_of(value, top, bottom, height)
        grid[row] = [mark] * area
        labels[row] = f"{value:+.2f}" if value else "0"
    previous = None
    for column, value in enumerate(columns(llrs, area)):
        row = row_of(value, top, bottom, height)
        if previous is not None:
            for between in range(min(previous, row) + 1, max(previous, row)):
                grid[between][column] = STEM
        grid[row][column] = POINT
        previous = row
    return [f"{label:>{GUTTER - 1}}{'┤' if label else '│'}{''.join(cells)}"
            for label, cells in zip(labels, grid)]


class LlrChart(Widget):
    DEFAULT_CSS = """
    LlrChart { height: 9; width: 1fr; }
    LlrChart > .llr-chart--point { color: $accent; text-style: bold; }
    LlrChart > .llr-chart--upper { color: $success; }
    LlrChart > .llr-chart--lower { color: $error; }
    LlrChart > .llr-chart--axis { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"llr-chart--point", "llr-chart--upper", "llr-chart--lower",
                         "llr-chart--axis"}

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.llrs: list[float] = []
        self.bounds = (-1.0, 1.0)

    def show(self, llrs: list[float], lower: float, upper: float) -> None:
        self.llrs, self.bounds = list(llrs), (lower, upper)
        self.refresh()

    def rows(self) -> list[str]:
        return plot(self.llrs, *self.bounds, self.size.width, self.size.height)

    def render(self) -> Text:
        """The upper bound's line in the H1 colour, the lower's in H0's, points in
        the accent colour."""
        rows = self.rows()
        lower, upper = self.bounds
        top, bottom = scale(lower, upper, self.llrs)
        height = len(rows)
        style = {name: self.get_component_rich_style(f"llr-chart--{name}")
                 for name in ("point", "upper", "lower", "axis")}
        line_style = {row_of(upper, top, bottom, height): style["upper"],
                      row_of(lower, top, bottom, height): style["lower"]}
        text = Text(no_wrap=True, overflow="crop")
        for index, row in enumerate(rows):
            text.append(row[:GUTTER], style["axis"])
            for char in row[GUTTER:]:
                text.append(char, style["point"] if char in (POINT, STEM)
                            else line_style.get(index, style["axis"]))
            if index < height - 1:
                text.append("\n")
        return text
