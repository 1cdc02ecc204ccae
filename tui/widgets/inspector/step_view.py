"""Step mode: a recorded search, one event at a time, forward and back.

Shows the position at the current node on a small board, and beside it what the
search is doing there: for alpha-beta the node, its window, its ancestors' windows, the
children finished so far and every cut-off; for MCTS the iteration's phase, path,
playout and backup, and the root's statistics at that moment; for PUCT (az) the
simulation's walk down by P, Q and U, its leaf's network evaluation and its backup. An
inspector too narrow
for the board beside the text (an 80-column terminal) shows the position as a text
board above it instead: the position searched is always in sight.
"""
from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import Static

from plyground.core.search.events import NodeEntered
from plyground.core.search.replay import (PHASES, PUCT_PHASES, MctsFrame, MctsReplay,
                                          PuctFrame, PuctReplay, Replay, TreeFrame)
from plyground.core.values import INFINITY, Score, is_decisive

from ...text_board import render_board
from ..boards import board_for
from .live_tree import plural
from .mcts_view import bonus_text, percent_text, value_text


def bound_text(value: float, ply: int) -> str:
    """A window bound in the values' one vocabulary: ±∞, `win in 3`, `+12`."""
    if value >= INFINITY:
        return "+∞"
    if value <= -INFINITY:
        return "−∞"
    return str(Score(value, ply))


SOURCES = {"end": " (the game is over here)",
           "table": " (from the transposition table)",
           "repeat": " (a position the game has had: scored as a draw)"}


