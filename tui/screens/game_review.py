"""The game screen's review (`e`): the game's moves reviewed in the app's review engine
(core/study/review.py, as `plyground review` does), then labelled in the move list, with
the value graph and each side's accuracy under the board (widgets/review_panel.py).

The review judges the main line as it is when `e` is pressed; it stays with those
moves (a take-back or moves played later do not change it: `e` again reviews the game
as it is then). A click on the graph views that ply. `e` while a review runs stops it.
"""
from __future__ import annotations

from plyground.core.play.worker import (EngineDone, EngineEvents, EngineFailed,
                                        ReviewRequest)
from plyground.core.errors import visible
from plyground.core.study.review import ReviewProgress

from ..widgets.review_panel import ReviewPanel


class GameReview:
    """The review of one game screen, a component the screen holds (`screen.review`):
    it reads the screen's match and game tree, and speaks through its tell, refuse
    and view."""

    def __init__(self, screen) -> None:
        self.screen = screen
        self.review_id: int | None = None  # the review running in the review engine
        self.reviewed_nodes: list | None = None  # the line being (or last) reviewed

    @property
    def panel(self) -> ReviewPanel:
        return self.screen.query_one(ReviewPanel)

    @property
    def judged(self) -> dict:
        """The reviewed moves' judgements, by the node each led to."""
        panel = self.panel
        if panel.review is None:
            return {}
        return dict(zip(panel.nodes[1:], panel.review.moves))

    def start_or_stop(self) -> None:
        """`e`: review the game's moves, or stop the review running."""
        screen = self.screen
        if self.review_id is not None:
            self.stop()
            self.panel.failed("stopped (e starts it again)")
            screen.tell("Review stopped.")
            return
        nodes = [screen.game_tree.root] + screen.game_tree.main_line()
        if len(nodes) == 1:
            screen.refuse("No move to review yet")
            return
        panel = self.panel
        if panel.review is not None and panel.nodes == nodes:
            screen.refuse("These moves are reviewed already: the labels are in the move "
                          "list, the graph under the board")
            return
        game = screen.match.game
        request = ReviewRequest(game.id, game.format_position(screen.match.start),
                                tuple(game.format_move(node.move) for node in nodes[1:]),
                                game.options())
        self.reviewed_nodes = nodes
        self.review_id = screen.app.reviewer.submit(request)
        panel.begin(sum(node.state.outcome() is None for node in nodes))

    def stop(self) -> None:
        if self.review_id is not None:
            self.screen.app.reviewer.cancel()
            self.review_id = None

    def clear(self) -> None:
        """A new game: no review."""
        self.stop()
        self.panel.clear()

    def receive(self, update) -> None:
        """An update from the review engine."""
        if update.search_id != self.review_id:
            return  # a review stopped, or of another game
        panel = self.panel
        if isinstance(update, EngineEvents):
            progress = [e for e in update.events if isinstance(e, ReviewProgress)]
            if progress:
                panel.progress(progress[-1].done, progress[-1].total)
        elif isinstance(update, EngineDone):
            self.review_id = None
            review = update.result
            panel.show(review, self.reviewed_nodes)
            self.screen.refresh_moves()
            exact = "exact" if review.exact else "estimates, marked ~"
            self.screen.tell(f"Reviewed {len(review.moves)} moves in {review.elapsed:.1f} s "
                             f"by {review.analyser} ({exact}). {panel.border_title}.")
        elif isinstance(update, EngineFailed):
            self.review_id = None
            reason = visible(update.message.splitlines()[0])  # may quote an engine
            panel.failed(reason)
            self.screen.tell(reason, title="Review failed", severity="error")

    def view_ply(self, ply: int) -> None:
        """The graph's ply clicked: its position on the board."""
        node = self.panel.node_at(ply)
        if node is not None:
            self.screen.view(node)
