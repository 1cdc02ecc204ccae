"""The analysis panel under the board: every column's value for the side to move if it
plays there ("win in 5", "draw", "loss in 12"), colour-coded and aligned with the
board's columns, with the solver's progress while a hard position is being solved.

A column not solved yet shows Alpha-Beta's estimate of it, marked with a `~` and dimmed
(`~+12`, `~win` `in 3`), with a line saying what `~` means; each is replaced by the
exact value when it is proven. The spinner turns and the clock runs from the moment
the panel is handed a position (its own clock: no message from the solver is needed).

"in 5" counts the moves of the side that wins, this one included when it is the side
to move (values.py's `Score`). The screen runs the analysis in its own process
(core/connect4/analysis.py) and hands the panel what comes back.
"""
from __future__ import annotations

import time

from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from plyground.core.search.events import AnalysisProgress, SearchDone
from plyground.core.values import Bound, Score

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
TICK = 0.1  # seconds between two redraws while solving: the spinner's step, the clock's
HIDDEN_TEXT = "Analysis hidden (a shows it)."
ESTIMATE_MARK = "~"
LEGEND = f"{ESTIMATE_MARK} Alpha-Beta's estimate, until solved"


def short_count(count: int) -> str:
    """12.3M, 456k, 789."""
    for size, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if count >= size:
            return f"{count / size:.1f}{unit}"
    return str(count)


def outlook(value: float | None, ply: int,
            estimate: bool = False) -> tuple[str, str, str]:
    """(word, "in N", colour class) of a column's value; None: not known yet. An
    estimate is marked (`~+12`, `~win` `in 3`) and dimmed, whatever its sign."""
    if value is None:
        return "…", "", "pending"
    if estimate:
        word, _, moves = str(Score(value, ply)).partition(" in ")
        return ESTIMATE_MARK + word, f"in {moves}" if moves else "", "estimate"
    if value == 0:
        return "draw", "", "draw"
    word, _, moves = str(Score(value, ply)).partition(" in ")
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
    AnalysisPanel > .analysis--estimate { color: $text-muted; text-style: italic; }
    AnalysisPanel > .analysis--error { color: $error; }
    """
    COMPONENT_CLASSES = {
        "analysis--title", "analysis--muted", "analysis--win", "analysis--draw",
        "analysis--loss", "analysis--pending", "analysis--estimate", "analysis--error",
    }

    def __init__(self, width: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.columns = width  # the board's columns
        self.cell_width = 6
        self.state = None
        self.side = ""
        self.values: dict[int, float] = {}  # exact and estimated
        self.estimated: set[int] = set()  # the columns whose value is an estimate
        self.total = 0
        self.nodes = 0
        self.began = time.monotonic()  # the panel's own clock (the solver's may be fake)
        self.elapsed = 0.0
        self.frame = 0  # the spinner's, one step a redraw
        self.phase = "idle"  # solving, done, over, hidden, failed
        self.reason = ""

    def on_mount(self) -> None:
        self.set_interval(TICK, self.turn_spinner)

    def turn_spinner(self) -> None:
        if self.phase == "solving":
            self.frame += 1
            self.elapsed = time.monotonic() - self.began
            self.refresh()

    @property
    def exact(self) -> int:
        """How many columns have their exact value."""
        return len(self.values) - len(self.estimated)

    # --- what the screen calls ---------------------------------------------------

    def set_cell_width(self, width: int) -> None:
        self.cell_width = width
        self.refresh()

    def begin(self, state, side: str) -> None:
        self.state, self.side = state, side
        self.values, self.estimated = {}, set()
        self.total, self.nodes, self.elapsed = len(state.moves()), 0, 0.0
        self.began, self.frame = time.monotonic(), 0
        self.phase = "solving"
        self.refresh(layout=True)

    def progress(self, event: AnalysisProgress) -> None:
        self.values = {value.move: value.value for value in event.values}
        self.estimated = {value.move for value in event.values
                          if value.bound == Bound.ESTIMATE}
        self.total, self.nodes = event.total, event.nodes
        self.refresh()

    def finish(self, result: SearchDone) -> None:
        self.values = {value.move: value.value for value in result.move_values}
        self.estimated = set()
        self.nodes, self.elapsed = result.work, time.monotonic() - self.began
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
        return 4 if self.phase in ("solving", "done") else 1

    def real_clock(self) -> bool:
        """Whether seconds are real (tests run the app on a fake clock, and a figure
        that changes from run to run has no place in their screenshots)."""
        return getattr(getattr(self.app, "analyst", None), "clock", "real") != "tick"

    def footer(self) -> str:
        """The last line: what `~` means while estimates show; what it took once done."""
        if self.phase == "solving":
            return LEGEND if self.estimated else ""
        if not self.nodes:
            return "known without a search (opening book)"
        took = f" in {self.elapsed:.1f} s" if self.real_clock() else ""
        return f"solved: {short_count(self.nodes)} nodes{took}"

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
            spinner = SPINNER[self.frame % len(SPINNER)]
            text.append(f"{spinner} Solving ", style("analysis--title"))
            text.append(f"{self.exact}/{self.total} · {short_count(self.nodes)} "
                        f"nodes · {self.elapsed:.1f} s", style("analysis--muted"))
        legal = set(self.state.moves())
        best = max(self.values.values(), default=None)
        rows = (Text(no_wrap=True), Text(no_wrap=True))
        for column in range(self.columns):
            if column in legal:
                word, moves, kind = outlook(self.values.get(column), self.state.ply,
                                            column in self.estimated)
            else:
                word, moves, kind = "full", "", "pending"
            cell_style = style(f"analysis--{kind}")
            if self.phase == "done" and self.values.get(column) == best:
                cell_style += Style(bold=True)  # the best columns
            if self.cell_width <= len("in 12"):  # a small board: the number alone
                moves = moves.removeprefix("in ")
            rows[0].append(word.center(self.cell_width), cell_style)
            rows[1].append(moves.center(self.cell_width), cell_style)
        for row in rows:
            text.append("\n")
            text.append_text(row)
        text.append("\n")
        text.append(self.footer(), style("analysis--muted"))
        return text
