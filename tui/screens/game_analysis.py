"""The game screen's analysis panel and hints, both asked of the app's analysis engine:
the panel solves the position on display (Connect 4: every column's exact value), a
hint (`h`) names the best move there, the panel's once it has proven every value, else
an Alpha-Beta search's. A component the screen holds (`screen.analysis`): it asks, and
shows what comes back on the panel, the board and the status line.
"""
from __future__ import annotations

from functools import cache

from plyground.core.catalogue import parse_agent
from plyground.core.play.worker import (AnalysisRequest, EngineDone, EngineEvents,
                                        EngineFailed, SearchRequest)
from plyground.core.search.events import AnalysisProgress
from plyground.core.values import Score

from ..widgets.analysis import AnalysisPanel


@cache
def hint_agent():
    """The agent that hints where no solver has proven values; made at the first hint,
    not at import (making an agent loads every plugin)."""
    return parse_agent("alphabeta:time=1")


class GameAnalysis:
    """The analysis and the hint of one game screen; one of each runs at a time."""

    def __init__(self, screen) -> None:
        self.screen = screen
        self.analysis_id: int | None = None  # the analysis running
        self.shown = True  # the panel shows values (`a` hides them)
        self.hint_id: int | None = None  # the hint's search in the analysis engine
        self.hint_state = None

    @property
    def panel(self) -> AnalysisPanel:
        return self.screen.query_one(AnalysisPanel)

    def analyse(self) -> None:
        """Solve the position on display in the analysis engine (cancelling the last)."""
        screen = self.screen
        if not screen.has_analysis:
            return
        panel = self.panel
        state = screen.shown_state
        if self.shown and panel.state == state and (
                panel.phase == "done" or self.analysis_id is not None):
            return  # solved, or being solved (a pause, a retry: the same position)
        self.stop()
        if not self.shown:
            panel.show_phase("hidden")
        elif state.outcome() is not None:
            panel.show_phase("over")
        else:
            game = screen.match.game
            self.analysis_id = screen.app.analyst.submit(
                AnalysisRequest(game.id, game.format_position(state), game.options()))
            panel.begin(state, screen.side_label(state.to_move))

    def stop(self) -> None:
        if self.analysis_id is not None:
            self.screen.app.analyst.cancel()
            self.analysis_id = None

    def toggle(self) -> None:
        self.shown = not self.shown
        self.analyse()

    def receive(self, update) -> None:
        """An update from the analysis engine: the hint's, or the panel's."""
        if update.search_id == self.hint_id and self.hint_id is not None:
            if isinstance(update, (EngineDone, EngineFailed)):
                self.hint_found(update)
            return
        if update.search_id != self.analysis_id:
            return  # the analysis of a position no longer shown
        panel = self.panel
        if isinstance(update, EngineEvents):
            progress = [e for e in update.events if isinstance(e, AnalysisProgress)]
            if progress:
                panel.progress(progress[-1])
        elif isinstance(update, EngineDone):
            self.analysis_id = None
            panel.finish(update.result)
        elif isinstance(update, EngineFailed):
            self.analysis_id = None
            panel.failed(update.message.splitlines()[0])

    # --- the hint --------------------------------------------------------------------

    def hint(self) -> None:
        """The best move for the side to move in the position shown, with its value:
        the analysis panel's, once it has proven every move's value, else Alpha-Beta's
        (hint_agent(), in the analysis engine)."""
        screen = self.screen
        state = screen.shown_state
        if state.outcome() is not None:
            screen.refuse("The game is over in this position: there is no move to hint.")
            return
        self.stop_hint()
        self.hint_state = state
        if screen.has_analysis:
            panel = self.panel
            if panel.state == state and panel.phase == "done" and panel.values:
                best = max(panel.values, key=lambda move: panel.values[move])
                self.show_hint(best, Score(panel.values[best], state.ply),
                               "the solver (exact)")
                return
        game = screen.match.game
        self.stop()
        self.hint_id = screen.app.analyst.submit(SearchRequest(
            game.id, game.format_position(state), hint_agent().spec, game.options()))
        screen.set_status(f"Hint: {hint_agent().label} is looking for "
                          f"{screen.side_label(state.to_move)}'s best move…")

    def show_hint(self, move, score: Score | None, source: str) -> None:
        screen, state = self.screen, self.hint_state
        value = "" if score is None else f" ({score})"
        screen.board.show_marks([move])
        screen.set_status(f"Hint: {screen.side_label(state.to_move)}'s best move is "
                          f"{screen.match.game.describe_move(move, state)}{value}, by "
                          f"{source}; it is marked on the board.")

    def stop_hint(self) -> None:
        if self.hint_id is not None:
            self.screen.app.analyst.cancel()
            self.hint_id = None

    def hint_found(self, update) -> None:
        self.hint_id = None
        if self.hint_state != self.screen.shown_state:
            return
        if isinstance(update, EngineDone):
            result = update.result
            self.show_hint(result.best_move, result.score(self.hint_state.ply),
                           hint_agent().label)
        else:
            self.screen.set_status(f"No hint: {update.message.splitlines()[0]}",
                                   error=True)
        self.analyse()
