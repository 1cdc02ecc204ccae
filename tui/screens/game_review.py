"""The game screen's review (`e`): the game's moves reviewed in the app's review engine
(core/study/review.py, as `plyground review` does), then labelled in the move list, with the
value graph and each side's accuracy under the board (widgets/review_panel.py).

The review judges the main line as it is when `e` is pressed; it stays with those
moves (a take-back or moves played later do not change it: `e` again reviews the game
as it is then). A click on the graph views that ply. `e` while a review runs stops it.
"""
from __future__ import annotations

from textual.message import Message

from plyground.core.play.worker import (EngineDone, EngineEvents, EngineFailed,
                                        EngineWarning, ReviewRequest)
from plyground.core.study.review import ReviewProgress

from ..widgets.review_panel import ReviewPanel
from ..widgets.value_graph import ValueGraph


class ReviewUpdate(Message):
    """A review engine message, posted from its reader thread."""

    def __init__(self, update) -> None:
        super().__init__()
        self.update = update


class GameReview:
    """The review half of GameScreen (a mixin: it uses the screen's match, tree,
    viewing, tell, refuse and view)."""

    review_id: int | None = None  # the review running in the review engine
    reviewed_nodes: list | None = None  # the line being (or last) reviewed

    @property
    def review_panel(self) -> ReviewPanel:
        return self.query_one(ReviewPanel)

    @property
    def judged(self) -> dict:
        """The reviewed moves' judgements, by the node each led to."""
        panel = self.review_panel
        if panel.review is None:
            return {}
        return dict(zip(panel.nodes[1:], panel.review.moves))

    def action_review(self) -> None:
        if self.review_id is not None:
            self.stop_review()
            self.review_panel.failed("stopped (e starts it again)")
            self.tell("Review stopped.")
            return
        nodes = [self.game_tree.root] + self.game_tree.main_line()
        if len(nodes) == 1:
            self.refuse("No move to review yet")
            return
        panel = self.review_panel
        if panel.review is not None and panel.nodes == nodes:
            self.refuse("These moves are reviewed already: the labels are in the move "
                        "list, the graph under the board")
            return
        game = self.match.game
        request = ReviewRequest(game.id, game.format_position(self.match.start),
                                tuple(game.format_move(node.move) for node in nodes[1:]),
                                game.options())
        self.reviewed_nodes = nodes
        self.review_id = self.app.reviewer.submit(request)
        panel.begin(sum(node.state.outcome() is None for node in nodes))

    def stop_review(self) -> None:
        if self.review_id is not None:
            self.app.reviewer.cancel()
            self.review_id = None

    def clear_review(self) -> None:
        """A new game: no review."""
        self.stop_review()
        self.review_panel.clear()

    def on_review_update(self, message: ReviewUpdate) -> None:
        update = message.update
        if isinstance(update, EngineWarning):
            self.tell(update.message, severity="warning")
            return
        if update.search_id != self.review_id:
            return  # a review stopped, or of another game
        panel = self.review_panel
        if isinstance(update, EngineEvents):
            progress = [e for e in update.events if isinstance(e, ReviewProgress)]
            if progress:
                panel.progress(progress[-1].done, progress[-1].total)
        elif isinstance(update, EngineDone):
            self.review_id = None
            review = update.result
            panel.show(review, self.reviewed_nodes)
            self.refresh_moves()
            exact = "exact" if review.exact else "estimates, marked ~"
            self.tell(f"Reviewed {len(review.moves)} moves in {review.elapsed:.1f} s by "
                      f"{review.analyser} ({exact}). {panel.border_title}.")
        elif isinstance(update, EngineFailed):
            self.review_id = None
            reason = update.message.splitlines()[0]
            panel.failed(reason)
            self.tell(reason, title="Review failed", severity="error")

    def on_value_graph_chosen(self, message: ValueGraph.Chosen) -> None:
        message.stop()
        node = self.review_panel.node_at(message.ply)
        if node is not None:
            self.view(node)
