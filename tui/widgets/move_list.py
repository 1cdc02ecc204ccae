"""The moves played so far, numbered in pairs like a score sheet."""
from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static


def move_sheet(moves: list[str], first_ply: int = 0, first_side: int = 0,
               start: str = "") -> Text:
    """`1. 4  4` lines; a game that starts on the second side's turn opens with `…`.

    `start` names a starting position other than the usual one."""
    text = Text()
    if start:
        text.append(f"from position {start}\n", style="dim")
    if not moves:
        text.append("no moves yet", style="dim")
        return text
    cells = ["…"] * first_side + moves
    for number, start in enumerate(range(0, len(cells), 2), start=first_ply // 2 + 1):
        pair = cells[start:start + 2]
        text.append(f"{number:>3}. ", style="dim")
        text.append("  ".join(f"{m:<4}" for m in pair).rstrip() + "\n")
    return text


class MoveList(VerticalScroll):
    DEFAULT_CSS = """
    MoveList { border: round $panel-lighten-2; border-title-color: $text-muted; height: 1fr; }
    """

    def compose(self):
        yield Static(id="moves")

    def on_mount(self) -> None:
        self.border_title = "Moves"

    def show(self, moves: list[str], first_ply: int = 0, first_side: int = 0,
             start: str = "") -> None:
        self.query_one("#moves", Static).update(
            move_sheet(moves, first_ply, first_side, start))
        self.scroll_end(animate=False)
