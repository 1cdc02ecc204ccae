"""The review under the board (the game screen's `e`): its progress while the engine
reviews the game, then each side's accuracy in the title, the value graph over the
plies (a click there views that ply: `ValueGraph.Chosen`) and, for the position on the
board, the judgement of the move that led to it. Small (a short terminal: the `small`
class), it has no border, and its one line gives the accuracies while the live game
is on the board.

    panel.begin(total)                # hidden until a review starts
    panel.progress(done, total)
    panel.show(review, nodes)         # nodes: the reviewed line, the start first
    panel.mark(node, live)            # the position on the board, the live game's?
"""
from __future__ import annotations

from rich.text import Text
from textual.containers import Vertical
from textual.widgets import Static

from plyground.core.study.review import MoveReview, Review

from ..review_labels import ESTIMATE_MARK, label_text
from .value_graph import ValueGraph


class ReviewPanel(Vertical):
    DEFAULT_CSS = """
    ReviewPanel {
        height: auto; display: none; padding: 0 1;
        border: round $panel-lighten-2; border-title-color: $text-muted;
        border-subtitle-color: $text-muted;
    }
    ReviewPanel.shown { display: block; }
    ReviewPanel ValueGraph { height: 5; }
    ReviewPanel #review-line { height: 2; }
    ReviewPanel.small { border: none; padding: 0; }
    ReviewPanel.small ValueGraph { height: 3; }
    ReviewPanel.small #review-line { height: 1; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.review: Review | None = None
        self.nodes: list = []  # the reviewed line's nodes: the start, then each move's
        self.current = None  # the node on the board
        self.live = True  # whether it is the live game's

    def compose(self):
        yield ValueGraph()
        yield Static(id="review-line")

    @property
    def graph(self) -> ValueGraph:
        return self.query_one(ValueGraph)

    def say(self, text: str | Text) -> None:
        self.query_one("#review-line", Static).update(
            text if isinstance(text, Text) else Text(text))

    def begin(self, total: int) -> None:
        """A review starts: it replaces the last one."""
        self.review, self.nodes = None, []
        self.add_class("shown")
        self.border_title = "Review"
        self.border_subtitle = "e: stop"
        self.graph.show([])
        self.progress(0, total)

    def progress(self, done: int, total: int) -> None:
        self.say(f"Reviewing: {done} of {total} positions analysed…")

    def failed(self, message: str) -> None:
        self.border_subtitle = "e: try again"
        self.say(Text(f"The review failed: {message}", style="bold red"))

    def clear(self) -> None:
        """No review (a new game)."""
        self.review, self.nodes, self.current = None, [], None
        self.remove_class("shown")

    def show(self, review: Review, nodes: list) -> None:
        """The review of the line `nodes` (its start position first)."""
        self.review, self.nodes = review, list(nodes)
        game = review.game
        accuracies = " · ".join(
            f"{label} {'-' if accuracy is None else f'{accuracy:.0f}%'}"
            for label, accuracy in ((label, review.accuracy(side))
                                    for side, label in enumerate(game.side_labels)))
        self.border_title = f"Review: accuracy {accuracies}"
        self.border_subtitle = "exact" if review.exact else \
            f"{ESTIMATE_MARK} estimates"
        self.mark(self.current, self.live)

    def judgement(self, node) -> MoveReview | None:
        """The review of the move that led to `node`, if the review judged it."""
        if self.review is None or node not in self.nodes[1:]:
            return None
        return self.review.moves[self.nodes.index(node) - 1]

    def mark(self, node, live: bool) -> None:
        """`node`'s position is on the board (`live`: the live game's): its ply marked
        on the graph, the move that led there judged under it."""
        self.current, self.live = node, live
        if self.review is None:
            return
        index = self.nodes.index(node) if node in self.nodes else None
        self.graph.show(self.review.values, index)
        if live and self.has_class("small"):
            self.say(f"{self.border_title} ({self.border_subtitle}); [ walks back")
        else:
            self.say(self.describe(node, index))

    def describe(self, node, index: int | None) -> Text:
        review = self.review
        if index is None:
            return Text("This position is not on the reviewed line (e reviews the "
                        "game's moves again).", style="dim")
        if index == 0:
            return Text("The start: click the graph, or walk with [ ], to see a move's "
                        "label.", style="dim")
        move = review.moves[index - 1]
        game = review.game
        text = Text(f"{game.side_labels[move.side]} {game.format_move(move.move)}: ")
        text.append_text(label_text(move))
        text.append(f" ({move.played_text})")
        if move.note:  # why the label is milder than the move looks
            text.append(f", {move.note}")
        if move.label != "best":
            text.append(f"; best {game.format_move(move.best_move)} ({move.best_text})")
        return text

    def node_at(self, ply_index: int):
        """The reviewed line's node at graph column `ply_index`, if any."""
        return self.nodes[ply_index] if 0 <= ply_index < len(self.nodes) else None
