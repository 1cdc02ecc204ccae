"""The command line's Rich tables, made to stay whole at 80 columns (what a pipe gets
too): a number or a header is never cut, whatever the room left (Rich would elide
it, `10…`); only the columns of text fold onto more lines, an agent's spec after
its `/` and `:` where it can.

    table = cli_table()
    text_column(table, "agent")
    number_column(table, "wins\\nas 1st")   # a header may take two short lines
    table.add_row(Spec("examples/bots/mybot.py:MyBot"), "3")
"""
from __future__ import annotations

import re

from rich.box import SIMPLE
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from plyground.core.errors import visible


def cli_table(*headers: str) -> Table:
    """A table with a rule under its headers and two spaces between its columns (no
    more, so that its text columns keep what room there is)."""
    return Table(*headers, box=SIMPLE, show_edge=False, pad_edge=False,
                 collapse_padding=True)


def number_column(table: Table, header: str) -> None:
    """A right-aligned column that Rich never narrows below its header's widest line,
    nor wraps: its numbers and header stay whole."""
    table.add_column(header, justify="right", no_wrap=True,
                     min_width=max(map(len, header.split("\n"))))


def text_column(table: Table, header: str, min_width: int = 0) -> None:
    """A column that gives up the room the others need (down to its header's width,
    or `min_width`): a long value folds onto the next lines, whole."""
    table.add_column(header, overflow="fold", min_width=max(len(header), min_width))


class Spec:
    """An agent's spec (or a path) in a cell: too long for its column, it breaks after
    a `/` or `:` (a spec has no spaces for Rich to wrap at), and a part longer than the
    column folds."""

    def __init__(self, text: str) -> None:
        self.text = visible(text)  # a spec may be a record's or a run's: escapes shown
        self.parts = [part for part in re.findall(r"[^/:]*[/:]?", self.text) if part]

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        # in terminal cells, as a terminal shows them: a wide character takes two
        return Measurement(max(map(cell_len, self.parts), default=0), cell_len(self.text))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = [""]
        for part in self.parts:
            if lines[-1] and cell_len(lines[-1]) + cell_len(part) > options.max_width:
                lines.append("")
            lines[-1] += part
        for line in lines:
            yield Text(line, overflow="fold")
