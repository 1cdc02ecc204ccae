"""The search inspector: what the agent is thinking, live, and step mode afterwards.

The game screen feeds it the engine's events; it picks the view that fits the search
(a tree for minimax-style searches, a table for MCTS) and keeps a summary. When the
search ends, the summary is the decision's own (move, value, depth, principal
variation, work), the same object the tree's ★ row and `analyze` read; step mode,
when left, gives the view and that summary back.
"""
from __future__ import annotations

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import ContentSwitcher, Static

from plyground.core.agents.base import Shows
from plyground.core.search.events import (Info, IterationDone, MctsSnapshot, PuctSnapshot,
                                          SearchDone)
from plyground.core.search.mcts import chosen
from plyground.core.search.puct import played_stat
from plyground.core.values import Score, proven
from plyground.core.errors import visible

from ...verdict import proven_words
from .info_view import InfoView, info_line
from .live_tree import LiveTree, plural
from .mcts_view import MctsView, mean_text, value_text
from .more_rows import MoreRows
from .step_view import StepView

VIEW_FOR = {Shows.TREE: "live-tree", Shows.VISITS: "mcts-view", Shows.INFO: "info-view",
            Shows.NONE: "no-search"}
TREE_LEGEND = ("★ the decision · values for the side making the move · ≤ ≥ bounds "
               "from cut-offs · pruned: never searched")
MCTS_LEGEND = ("mean: playout results for {side} (a draw counts ½) · "
               "UCT = mean + c·√(ln N/n) picks what to explore\n"
               "★ the move MCTS plays (most visits, or a proven win) · ✓ played · "
               "sort: v/m/c/o")
PUCT_LEGEND = ("no playouts: Q is the mean of the network's values below a move, "
               "for {side} (a draw 50%) · P the network's prior · U = c·P·√N/(1+n), "
               "shown in Q's points (×50) · each simulation walks down by the highest "
               "Q + U\n★ the move it plays (most visits) · ✓ played · sort: v/m/c/o "
               "(c: U) · x: the board's heat, visits or prior")


def line_text(game, moves) -> str:
    return " ".join(game.format_move(m) for m in moves) or "—"


def exact_row(game, state, result: SearchDone) -> Text:
    """Every move's exact value on one row; an entry never breaks across lines."""
    text = Text()
    for index, mv in enumerate(result.move_values):
        entry = f"{game.format_move(mv.move)} {Score(mv.value, state.ply)}"
        text.append("  " if index else "")
        text.append(entry.replace(" ", "\u00a0"),
                    style="bold" if mv.move == result.best_move else "")
    return text


SUMMARY_LINES = 4  # the summary's least height: a search's figures, line and legend


