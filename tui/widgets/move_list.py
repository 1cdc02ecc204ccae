"""The moves of the game, numbered in pairs like a score sheet, with the variations
tried under the move they replace, indented as in a PGN file. A click on a move, or
the arrows while the list has the focus, show its position (`MoveList.Chosen`). A
reviewed move carries its annotation (`?!`, `?`, `??`: review_labels.py), in its
label's colour.

Walking forward follows the line last walked, as on lichess: out of a variation and
forward again goes back into it. Where several moves follow the position shown (a
branch), ↑/↓ choose the one forward goes to, highlighted in the list and named in its
title."""
from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from plyground.core.records.tree import GameNode, GameTree
from plyground.core.records.record import number
from plyground.core.study.review import MoveReview

from ..review_labels import GLYPHS, LABEL_STYLES

INDENT = 5  # a variation's first column: under the moves of its row


class MoveList(VerticalScroll, can_focus=True):
    DEFAULT_CSS = """
    MoveList { border: round $panel-lighten-2; border-title-color: $text-muted; height: 1fr; }
    MoveList:focus { border: round $accent; }
    MoveList #moves { width: 1fr; }
    """
    BINDINGS = [
        Binding("left", "step(-1)", "Previous move", show=False),
        Binding("right", "step(1)", "Next move", show=False),
        Binding("up", "choose_or_step(-1)", "Previous move, or the move above",
                show=False),
        Binding("down", "choose_or_step(1)", "Next move, or the move below", show=False),
        Binding("home", "start", "Start", show=False),
        Binding("end", "live", "Live game", show=False),
    ]

    class Chosen(Message):
        """The user picked a position to see: `node` (None: the live game)."""

        def __init__(self, node: GameNode | None) -> None:
            super().__init__()
            self.node = node

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.nodes: list[GameNode] = []  # what each clickable move leads to
        self.current: GameNode | None = None
        self.live: GameNode | None = None
        self.trail: GameNode | None = None  # the end of the line walked: forward follows it
        self.chosen: GameNode | None = None  # the candidate shown
        self.judged: dict[GameNode, MoveReview] = {}  # the reviewed moves

    def compose(self):
        yield Static(id="moves")

    def on_mount(self) -> None:
        self.border_title = "Moves"

    def show(self, game, tree: GameTree, current: GameNode, live: GameNode,
             start: str = "", judged: dict[GameNode, MoveReview] | None = None) -> None:
        """The moves of `tree`; `current` (the position on the board) stands out, and
        `live` (where the game is) is bold. `start` names an unusual start position;
        `judged` gives the moves a review labelled."""
        self.game, self.game_tree, self.current, self.live = game, tree, current, live
        self.start_text, self.judged = start, judged or {}
        if not self.on_trail(current):
            self.trail = current
        self.write()

    def write(self) -> None:
        """Write the moves anew, for the current position and the move chosen after it."""
        tree, current, live, self.nodes = self.game_tree, self.current, self.live, []
        self.chosen = self.candidate
        text = Text()
        if self.start_text:
            text.append(f"from position {self.start_text}\n", style="dim")
        if not tree.root.children:
            text.append("no moves yet", style="dim")
        else:
            self.write_main_line(text, tree.root)
        if current is tree.root and tree.root.children:
            text.append("\n(start position shown)", style="dim")
        text.rstrip()  # a last empty line would be all a one-line list shows
        self.query_one("#moves", Static).update(text)
        self.border_title = self.title_text()
        if current is live:
            self.scroll_end(animate=False)
        else:
            self.call_after_refresh(self.scroll_to_current, text)

    def on_resize(self) -> None:
        """Live, the list stays at its end however late its new text is laid out: on a
        busy machine the scroll_end above can run before, and land on the old end."""
        if self.current is not None and self.current is self.live:
            self.scroll_end(animate=False, immediate=True)

    def title_text(self) -> str:
        if self.current is self.live:
            return "Moves"
        candidate = self.chosen
        if candidate is None:
            return "Moves — viewing (End or l: live game)"
        index = self.current.children.index(candidate) + 1
        return (f"Moves — next {self.label(candidate)}, {index} of "
                f"{len(self.current.children)} (↑↓ {{ }})")

    @property
    def candidate(self) -> GameNode | None:
        """At a branch (several moves follow the position shown), the one that walking
        forward plays: None elsewhere."""
        node = self.current
        return self.next_node(node) if node is not None and len(node.children) > 1 \
            else None

    def on_trail(self, node: GameNode) -> bool:
        """Whether `node` is on the line walked (the trail or one of its ancestors)."""
        walked = self.trail
        while walked is not None and walked is not node:
            walked = walked.parent
        return walked is not None

    def next_node(self, node: GameNode) -> GameNode | None:
        """Where walking forward from `node` goes: along the line walked, if it passes
        through `node`, else along the main line (None at a line's end)."""
        walked = self.trail
        while walked is not None and walked.parent is not node:
            walked = walked.parent
        return walked if walked is not None and walked in node.children else \
            next(iter(node.children), None)

    def choose(self, step: int) -> bool:
        """At a branch, choose the move `step` places below (above, if negative) the one
        chosen for walking forward; False (nothing chosen) where no branch is."""
        children = self.current.children if self.current is not None else []
        if len(children) < 2:
            return False
        index = children.index(self.next_node(self.current)) + step
        self.trail = children[max(0, min(len(children) - 1, index))]
        self.write()
        return True

    @property
    def at_its_end(self) -> bool:
        """Whether the list shows the game's last moves (as it should when live)."""
        return self.scroll_y >= self.max_scroll_y

    def scroll_to_current(self, text: Text) -> None:
        lines = text.plain[:self.current_offset].count("\n") if self.current_offset else 0
        self.scroll_to(y=max(0, lines - self.size.height // 2), animate=False)

    def write_main_line(self, text: Text, root: GameNode) -> None:
        """Rows of two moves; under a row, the variations of its moves."""
        self.current_offset = 0
        node, row, pending = root, [], []
        for child in root.main_line():
            if not row:
                full = child.parent.state.ply // 2 + 1
                text.append(f"{full:>3}. ", style="dim")
                if child.parent.state.to_move == 1:
                    row.append(None)
                    text.append(f"{'…':<6}")
            self.write_move(text, child)
            row.append(child)
            pending += child.parent.children[1:]
            if len(row) == 2 or not child.children:
                text.append("\n")
                for variation in pending:
                    text.append(" " * INDENT + "(")
                    self.write_line(text, variation, forced=True)
                    text.append(")\n")
                row, pending = [], []
            else:
                text.append(" " * max(1, 6 - len(self.label(child))
                                      - len(self.glyph(child))))
            node = child

    def write_line(self, text: Text, first: GameNode, forced: bool) -> None:
        """A variation inline: its moves with their numbers, nested ones in brackets."""
        node, separate = first, False
        while node is not None:
            if separate:
                text.append(" ")
            text.append(number(node.parent.state, forced), style="dim")
            self.write_move(text, node)
            forced = False
            for other in node.parent.children[1:] if node is not first else ():
                text.append(" (")
                self.write_line(text, other, forced=True)
                text.append(")")
                forced = True
            separate = True
            node = node.children[0] if node.children else None

    def label(self, node: GameNode) -> str:
        return self.game.format_move(node.move)

    def glyph(self, node: GameNode) -> str:
        judged = self.judged.get(node)
        return "" if judged is None else GLYPHS[judged.label]

    def write_move(self, text: Text, node: GameNode) -> None:
        style = Style(meta={"@click": f"go({len(self.nodes)})"})
        if node is self.current:
            style += Style(reverse=True, bold=True)
            self.current_offset = len(text.plain)
        elif node is self.chosen:  # on the accent colour, unlike the position shown
            theme = self.app.current_theme
            style += Style(color=theme.background or "black", bgcolor=theme.accent,
                           italic=True)
        elif node is self.live:
            style += Style(bold=True)
        if node.comment:
            style += Style(underline=True)
        self.nodes.append(node)
        judged = self.judged.get(node)
        if judged is not None and GLYPHS[judged.label]:
            style = Style.parse(LABEL_STYLES[judged.label]) + style
        text.append(self.label(node), style=style)
        if self.glyph(node):
            text.append(self.glyph(node), style=style)

    # --- choosing ----------------------------------------------------------------------

    def action_go(self, index: int) -> None:
        if 0 <= index < len(self.nodes):
            node = self.nodes[index]
            self.post_message(self.Chosen(None if node is self.live else node))

    def action_step(self, step: int) -> None:
        node = self.current
        if node is None:
            return
        target = node.parent if step < 0 else self.next_node(node)
        if target is not None:
            self.post_message(self.Chosen(None if target is self.live else target))

    def action_choose_or_step(self, step: int) -> None:
        if not self.choose(step):
            self.action_step(step)

    def action_start(self) -> None:
        node = self.current
        while node is not None and node.parent is not None:
            node = node.parent
        if node is not None:
            self.post_message(self.Chosen(None if node is self.live else node))

    def action_live(self) -> None:
        self.post_message(self.Chosen(None))
