"""The analysis panel under the board: every column's exact value for the side to move
if it plays there ("win in 5", "draw", "loss in 12"), colour-coded and aligned with the
board's columns, with the solver's progress while a hard position is being solved.

"in 5" counts the moves of the side that wins, this one included when it is the side
to move (values.py's `describe_value`). The screen runs the solver in its own process
and hands the panel what comes back.
"""
from __future__ import annotations

import time

from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from plyground.core.search.events import AnalysisProgress, SearchDone
from plyground.core.values import describe_value

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
HIDDEN_TEXT = "Analysis hidden (a shows it)."


def short_count(count: int) -> str:
    """12.3M, 456k, 789."""
    for size, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if count >= size:
            return f"{count / size:.1f}{unit}"
    return str(count)


def outlook(value: float | None, ply: int) -> tuple[str, str, str]:
    """(word, "in N", colour class) of a column's value; None: not known yet."""
    if value is None:
        return "…", "", "pending"
    if value == 0:
        return "draw", "", "draw"
    word, _, moves = describe_value(value, ply).partition(" in ")
    return word, f"in {moves}", "win" if value > 0 else "loss"


class AnalysisPanel(Widget):
    DEFAULT_CSS = """
    AnalysisPanel {
        height: auto; width: 100%; padding: 0 1;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    AnalysisPanel > .analysis--title { text-style: bold; }
    AnalysisPanel > .analysis--muted { color: $text-muted; }
    AnalysisPanel > .analysis--win { color: $success; }
    AnalysisPanel > .analysis--draw { color: $warning; }
    AnalysisPanel > .analysis--loss { color: $error; }
    AnalysisPanel > .analysis--pending { color: $text-muted; }
    AnalysisPanel > .analysis--error { color: $error; }
    """
    COMPONENT_CLASSES = {
        "analysis--title", "analysis--muted", "analysis--win", "analysis--draw",
        "analysis--loss", "analysis--pending", "analysis--error",
    }

    def __init__(self, width: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.columns = width  # the board's columns
        self.cell_width = 6
        self.state = None
        self.side = ""
        self.values: dict[int, float] = {}
        self.total = 0
        self.nodes = 0
        self.elapsed = 0.0
        self.phase = "idle"  # solving, done, over, hidden, failed
        self.reason = ""

    def on_mount(self) -> None:
        self.set_interval(0.2, self.turn_spinner)

    def turn_spinner(self) -> None:
        if self.phase == "solving":
            self.refresh()

    # --- what the screen calls ---------------------------------------------------

    def set_cell_width(self, width: int) -> None:
        self.cell_width = width
        self.refresh()

    def begin(self, state, side: str) -> None:
        self.state, self.side = state, side
        self.values, self.total, self.nodes, self.elapsed = {}, len(state.moves()), 0, 0.0
        self.phase = "solving"
        self.refresh(layout=True)

    def progress(self, event: AnalysisProgress) -> None:
        self.values = {value.move: value.value for value in event.values}
        self.total, self.nodes, self.elapsed = event.total, event.nodes, event.elapsed
        self.refresh()

    def finish(self, result: SearchDone) -> None:
        self.values = {value.move: value.value for value in result.move_values}
        self.phase = "done"
        self.refresh()

    def failed(self, reason: str) -> None:
        self.phase, self.reason = "failed", reason
        self.refresh(layout=True)

    def show_phase(self, phase: str) -> None:
        """"over" (no moves to value) or "hidden"."""
        self.phase = phase
        self.refresh(layout=True)

    # --- drawing -------------------------------------------------------------------

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 3 if self.phase in ("solving", "done") else 1

    def render(self) -> Text:
        style = self.get_component_rich_style
        if self.phase in ("idle", "over", "hidden", "failed"):
            message = {"idle": "Analysis: waiting for a position.",
                       "over": "Analysis: the game is over.",
                       "hidden": HIDDEN_TEXT,
                       "failed": f"Analysis failed: {self.reason}"}[self.phase]
            return Text(message, style("analysis--error" if self.phase == "failed"
                                       else "analysis--muted"), no_wrap=True,
                        overflow="ellipsis")
        text = Text(no_wrap=True, overflow="ellipsis")
        if self.phase == "done":
            text.append(f"Exact values, {self.side} to play", style("analysis--title"))
            text.append("  (a hides)", style("analysis--muted"))
        else:
            spinner = SPINNER[int(time.monotonic() * 10) % len(SPINNER)]
            text.append(f"{spinner} Solving ", style("analysis--title"))
            text.append(f"{len(self.values)}/{self.total} · {short_count(self.nodes)} "
                        f"nodes · {self.elapsed:.1f} s", style("analysis--muted"))
        legal = set(self.state.moves())
        best = max(self.values.values(), default=None)
        rows = (Text(no_wrap=True), Text(no_wrap=True))
        for column in range(self.columns):
            if column in legal:
                word, moves, kind = outlook(self.values.get(column), self.state.ply)
            else:
                word, moves, kind = "full", "", "pending"
            cell_style = style(f"analysis--{kind}")
            if self.phase == "done" and self.values.get(column) == best:
                cell_style += Style(bold=True)  # the best columns
            if self.cell_width <= len("in 12"):  # a small board: the number alone
                moves = moves.removeprefix("in ")
            rows[0].append(word.center(self.cell_width), cell_style)
            rows[1].append(moves.center(self.cell_width), cell_style)
        text.append("\n")
        text.append_text(rows[0])
        text.append("\n")
        text.append_text(rows[1])
        return text