class Summary(Static):
    """The lines above the inspector's view, as high as they wrap to at its width (at
    least SUMMARY_LINES): a narrow inspector wraps them rather than cutting them off.
    Its height changes only when the count of lines does, so the 20 live updates a
    second cost no relayout; a new width refits it."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.text = Text()

    def show(self, text: Text) -> None:
        self.text = text
        self.fit()
        self.update(text, layout=False)

    def needed(self) -> int:
        width = self.content_size.width
        return max(SUMMARY_LINES, len(self.text.wrap(self.app.console, width))
                   if width else 0)

    def fit(self) -> None:
        height = self.needed()
        if self.styles.height is None or self.styles.height.value != height:
            self.styles.height = height

    def on_resize(self) -> None:
        self.fit()

    @property
    def fitted(self) -> bool:
        """Whether it is as high as its text needs (tests and snapshots wait for it)."""
        return self.styles.height is not None and self.styles.height.value == self.needed()


class Inspector(Vertical):
    DEFAULT_CSS = """
    Inspector { border: round $primary; border-title-color: $text; padding: 0 1; }
    Inspector #inspector-summary { height: 4; margin-bottom: 1; color: $text-muted; }
    Inspector #no-search { color: $text-muted; }
    /* the rest of the height: a table longer than that scrolls (and MoreRows says
       so) instead of running out of the inspector's frame */
    Inspector > ContentSwitcher { height: 1fr; }
    """
    BINDINGS = [Binding("escape", "screen.focus_board", "Back to the board")]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.game = None
        self.state = None
        self.searcher = ""
        self.live_view = "no-search"
        self.summary: Text = Text()  # the live search's or the decision's
        self.timed = True  # whether it shows speeds and times (a lesson's slides do not:
        # they must come out the same every time)

    def compose(self) -> ComposeResult:
        yield Summary(id="inspector-summary")
        with ContentSwitcher(initial="no-search"):
            yield Static("No search yet: the inspector shows an agent's search while it "
                         "thinks.", id="no-search")
            yield LiveTree(id="live-tree")
            yield MctsView(id="mcts-view")
            yield InfoView(id="info-view")
            yield StepView(id="step-view")
            yield Static(id="past-view")
        yield MoreRows(self.table_shown, id="more-rows")

    def table_shown(self) -> MctsView | None:
        """The MCTS or az table, while it is the view shown (for MoreRows' sign)."""
        if self.query_one(ContentSwitcher).current != "mcts-view":
            return None
        return self.query_one(MctsView)

    def set_summary(self, text: str | Text, keep: bool = True) -> None:
        """The lines above the view; `keep` makes them the ones step mode gives
        back."""
        text = Text(text) if isinstance(text, str) else text
        if keep:
            self.summary = text
        self.query_one(Summary).show(text)

    @property
    def summary_fitted(self) -> bool:
        return self.query_one(Summary).fitted

    @property
    def more_rows_current(self) -> bool:
        return self.query_one(MoreRows).current

    def show_view(self, view: str) -> None:
        self.query_one(ContentSwitcher).current = view

    @property
    def stepping(self) -> bool:
        return self.query_one(ContentSwitcher).current == "step-view"

    def focus_view(self) -> bool:
        """Give the keys to the view on show (the tree, the table, step mode)."""
        current = self.query_one(ContentSwitcher).current
        if current in ("live-tree", "mcts-view", "step-view"):
            self.query_one(f"#{current}").focus()
            return True
        return False

    # --- live search -------------------------------------------------------------

    def begin(self, game, state, agent, side: str) -> None:
        self.game, self.state = game, state
        # a border title is read as markup: an engine's name (its own words) is not
        self.searcher = escape(visible(f"{side}: {agent.label}"))
        self.border_title = f"Inspector — {self.searcher}"
        view = self.live_view = VIEW_FOR[agent.shows]
        if view == "live-tree":
            self.query_one(LiveTree).begin(game, state, side)
        elif view == "mcts-view":
            self.query_one(MctsView).begin(game, state)
        elif view == "info-view":
            self.query_one(InfoView).begin(game, agent)
        else:
            self.query_one("#no-search", Static).update(
                Text(f"{agent.label} does not search: {agent.description}."))
        self.set_summary(f"{side} is thinking…")
        self.show_view(view)

    @property
    def live_interval(self) -> float:
        """The least time the live view needs between two batches of events (a large
        MCTS table is painted less often; the other views take every batch)."""
        if self.live_view == "mcts-view":
            return self.query_one(MctsView).repaint_interval
        return 0.0

    def feed(self, events: list) -> None:
        if self.live_view == "live-tree":
            self.query_one(LiveTree).feed(events)
        elif self.live_view == "mcts-view":
            self.query_one(MctsView).feed(events)
        elif self.live_view == "info-view":
            self.query_one(InfoView).feed(events)
        for event in reversed(events):
            if isinstance(event, (IterationDone, MctsSnapshot, Info)):
                self.set_summary(self.progress_text(event), keep=not self.stepping)
                break

    def progress_text(self, event) -> Text:
        if isinstance(event, Info):
            return Text(f"latest report: {info_line(self.game, event)}\n"
                        "score: the agent's own, for the side to move")
        if isinstance(event, IterationDone):
            value = Score(event.value, self.state.ply)
            text = self.proof_text(event.value, event.depth)
            speed = f"{event.nodes_per_second:,.0f} nodes/s · " if self.timed else ""
            return text + Text(
                f"depth {event.depth} complete · {event.nodes:,} nodes · {speed}best "
                f"{self.game.format_move(event.best_move)} ({value})\n"
                f"principal variation: {line_text(self.game, event.pv)}\n"
                "searching deeper…\n" + TREE_LEGEND)
        best = None if not event.stats else played_stat(event.stats) \
            if isinstance(event, PuctSnapshot) else chosen(event.stats)
        best_text = "" if best is None else \
            f" · best {self.game.format_move(best.move)} ({mean_text(best, self.state.ply)})"
        side = self.game.side_labels[self.state.to_move]
        text = Text()
        unit = "iteration"
        if isinstance(event, PuctSnapshot):
            unit = "simulation"
            text.append(f"network {value_text(event.network_value)} · search "
                        f"{value_text(event.value)} for {side}\n", style="bold")
        if event.proven is not None:
            text.append(f"{proven_words(event.proven, self.state.ply)} · ",
                        style="bold red" if event.proven < 0 else "bold")
        speed = f" · {event.iterations_per_second:,.0f}/s" if self.timed else ""
        return text + Text(
            f"{plural(event.iterations, unit)}{speed}{best_text}\n"
            f"principal variation: {line_text(self.game, event.pv)}\n"
            + (PUCT_LEGEND if isinstance(event, PuctSnapshot) else MCTS_LEGEND
               ).format(side=side))

    def proof_text(self, value, depth) -> Text:
        text = Text()
        proof = proven(self.game, self.state, value, depth)
        if proof:
            text.append(f"{proof} · ", style="bold red" if "lost" in proof else "bold")
        return text

    def finish(self, result: SearchDone, side: str) -> None:
        """The decision: every view now shows it."""
        move = self.game.format_move(result.best_move)
        self.border_title = f"Inspector — {self.searcher} · played {move}"
        if self.live_view == "no-search":
            self.set_summary(Text(f"{side} played {move}."))
        elif result.exact:
            self.set_summary(self.exact_text(result, move))
            self.query_one("#no-search", Static).update(exact_row(self.game, self.state,
                                                                  result))
            self.live_view = "no-search"
            self.show_view("no-search")
        elif self.live_view == "live-tree":
            self.query_one(LiveTree).finish(result)
            self.set_summary(self.decision_text(result, move))
        elif self.live_view == "info-view":
            depth = "" if result.depth is None else f" · depth {result.depth}"
            nodes = f" · {result.work:,} nodes" if result.work else ""
            self.set_summary(Text(f"played {move}{depth}{nodes}{self.time_text(result)}"
                                  f"\nprincipal variation: {line_text(self.game, result.pv)}"
                                  "\nthe reports below are the agent's own"))
        else:
            self.query_one(MctsView).played(result.best_move)

    def decision_text(self, result: SearchDone, move: str) -> Text:
        """A tree search's decision: the same move, value and depth as the ★ row."""
        text = Text()
        if result.note:  # how it ended (cut short, an estimate) or why (a trap)
            text.append(result.note + "\n", style="bold yellow")
        if result.value is None:
            text.append(f"played {move}\n")
        else:
            text += self.proof_text(result.value, result.depth)
            value = result.score(self.state.ply)
            text.append(f"played {move} ({value}) · depth {result.depth} · "
                        f"{result.work:,} nodes{self.time_text(result)}\n")
        text.append(f"principal variation: {line_text(self.game, result.pv)}\n")
        text.append(TREE_LEGEND)
        return text

    def time_text(self, result: SearchDone) -> str:
        return f" in {result.elapsed:.2f} s" if self.timed else ""

    def exact_text(self, result: SearchDone, move: str) -> Text:
        """A solver's decision: proven values for every move, in the row below."""
        text = Text(result.note, style="bold green")
        value = Score(result.value, self.state.ply)
        text.append(f" · played {move} ({value}) · {result.work:,} nodes\n")
        text.append("every move's exact value, for the side to move (below)")
        return text

    def failed(self, message: str, what: str = "The search failed: ") -> None:
        # (a forfeit's reason may quote what an agent wrote: its escapes shown)
        self.set_summary(Text(visible(f"{what}{message}", lines=True), style="bold red"))

    def idle(self, message: str) -> None:
        self.border_title = "Inspector"
        self.set_summary("")
        self.query_one("#no-search", Static).update(Text(message))
        self.live_view = "no-search"
        self.show_view("no-search")

    # --- a position of the past --------------------------------------------------

    def show_past(self, summary: Text, decision: Text) -> None:
        """The board shows an earlier position (or a variation): what was decided
        there, in place of the live search's view, which `show_live` brings back."""
        self.set_summary(summary, keep=False)
        self.query_one("#past-view", Static).update(decision)
        self.show_view("past-view")

    def decision_summary(self) -> Text:
        """Who decided the last move, and how: kept for the move list's walk."""
        return Text(self.border_title.removeprefix("Inspector — "), style="bold") + \
            Text("\n") + self.summary

    def show_live(self) -> None:
        if self.query_one(ContentSwitcher).current == "past-view":
            self.leave_step()

    # --- step mode ---------------------------------------------------------------

    def leave_step(self) -> None:
        """Back to the decision: its view and its summary, as they were."""
        self.show_view(self.live_view)
        self.set_summary(self.summary)

    def replaying(self, text: Text) -> None:
        """A replay's progress, over the decision's summary (which comes back)."""
        self.set_summary(text, keep=False)

    def step(self, replay, game, root_state, title: Text, truncated: bool) -> None:
        self.show_view("step-view")
        view = self.query_one(StepView)
        view.load(replay, game, root_state, title, truncated)
        view.focus()
        self.set_summary(Text("Step mode: ←/→ one event, [ / ] one iteration, "
                              "Home/End, Esc to leave."), keep=False)