class StepView(Horizontal, can_focus=True):
    DEFAULT_CSS = """
    StepView { height: 1fr; background: $surface; }
    StepView:focus { background: $surface-lighten-1; }
    StepView .step-board { margin: 1 1 0 0; }
    StepView #step-text, StepView #step-position { padding: 0 1; }
    StepView #step-position { margin-bottom: 1; }
    StepView > VerticalScroll { width: 1fr; }
    """
    # The footer shows each pair as one key group, `← → Event  [ ] Iteration`: four
    # keys of their own ("Next event" and "Next iteration" both read "Next" once a
    # narrow footer shortens its labels to their first word).
    EVENTS, ITERATIONS = Binding.Group("Event"), Binding.Group("Iteration")
    BINDINGS = [
        Binding("left", "step(-1)", "Previous event", group=EVENTS),
        Binding("right", "step(1)", "Next event", group=EVENTS),
        Binding("[", "iteration(-1)", "Previous iteration", group=ITERATIONS),
        Binding("]", "iteration(1)", "Next iteration", group=ITERATIONS),
        Binding("home", "jump(0)", "First", show=False),
        Binding("end", "jump(-1)", "Last", show=False),
        Binding("up", "scroll_text(-1)", "Scroll up", show=False),
        Binding("down", "scroll_text(1)", "Scroll down", show=False),
        Binding("escape", "leave", "Leave step mode"),
    ]

    class Left(Message):
        """The user left step mode."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.replay: Replay | None = None
        self.game = None
        self.root_state = None
        self.title = ""
        self.index = 0
        self.board = None
        self.board_width = 0

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(id="step-position")
            yield Static(id="step-text")

    def load(self, replay: Replay, game, root_state, title: Text, truncated: bool) -> None:
        self.replay, self.game, self.root_state = replay, game, root_state
        self.title = title.copy()
        if truncated:
            self.title.append("\n(the recording stopped at its cap: the steps end early)",
                              style="yellow")
        if self.board is None or self.board.game != game:
            if self.board is not None:
                self.board.remove()
            # a class, not an id: the board removed may not be gone yet
            self.board = board_for(game, classes="step-board")
            self.board.can_focus = False
            self.board.set_large(False)
            self.board_width = 0
            self.mount(self.board, before=0)
        self.index = 0
        self.refresh_frame()
        self.call_after_refresh(self.fit_board)

    TEXT_WIDTH = 48  # the columns the step text needs beside the board

    def on_resize(self) -> None:
        self.fit_board()

    def fit_board(self) -> None:
        """A narrow inspector (an 80-column terminal) gives the text the whole width:
        the node's position is named in the text's path anyway."""
        if self.board is not None:
            if self.board.display:  # measured while shown: a hidden board has no size
                self.board_width = self.board.outer_size.width
            self.board.display = self.size.width >= self.board_width + self.TEXT_WIDTH
            self.query_one("#step-position").display = not self.board.display

    # --- keys --------------------------------------------------------------------

    def action_step(self, delta: int) -> None:
        self.go(self.index + delta)

    def action_iteration(self, direction: int) -> None:
        if self.replay is not None:
            step = self.replay.next_iteration if direction > 0 else \
                self.replay.previous_iteration
            self.go(step(self.index))

    def action_jump(self, index: int) -> None:
        if self.replay is not None:
            self.go(index if index >= 0 else len(self.replay) - 1)

    def action_scroll_text(self, direction: int) -> None:
        """The text can be longer than a small terminal: ↑/↓ scroll it (←/→ step)."""
        scroll = self.query_one(VerticalScroll)
        scroll.scroll_to(y=scroll.scroll_y + direction, animate=False)

    def action_leave(self) -> None:
        self.post_message(self.Left())

    def go(self, index: int) -> None:
        if self.replay is None or not len(self.replay):
            return
        index = max(0, min(len(self.replay) - 1, index))
        if index != self.index:
            self.index = index
            self.refresh_frame()

    # --- display -----------------------------------------------------------------

    def refresh_frame(self) -> None:
        if self.replay is None:
            return
        frame = self.replay.frame(self.index)
        if isinstance(self.replay, MctsReplay):
            path, text = self.mcts_text(frame)
        elif isinstance(self.replay, PuctReplay):
            path, text = self.puct_text(frame)
        else:
            path, text = self.tree_text(frame)
        state = self.state_at(path)
        self.board.show(state)
        self.query_one("#step-position", Static).update(self.position_text(path, state))
        self.query_one("#step-text", Static).update(text)

    def position_text(self, path: tuple, state) -> Group:
        """The node's position as a text board, how deep it is and who moves (a
        playout's path is too long to write out here: the text below has it)."""
        where = f"{plural(len(path), 'ply', 'plies')} below the root" if path else "the root"
        side = self.game.side_labels[state.to_move]
        return Group(render_board(state), Text(f"{where} · {side} to move", style="bold"))

    def header(self, frame) -> Text:
        text = self.title.copy()
        text.append(f"\nevent {self.index + 1:,} of {len(self.replay):,} · ")
        return text

    def state_at(self, path: tuple):
        state = self.root_state
        for move in path:
            state = state.play(move)
        return state

    def line(self, path: tuple) -> str:
        return " → ".join(["root", *(self.game.format_move(m) for m in path)])

    def tree_text(self, frame: TreeFrame) -> tuple[tuple, Text]:
        event = frame.event
        text = self.header(frame)
        text.append(f"depth {frame.iteration_depth}, iteration {frame.iteration} of "
                    f"{len(self.replay.starts)} recorded\n\n")
        state = self.state_at(event.path)
        ply = state.ply
        side = self.game.side_labels[state.to_move]
        text.append("Node     ", style="bold")
        text.append(f"{self.line(event.path)}   ({side} to move, "
                    f"{plural(event.depth, 'ply', 'plies')} left)\n")
        text.append("Window   ", style="bold")
        text.append(f"α = {bound_text(event.alpha, ply)}   "
                    f"β = {bound_text(event.beta, ply)}   (values for {side})\n")
        text.append("Now      ", style="bold")
        if isinstance(event, NodeEntered):
            text.append("entering the node\n")
        else:
            value = Score(event.value, ply)
            text.append(f"leaving with {value} for {side}")
            if event.source == "leaf":
                text.append(" (the game's end in sight at the depth limit)"
                            if is_decisive(event.value) else
                            " (the heuristic, at the depth limit)")
            if event.source == "kernel":
                text.append(f" (the compiled kernel searched this subtree, "
                            f"{plural(event.nodes, 'node')}, without tracing it: this "
                            "game's kernel prunes its own way, so its steps are not "
                            "the Python search's)")
            text.append(SOURCES.get(event.source, "") + "\n")
            if event.cutoff:
                text.append(f"         cut-off: the value reached β, so "
                            f"{plural(event.pruned, 'move')} left unsearched (pruned)\n",
                            style="bold red")
        text.append("\nPath and windows\n", style="bold")
        for depth, ancestor in enumerate(frame.ancestors):
            move = self.game.format_move(ancestor.path[-1]) if ancestor.path else "root"
            at = self.root_state.ply + len(ancestor.path)
            text.append("  " * depth + f"{move}  [α {bound_text(ancestor.alpha, at)}, "
                                       f"β {bound_text(ancestor.beta, at)}]\n")
        if frame.children:
            text.append(f"\nChildren finished (values for {side})\n", style="bold")
            for child in frame.children:
                mark = "   (its reply's cut-off bounds it)" if child.cutoff else ""
                text.append(f"  {self.game.format_move(child.move)}: "
                            f"{Score(-child.value, ply, bound=child.bound)}{mark}\n")
        return event.path, text

    def mcts_text(self, frame: MctsFrame) -> tuple[tuple, Text]:
        text = self.header(frame)
        number = list(PHASES.values()).index(frame.phase) + 1
        text.append(f"iteration {frame.iteration:,} · phase {number} of 4: {frame.phase}\n\n")
        root_side = self.game.side_labels[self.root_state.to_move]  # from the state
        text.append("Path     ", style="bold")
        new_node = "  (new node)" if frame.phase == "expansion" else ""
        text.append(self.line(frame.path) + new_node + "\n")
        path = frame.path
        if frame.phase in ("playout", "backup"):
            moves = " ".join(self.game.format_move(m) for m in frame.rollout) or "(none)"
            result = "draw" if frame.winner is None else \
                f"{self.game.side_labels[frame.winner]} wins"
            text.append("Playout  ", style="bold")
            text.append(f"{moves} → {result}\n")
            path = frame.path + frame.rollout
        if frame.reward is not None:
            text.append("Backup   ", style="bold")
            text.append(f"{frame.reward:g} for {root_side} at the root, along "
                        f"{self.line(frame.path)}\n")
        text.append(f"\nRoot moves so far (mean for {root_side})\n", style="bold")
        for tally in frame.root:
            text.append(f"  {self.game.format_move(tally.move)}: "
                        f"{plural(tally.visits, 'visit')}, "
                        f"mean {100 * tally.wins / tally.visits:.1f}%\n")
        return path, text

    TOP_PRIORS = 4  # the leaf's priors shown, the highest first
    BATCHES = ("(leaves go to the network in batches: a round's walks down come "
               "first, then each leaf's evaluation and backup)")

    def puct_text(self, frame: PuctFrame) -> tuple[tuple, Text]:
        """A PUCT simulation: each step down with the P, N, Q and U it was chosen by
        (Q for the side to move there, on the % scale; U in Q's points), the leaf's
        value and priors from the network (or the game's end), the backup."""
        text = self.header(frame)
        number = list(PUCT_PHASES.values()).index(frame.phase) + 1
        text.append(f"simulation {frame.simulation:,} · phase {number} of 3: "
                    f"{frame.phase}\n")
        text.append(self.BATCHES + "\n\n", style="dim")
        root_side = self.game.side_labels[self.root_state.to_move]
        selected, evaluated = frame.selected, frame.evaluated
        path = frame.event.path
        text.append("Path     ", style="bold")
        text.append(self.line(path) + "\n")
        if selected is not None:
            text.append("\nSelection: at each node the move with the highest Q + U\n",
                        style="bold")
            for depth, step in enumerate(selected.steps):
                side = self.game.side_labels[self.state_at(path[:depth]).to_move]
                text.append(f"  {side} {self.game.format_move(step.move)}  "
                            f"P {percent_text(step.prior)}  N {step.visits:,}  "
                            f"Q {value_text(step.q)}  U {bonus_text(step.u)}\n")
        if evaluated is not None:
            leaf = self.state_at(path)
            side = self.game.side_labels[leaf.to_move]
            text.append("\nLeaf     ", style="bold")
            if evaluated.terminal:
                outcome = leaf.outcome()
                result = "a draw" if outcome.winner is None else \
                    f"{self.game.side_labels[outcome.winner]} wins"
                text.append(f"the game is over ({result}): value "
                            f"{value_text(evaluated.value)} for {side}, exact\n")
            else:
                text.append(f"the network's value {value_text(evaluated.value)} for "
                            f"{side}\n")
                top = sorted(evaluated.priors, key=lambda pair: -pair[1])
                priors = ", ".join(f"{self.game.format_move(move)} {percent_text(p)}"
                                   for move, p in top[:self.TOP_PRIORS])
                more = f" (+{len(top) - self.TOP_PRIORS} more)" \
                    if len(top) > self.TOP_PRIORS else ""
                text.append(f"         its priors: {priors}{more}\n")
        if frame.backed_up is not None:
            text.append("Backup   ", style="bold")
            text.append(f"{value_text(frame.backed_up.value)} for {root_side} at the "
                        "root, the value turned over at each change of side on the "
                        "way up\n")
        text.append(f"\nRoot moves so far (Q for {root_side})\n", style="bold")
        for tally in frame.root:
            text.append(f"  {self.game.format_move(tally.move)}: "
                        f"{plural(tally.visits, 'visit')}, Q {value_text(tally.value)}\n")
        return path, text
