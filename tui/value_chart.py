"""A value chart in block characters: one value per ply (-1..1, for the first side),
drawn as bars up and down from a zero line. `plyground review` prints it; the app's
value graph (widgets/value_graph.py) draws it with colours. Plain text: no Textual.

Rows, top to bottom: `half` rows above the zero line, the line, `half` below. A bar
is drawn to the nearest half row (▄ and █ above the line, ▀ and █ below), so a value
of +1 fills every row above the line and -1 every row below. A ply with no value (not
analysed) shows `·` on the line. The chart is `width` columns wide: a ply spreads
over several columns when there is room, and several plies share a column (their mean)
when there is not.
"""
from __future__ import annotations

from typing import Sequence

LINE, UNKNOWN, MARK_LINE, MARK = "─", "·", "┼", "│"
UP = {1: "▄", 2: "█"}  # half rows filled, above the line
DOWN = {1: "▀", 2: "█"}  # and below it


def plies_of(column: int, count: int, width: int) -> range:
    """The plies (indices of the values) that column `column` shows."""
    first = column * count // width
    return range(first, max(first + 1, (column + 1) * count // width))


def marked_columns(count: int, width: int, current: int | None) -> set[int]:
    """The columns that show ply `current` (none for None or a ply out of range)."""
    if current is None or not 0 <= current < count:
        return set()
    return {column for column in range(width) if current in plies_of(column, count,
                                                                      width)}


def column_value(values: Sequence[float | None], plies: range) -> float | None:
    known = [values[ply] for ply in plies if values[ply] is not None]
    return sum(known) / len(known) if known else None


def chart(values: Sequence[float | None], width: int, half: int = 2,
          current: int | None = None) -> list[str]:
    """The chart's 2 * half + 1 rows, each `width` characters; the columns of ply
    `current` are marked with │ in their empty cells (┼ on the line)."""
    width, half = max(0, width), max(1, half)
    count = len(values)
    rows = [[" "] * width for _ in range(2 * half + 1)]
    marked = marked_columns(count, width, current)
    for column in range(width):
        value = column_value(values, plies_of(column, count, width)) if count else None
        rows[half][column] = UNKNOWN if value is None else LINE
        filled = 0 if value is None else round(min(1.0, abs(value)) * 2 * half)
        for step in range(half):  # step 0 is the row next to the line
            halves = min(2, max(0, filled - 2 * step))
            if halves:
                row = half - 1 - step if value > 0 else half + 1 + step
                rows[row][column] = (UP if value > 0 else DOWN)[halves]
        if column in marked:
            for row in rows:
                if row[column] == " ":
                    row[column] = MARK
            if rows[half][column] == LINE:
                rows[half][column] = MARK_LINE
    return ["".join(row) for row in rows]
