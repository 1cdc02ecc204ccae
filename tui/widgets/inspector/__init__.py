"""The search inspector: what the agent is thinking, live, and step mode afterwards.

The game screen feeds it the engine's events; it picks the view that fits the agent
(a tree for minimax-style searches, a table for MCTS) and keeps a one-line summary.
"""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import ContentSwitcher, Static

from plyground.core.perfect import ESTIMATE_NOTE, EXACT_NOTE
from plyground.core.search.events import IterationDone, MctsSnapshot, SearchDone
from plyground.core.values import describe_value, proven

from .live_tree import LiveTree
from .mcts_view import MctsView
from .step_view import StepView

VIEW_FOR_KIND = {"mcts": "mcts-view", "random": "no-search"}


def line_text(game, moves) -> str:
    return " ".join(game.format_move(m) for m in moves) or "—"


class Inspector(Vertical):
    DEFAULT_CSS = """
    Inspector { border: round $primary; border-title-color: $text; padding: 0 1; }
    Inspector #inspector-summary { height: 3; margin-bottom: 1; color: $text-muted; }
    Inspector #no-search { color: $text-muted; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.game = None
        self.state = None
        self.kind = ""
        self.searcher = ""
        self.live_view = "no-search"

    def compose(self) -> ComposeResult:
        yield Static(id="inspector-summary")
        with ContentSwitcher(initial="no-search"):
            yield Static("No search yet: the inspector shows an agent's search while it "
                         "thinks.", id="no-search")
            yield LiveTree(id="live-tree")
            yield MctsView(id="mcts-view")
            yield StepView(id="step-view")

    def set_summary(self, text: str | Text) -> None:
        """The lines above the view (a fixed height: no relayout at 20 updates/s)."""
        self.query_one("#inspector-summary", Static).update(
            Text(text) if isinstance(text, str) else text, layout=False)

    def show_view(self, view: str) -> None:
        self.query_one(ContentSwitcher).current = view

    @property
    def stepping(self) -> bool:
        return self.query_one(ContentSwitcher).current == "step-view"

    # --- live search -------------------------------------------------------------

    def begin(self, game, state, agent, side: str) -> None:
        self.game, self.state, self.kind = game, state, agent.kind
        self.searcher = f"{side}: {agent.label}"
        self.border_title = f"Inspector — {self.searcher}"
        view = self.live_view = VIEW_FOR_KIND.get(agent.kind, "live-tree")
        if view == "live-tree":
            self.query_one(LiveTree).begin(game, state, f"{side} to move: root moves")
        elif view == "mcts-view":
            self.query_one(MctsView).begin(game, state)
        else:
            self.query_one("#no-search", Static).update(
                Text(f"{agent.label} does not search: it picks a legal move at random."))
        self.set_summary(f"{side} is thinking…")
        self.show_view(view)

    def feed(self, events: list) -> None:
        view = self.query_one(ContentSwitcher).current
        if view == "live-tree":
            self.query_one(LiveTree).feed(events)
        elif view == "mcts-view":
            self.query_one(MctsView).feed(events)
        for event in reversed(events):
            if isinstance(event, (IterationDone, MctsSnapshot)):
                self.set_summary(self.progress_text(event))
                break

    def progress_text(self, event) -> Text:
        if isinstance(event, IterationDone):
            value = describe_value(event.value, self.state.ply)
            text = Text()
            proof = proven(self.game, self.state, event.value, event.depth)
            if proof:
                text.append(f"{proof} · ", style="bold red" if "lost" in proof else "bold")
            return text + Text(
                f"depth {event.depth} · {event.nodes:,} nodes · "
                f"{event.nodes_per_second:,.0f} nodes/s · best "
                f"{self.game.format_move(event.best_move)} ({value})\n"
                f"principal variation: {line_text(self.game, event.pv)}\n"
                "each value is for the side making that move; ≤ / ≥ are bounds "
                "from alpha-beta cut-offs")
        best = max(event.stats, key=lambda s: s.visits, default=None)
        best_text = "" if best is None else \
            f" · best {self.game.format_move(best.move)} ({100 * best.mean:.1f}%)"
        side = self.game.side_labels[self.state.to_move]
        return Text(
            f"{event.iterations:,} iterations · {event.iterations_per_second:,.0f}/s"
            f"{best_text}\n"
            f"principal variation: {line_text(self.game, event.pv)}\n"
            f"mean: the playouts' results for {side} (a draw counts ½) · "
            "UCT = mean + c·√(ln N / n) picks the move to explore")

    def finish(self, result: SearchDone, side: str) -> None:
        move = self.game.format_move(result.best_move)
        self.border_title = f"Inspector — {self.searcher} · played {move}"
        if self.kind == "random":
            self.set_summary(Text(f"{side} played {move} at random."))
        elif result.note in (EXACT_NOTE, ESTIMATE_NOTE):  # the perfect agent's
            self.set_summary(self.note_text(result, move))

    def note_text(self, result: SearchDone, move: str) -> Text:
        """A decision's note (`exact: solved` or `estimate: ...`) with its values."""
        exact = result.note == EXACT_NOTE
        text = Text(result.note, style="bold green" if exact else "bold yellow")
        value = describe_value(result.value, self.state.ply)
        text.append(f" · played {move} ({value})\n")
        if exact:
            text.append("every column, for the side to move: " + "  ".join(
                f"{self.game.format_move(mv.move)} {describe_value(mv.value, self.state.ply)}"
                for mv in result.move_values))
        else:
            text.append(f"Alpha-Beta reached depth {result.depth}; its values are "
                        "heuristic estimates, not proven")
        return text

    def failed(self, message: str) -> None:
        self.set_summary(Text(f"The search failed: {message}", style="bold red"))

    def idle(self, message: str) -> None:
        self.border_title = "Inspector"
        self.set_summary("")
        self.query_one("#no-search", Static).update(Text(message))
        self.show_view("no-search")

    # --- step mode ---------------------------------------------------------------

    def leave_step(self) -> None:
        self.show_view(self.live_view)
        self.set_summary("")

    def step(self, replay, game, root_state, title: str, truncated: bool) -> None:
        self.show_view("step-view")
        view = self.query_one(StepView)
        view.load(replay, game, root_state, title, truncated)
        view.focus()
        self.set_summary(Text("Step mode: ←/→ one event, [ / ] one iteration, "
                                 "Home/End, Esc to leave."))
