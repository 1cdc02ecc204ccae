"""The game screen's searches as they run: the agent to move is asked for its move (or a
search is recorded for step mode) through the screen's SearchDriver; the engine's
updates are shown live in the inspector and the board's heat map, at the pace the
driver sets, and the move decided is played. An agent that breaks the rules of play,
or stops answering, forfeits.

A component the screen holds (`screen.searching`); the screen hands it the search
engine's updates (GameScreen.on_engine_update) and paints the heat (show_heat).
"""
from __future__ import annotations

from plyground.core.play.worker import (EngineDone, EngineEvents, EngineFailed,
                                        EngineForfeit, EngineStarted)

from ..search_driver import PREPARING, Purpose, SearchRecord


class GameSearch:
    """The searches of one game screen, shown while they run."""

    def __init__(self, screen) -> None:
        self.screen = screen
        self.live_timer = None  # the next repaint of the live views, when one is due

    def start(self) -> None:
        """Ask the engine for the move of the agent to play."""
        screen = self.screen
        screen.timer = None
        state = screen.match.state
        agent = screen.match.agents[state.to_move]
        if agent is None or state.outcome() is not None:
            return
        screen.board.show_heat({})
        screen.driver.start_move(screen.match.game, state, agent, screen.trace_mode)
        screen.failed = None
        side = screen.side_label(state.to_move)
        screen.inspector.begin(screen.match.game, state, agent, side)
        screen.inspector.set_summary(f"{side}: {PREPARING}")
        self.refresh()

    def refresh(self) -> None:
        """The status line of the search running (what it does, for how long), and
        the clock of an agent from outside."""
        screen = self.screen
        self.watch_the_clock()
        search = screen.search
        if search is None:
            return
        if search.purpose == Purpose.TRACE:
            screen.steps.show_progress()
        screen.set_status(f"{screen.side_label(search.side)} ({search.agent.label})"
                          f"{screen.driver.doing()}   (u: undo · n: new game · q: quit)")

    def receive(self, update) -> None:
        """An update from the search engine."""
        screen = self.screen
        search = screen.driver.receive(update)
        if search is None:
            return  # a cancelled or superseded search
        if isinstance(update, EngineStarted):
            if search.purpose == Purpose.MOVE:
                screen.inspector.set_summary(
                    f"{screen.side_label(search.side)} is thinking…")
            self.refresh()
        elif isinstance(update, EngineEvents):
            if search.purpose == Purpose.TRACE:
                screen.steps.show_progress()
            else:
                self.show_soon()
        elif isinstance(update, EngineDone):
            self.show(search)  # the last events, before the decision
            screen.refresh_bindings()
            if search.purpose == Purpose.TRACE:
                screen.steps.open(search)
                screen.after_move(animate=False)
                return
            screen.inspector.finish(update.result, screen.side_label(search.side))
            screen.play(update.result.best_move)
            if screen.match.moves and screen.match.moves[-1] == update.result.best_move:
                screen.walk.decided[screen.live] = screen.inspector.decision_summary()
        elif isinstance(update, EngineForfeit):
            self.forfeit(update.message)
        elif isinstance(update, EngineFailed):
            screen.refresh_bindings()
            reason = update.message.splitlines()[0]
            screen.tell(reason, title="Search failed", severity="error")
            if search.purpose == Purpose.MOVE:
                screen.inspector.failed(reason)
                screen.failed = reason
            else:
                screen.inspector.leave_step()
            screen.show_turn()

    def forfeit(self, reason: str) -> None:
        """The agent to move broke the rules of play: the game ends, kept as it is;
        `o` picks another player for that side and goes on."""
        screen = self.screen
        screen.cancel_timer()
        outcome = screen.match.forfeits(reason)
        screen.tell(outcome.reason, title="Forfeit", severity="error")
        screen.inspector.failed(outcome.reason, what="")
        screen.refresh_bindings()
        screen.after_move(animate=False)

    def watch_the_clock(self) -> None:
        """An agent from outside that does not answer long after its time forfeits."""
        reason = self.screen.driver.hung()
        if reason is not None:
            self.forfeit(reason)

    def show_soon(self) -> None:
        """Hand the live events to the views now, or when the driver says they are
        due; the events that come meanwhile go along then. All views take them at
        once, so they show the same snapshot."""
        if self.live_timer is not None:
            return
        screen = self.screen
        wait = screen.driver.live_wait(screen.inspector.live_interval)
        if wait > 0:
            self.live_timer = screen.set_timer(wait, self.show_due)
        else:
            self.show(screen.search)

    def show_due(self) -> None:
        self.live_timer = None
        if self.screen.search is not None:  # (else it ended, and showed its events then)
            self.show(self.screen.search)

    def show(self, search: SearchRecord) -> None:
        events = self.screen.driver.take_unshown(search)
        if events:
            self.screen.inspector.feed(events)
            self.screen.show_heat(events)
