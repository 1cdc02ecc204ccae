"""The game screen: the board, whose turn it is, the moves, the search inspector, and
for Connect 4 the analysis panel (every column's exact value).

Agents search in the engine process; its messages arrive here as `EngineUpdate`
messages, so the screen never blocks. Every key works at any moment: one that makes no
sense now (a move during the agent's turn, a full column) gets a message, nothing else.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static

from plyground.core.catalogue import parse_agent
from plyground.core.connect4.analysis import can_analyse
from plyground.core.play.worker import (DEFAULT_TRACE_CAP, AnalysisRequest, EngineDone,
                                        EngineEvents, EngineFailed, EngineForfeit,
                                        EngineStarted, EngineWarning, SearchRequest)
from plyground.core.errors import IllegalMove, PlygroundError
from plyground.core.records.tree import GameNode, GameTree
from plyground.core.records.history import History
from plyground.core.records.record import now, record_of
from plyground.core.play.match import Match
from plyground.core.search.control import Budget
from plyground.core.search.events import (AnalysisProgress, IterationDone, MctsSnapshot,
                                          TraceProgress)
from plyground.core.search.replay import replay_for
from plyground.core.values import describe_value

from ..widgets.analysis import AnalysisPanel
from ..widgets.boards import BoardWidget, board_for
from ..widgets.inspector import Inspector
from ..widgets.inspector.step_view import StepView
from ..widgets.key_footer import KeyFooter
from ..widgets.move_list import MoveList
from ..widgets.review_panel import ReviewPanel
from .game_review import GameReview
from .help import game_help, keys_text
from .opponent import OpponentScreen
from .result import ResultScreen, sentence
from .save import SaveScreen

LARGE_BOARD_HEIGHT = 40  # terminal rows from which the board is drawn at full size,
LARGE_BOARD_WIDTH = 100  # if it has as many columns (else the inspector is too narrow)
# Seconds between two repaints of a search's live views (inspector, heat map): the
# engine sends up to 20 batches a second, and painting each kept the screen busy a
# good part of the time, so that a key waited for a frame in progress (a key is to
# be answered within 50 ms p95, 100 ms at worst); five a second still reads as live.
LIVE_INTERVAL = 0.2
QUICK_NODES = 60_000  # a quicker replay stops at the deepest iteration within this
QUICK_ITERATIONS = 5_000  # or, for MCTS, replays this many iterations
HINT_AGENT = parse_agent("alphabeta:time=1")  # hints where no solver has proven values


class EngineUpdate(Message):
    """An engine message, posted from the engine's reader thread."""

    def __init__(self, update) -> None:
        super().__init__()
        self.update = update


class AnalysisUpdate(Message):
    """An analysis engine message, posted from its reader thread."""

    def __init__(self, update) -> None:
        super().__init__()
        self.update = update


@dataclass
class SearchRecord:
    """A search the screen started: what for, from where, and what came back."""

    purpose: str  # "move" (its result is played) or "trace" (only to step through)
    state: object
    side: int
    agent: object
    search_id: int
    result: object = None
    trace: list | None = None
    truncated: bool = False
    iterations: list = field(default_factory=list)  # a move search's IterationDone
    unshown: list = field(default_factory=list)  # live events not yet on the screen
    # a trace: what it replays, and what it must reproduce to be called faithful
    title: str = ""
    decision: "SearchRecord | None" = None
    expected: tuple | None = None  # (move, value, work) of the search replayed
    expected_of: str = ""  # whose figures those are, as the check names them
    played: object = None  # a recorded game's move that the trace must choose again
    note: str = ""  # what the trace is not, and what it shows instead
    target: int = 0
    progress: int = 0
    started: float = 0.0


# what the status and the inspector say until a search's clock starts
PREPARING = "preparing the engine…"
WIDE_FOOTER = 120  # columns from which the footer spaces its keys and shows ^p
# Terminal rows below which the left column is packed, so that the move list keeps
# room beside a 7 x 7 board at 80 x 24: the status takes two rows and leaves out the
# keys the footer lists, and the move list keeps only its top border, with its title.
SHORT_SCREEN = 30


class GameScreen(GameReview, Screen):
    DEFAULT_CSS = """
    GameScreen #players { height: 1; padding: 0 1; background: $panel; }
    GameScreen #main { height: 1fr; }
    GameScreen #left { width: 48; padding: 0 1; }
    GameScreen #status { height: 3; padding: 0 1; margin: 1 0 0 0; }
    GameScreen #status.error { color: $error; }
    GameScreen.-short #status { height: 2; margin: 0; }
    GameScreen.-short MoveList, GameScreen.-short MoveList:focus {
        border: none; border-top: round $panel-lighten-2; }
    GameScreen.-short MoveList:focus { border-top: round $accent; }
    GameScreen #inspector { width: 1fr; }
    """
    # The footer shows these in this order; when they do not fit, it shortens their
    # labels, then leaves out FOOTER_SPARE's keys, the first first (the help screen,
    # ?, lists every key).
    BINDINGS = [
        Binding("u", "undo", "Undo"),
        Binding("n", "new_game", "New game"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "quit", "Quit"),
        Binding("s", "step_through", "Step through search"),
        Binding("h", "hint", "Hint"),
        Binding("p", "pause", "Pause"),
        Binding("full_stop", "step_move", "Next move"),
        Binding("i", "focus_inspector", "Inspect"),
        Binding("a", "toggle_analysis", "Analysis"),
        Binding("o", "another_opponent", "Other player"),
        Binding("e", "review", "Review"),
        Binding("w", "save", "Save"),
        Binding("d", "quick_replay", "Quicker replay"),
        Binding("escape", "setup", "Setup"),
        # t, r, [, ], {, }, l and g stay out of the footer, which is full (the help screen
        # lists them, and the status line names r when a search failed)
        Binding("t", "toggle_trace", "Trace", show=False),
        Binding("r", "retry", "Retry", show=False),
        Binding("left_square_bracket", "walk(-1)", "Back", show=False),
        Binding("right_square_bracket", "walk(1)", "Forward", show=False),
        Binding("left_curly_bracket", "choose(-1)", "At a branch: the move above",
                show=False),
        Binding("right_curly_bracket", "choose(1)", "At a branch: the move below",
                show=False),
        Binding("l", "live", "Live game", show=False),
        Binding("g", "games", "Games", show=False),
    ]
    # The keys a narrow footer leaves out, the least needed first (Quit: ctrl+q too);
    # Review, Save, Setup and the board's keys are never left out.
    FOOTER_SPARE = ("quit", "quick_replay", "toggle_analysis", "hint", "focus_inspector",
                    "new_game", "undo", "step_through", "step_move")

    def __init__(self, match: Match, move_delay: float = 0.6,
                 tree: GameTree | None = None, history_id: int | None = None) -> None:
        super().__init__()
        self.match = match
        # the game with its variations (its main line is the live game's moves)
        self.game_tree = tree or GameTree.from_moves(match.start, match.moves)
        self.viewing: GameNode | None = None  # a position chosen in the move list
        self.decided: dict[GameNode, Text] = {}  # a searched move: what decided it
        self.hint_id: int | None = None  # the hint's search in the analysis engine
        self.hint_state = None
        self.history_id = history_id  # the game's entry in the history, once kept
        self.started = now()  # the record's date
        self.live: GameNode = self.game_tree.root
        self.move_delay = move_delay  # pause between two agents' moves, to follow them
        self.search: SearchRecord | None = None  # running
        self.last: SearchRecord | None = None  # the last finished search with a result
        self.recorded: SearchRecord | None = None  # the last search recorded to step through
        self.paused = False
        self.trace_mode = False
        self.failed: str | None = None
        self.timer = None
        self.live_timer = None  # the next repaint of the live views, when one is due
        self.live_shown_at = 0.0
        # when the search's clock started; None while the engine prepares (it compiles
        # or loads its kernels, off the move's clock)
        self.thinking_since: float | None = None
        self.analysis_id: int | None = None  # the analysis running
        self.analysis_shown = True

    # --- layout --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="players")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield board_for(self.match.game, id="board")
                if self.has_analysis:
                    yield AnalysisPanel(self.match.game.board.width)
                yield Static(id="status")
                yield ReviewPanel()
                yield MoveList()
            yield Inspector(id="inspector")
        yield KeyFooter()

    @property
    def board(self) -> BoardWidget:
        return self.query_one("#board", BoardWidget)

    @property
    def has_analysis(self) -> bool:
        return self.app.analysis and can_analyse(self.match.game)

    @property
    def inspector(self) -> Inspector:
        return self.query_one(Inspector)

    def on_mount(self) -> None:
        self.app.engine.warm(self.match.game.id)
        self.set_interval(0.25, self.refresh_thinking)
        self.fit_board()
        self.board.focus()
        self.start_game()

    def on_resize(self) -> None:
        self.fit_board()
        # a narrow footer packs its keys and leaves the palette's to ctrl+p alone
        footer = self.query_one(Footer)
        footer.compact = self.app.size.width < WIDE_FOOTER
        footer.show_command_palette = self.app.size.width >= WIDE_FOOTER
        self.call_after_refresh(footer.fit)  # (its keys' widths change with compact)

    @property
    def short(self) -> bool:
        return self.app.size.height < SHORT_SCREEN

    def fit_board(self) -> None:
        if self.short != self.has_class("-short"):
            self.set_class(self.short, "-short")
            if self.match.agent_to_move() is None or self.paused:
                self.show_turn()  # the key hint, or the paused line, fits the room
        large = (self.app.size.height >= LARGE_BOARD_HEIGHT
                 and self.app.size.width >= LARGE_BOARD_WIDTH)
        self.board.set_large(large)
        if self.has_analysis:
            self.query_one(AnalysisPanel).set_cell_width(self.board.cell_width)
        self.query_one("#left").styles.width = 48 if large else 41
        self.review_panel.set_class(not large, "small")
        self.review_panel.mark(self.viewing or self.live, self.viewing is None)

    def player_name(self, side: int) -> str:
        agent = self.match.agents[side]
        if agent is not None:
            return agent.label
        humans = sum(self.match.is_human(s) for s in (0, 1))
        return "You" if humans == 1 else "Human"

    def refresh_players(self) -> None:
        game = self.match.game
        sides = "   ".join(f"{game.side_labels[s]}: {self.player_name(s)}" for s in (0, 1))
        flags = [flag for flag, on in (("paused", self.paused and self.match.watching),
                                       ("trace on", self.trace_mode)) if on]
        text = Text(f"{game.title}   ", style="bold")
        text.append(sides)
        if self.match.seed is not None:  # to replay the game: play --seed, or Seed
            text.append(f"   seed {self.match.seed}", style="dim")
        if flags:
            text.append("   [" + ", ".join(flags) + "]", style="bold")
        self.query_one("#players", Static).update(text, layout=False)

    # --- the flow of the game ------------------------------------------------------

    def start_game(self) -> None:
        self.inspector.idle("No search yet: the inspector shows an agent's search "
                            "while it thinks.")
        self.last = self.recorded = None
        self.paused = False
        self.failed = None
        self.after_move(animate=False)

    def after_move(self, animate: bool) -> None:
        """Show the position and start whatever comes next."""
        self.live = self.game_tree.sync(self.match.moves)
        if self.viewing is None:
            self.board.show(self.match.state, animate=animate)
        self.refresh_moves()
        self.refresh_players()
        self.show_turn()
        self.analyse()
        if self.match.outcome is not None:
            self.later(self.move_delay if animate else 0, self.show_result)
        elif self.match.agent_to_move() is not None and not self.paused \
                and self.failed is None:
            self.later(self.move_delay if animate and self.match.watching else 0,
                       self.start_search)

    @property
    def shown_state(self):
        """The position on the board: the live game's, or one chosen in the move list."""
        return self.match.state if self.viewing is None else self.viewing.state

    def refresh_moves(self) -> None:
        start = self.match.start
        start_text = "" if start == self.match.game.start() else \
            self.match.game.format_position(start)
        self.query_one(MoveList).show(self.match.game, self.game_tree,
                                      self.viewing or self.live, self.live, start_text,
                                      self.judged)
        self.review_panel.mark(self.viewing or self.live, self.viewing is None)

    def show_turn(self) -> None:
        """The status line and the board's cursor for the current position."""
        if self.viewing is not None:
            self.show_viewing()
            return
        outcome = self.match.outcome
        agent = self.match.agent_to_move()
        self.board.set_interactive(outcome is None and agent is None)
        side = self.side_label()
        if self.failed is not None:
            self.set_status(f"The search failed: {self.failed}  The game is unchanged: "
                            "r tries again.", error=True)
        elif self.match.forfeit is not None:
            self.set_status(f"{self.match.game.describe_outcome(outcome)}: "
                            f"{sentence(outcome.reason)}  o: another player for that "
                            "side, and go on · n: new game · Esc: setup", error=True)
        elif outcome is not None:
            self.set_status(f"{self.match.game.describe_outcome(outcome)}: "
                            f"{sentence(outcome.reason)}  n: new game · u: undo · Esc: "
                            "setup")
        elif agent is None:
            yours = "" if self.match.is_human(1 - self.match.state.to_move) else \
                " — your turn"
            hint = "" if self.short else f": {self.board.hint}"  # short: the footer's
            self.set_status(f"{side} to move{yours}{hint}")
        elif self.paused:  # a short screen's two lines: the players' bar names the agent
            who = side if self.short else f"{side} ({agent.label})"
            self.set_status(f"Paused. {who} is next: press . for one move, p to resume.")
        else:
            self.set_status(f"{side} ({agent.label}) is about to move…")

    def side_label(self, side: int | None = None) -> str:
        side = self.match.state.to_move if side is None else side
        return self.match.game.side_labels[side]

    def later(self, delay: float, callback) -> None:
        """Run `callback` after `delay` seconds, unless cancel_timer() comes first."""
        self.cancel_timer()
        self.timer = self.set_timer(max(delay, 0.001), callback)  # Textual refuses 0

    def cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None

    def tell(self, message: str, severity: str = "information", title: str = "") -> None:
        """A notification; plain text, since messages may quote the user's input."""
        self.notify(message, severity=severity, title=title, markup=False)

    def refuse(self, reason: object) -> None:
        """A key or a move that cannot act now: why, in the status line (and a
        notification); nothing changes."""
        text = str(reason).rstrip(".") + "."
        if isinstance(reason, IllegalMove):  # as the rules say it (it may start with
            text = f"Not played: {text}"  # a move, whose case is its notation's)
        reason = text
        self.set_status(reason, error=True)
        self.tell(reason, severity="warning")

    def set_status(self, message: str, error: bool = False) -> None:
        status = self.query_one("#status", Static)
        status.update(Text(message), layout=False)  # fixed height: no relayout
        status.set_class(error, "error")

    def show_result(self) -> None:
        self.timer = None
        outcome = self.match.outcome
        if outcome is None or isinstance(self.app.screen, ResultScreen):
            return
        self.keep_in_history()
        self.app.engine.release_agents()
        self.app.push_screen(ResultScreen(self.match.game.describe_outcome(outcome),
                                          outcome.reason,
                                          replace=self.match.forfeit is not None),
                             self.result_chosen)

    def result_chosen(self, choice: str | None) -> None:
        if choice == "replace":
            self.action_another_opponent()
        elif choice == "again":
            self.action_new_game()
        elif choice == "setup":
            self.action_setup()

    # --- searching -----------------------------------------------------------------

    def start_search(self) -> None:
        """Ask the engine for the move of the agent to play."""
        self.timer = None
        state = self.match.state
        side = state.to_move
        agent = self.match.agents[side]
        if agent is None or state.outcome() is not None:
            return
        game = self.match.game
        request = SearchRequest(game.id, game.format_position(state), agent.spec,
                                game.options(), trace=self.trace_mode)
        self.board.show_heat({})
        search_id = self.app.engine.submit(request)
        self.search = SearchRecord("move", state, side, agent, search_id,
                                   started=time.monotonic())
        self.failed = None
        self.thinking_since = None
        self.inspector.begin(self.match.game, state, agent, self.side_label(side))
        self.inspector.set_summary(f"{self.side_label(side)}: {PREPARING}")
        self.refresh_thinking()

    def start_trace(self, state, agent, budget: Budget | None, title: str,
                    decision: "SearchRecord | None" = None, expected=None,
                    expected_of: str = "", trace_depth: int | None = None,
                    target: int = 0, played=None, note: str = "") -> None:
        """Record `agent`'s search of `state` step by step (the decision's view stays
        as it is; the summary shows the recording's progress). Every iteration is kept
        if they all fit the trace's cap (two events a node), else only the one of
        `trace_depth`: memory stays bounded. The agent searches for the side to move
        in `state`, which every line of step mode names."""
        game = self.match.game
        if 2 * target <= DEFAULT_TRACE_CAP:
            trace_depth = None
        self.cancel_timer()
        request = SearchRequest(game.id, game.format_position(state), agent.spec,
                                game.options(), trace=True, budget=budget,
                                trace_depth=trace_depth, target=target)
        search_id = self.app.engine.submit(request)
        self.search = SearchRecord("trace", state, state.to_move, agent, search_id,
                                   title=title, decision=decision, expected=expected,
                                   expected_of=expected_of, target=target,
                                   started=time.monotonic(), played=played, note=note)
        self.thinking_since = None
        self.show_replay_progress()
        self.refresh_thinking()
        self.refresh_bindings()

    def show_replay_progress(self) -> None:
        search = self.search
        text = Text(f"Recording {search.title}, step by step…\n", style="bold")
        unit = "iterations" if search.agent.shows == "visits" else "nodes"
        if search.target:
            share = min(search.progress / search.target, 1.0)
            text.append(f"{search.progress:,} of {search.target:,} {unit} "
                        f"({100 * share:.0f}%)")
            seconds = time.monotonic() - search.started
            if search.progress and seconds > 0.5:
                left = (search.target - search.progress) / (search.progress / seconds)
                text.append(f" · about {max(left, 0):.0f} s left")
        else:
            text.append(f"{search.progress:,} {unit} so far")
        if self.quick_plan() is not None:
            text.append("\nd: a quicker, shallower replay instead (labelled as one)")
        text.append("\ns again: stop recording")
        self.inspector.replaying(text)

    def refresh_thinking(self) -> None:
        self.watch_the_clock()
        if self.search is None:
            return
        if self.search.purpose == "trace":
            self.show_replay_progress()
        if self.thinking_since is None:
            doing = f": {PREPARING}"
        else:
            seconds = time.monotonic() - self.thinking_since
            what = "is thinking" if self.search.purpose == "move" else \
                "is recording a step-by-step trace"
            doing = f" {what}… {seconds:.1f} s"
        self.set_status(f"{self.side_label(self.search.side)} ({self.search.agent.label})"
                        f"{doing}   (u: undo · n: new game · q: quit)")

    def cancel_search(self) -> None:
        if self.search is not None:
            self.app.engine.cancel()
            self.search = None
        self.cancel_timer()

    def on_engine_update(self, message: EngineUpdate) -> None:
        update = message.update
        if isinstance(update, EngineWarning):
            self.tell(update.message, severity="warning")
            return
        search = self.search
        if search is None or update.search_id != search.search_id:
            return  # a cancelled or superseded search
        if isinstance(update, EngineStarted):
            self.thinking_since = time.monotonic()
            if search.purpose == "move":
                self.inspector.set_summary(f"{self.side_label(search.side)} is thinking…")
            self.refresh_thinking()
        elif isinstance(update, EngineEvents):
            if search.purpose == "trace":
                progress = [e for e in update.events if isinstance(e, TraceProgress)]
                if progress:
                    search.progress = progress[-1].work
                    self.show_replay_progress()
                return
            search.iterations += [e for e in update.events if isinstance(e, IterationDone)]
            search.unshown += update.events
            self.show_live_soon()
        elif isinstance(update, EngineDone):
            self.search = None
            self.show_live(search)  # the last events, before the decision
            self.refresh_bindings()
            search.result, search.trace, search.truncated = \
                update.result, update.trace, update.truncated
            if search.purpose == "trace":
                self.recorded = search
                self.open_step_view(search)
                self.after_move(animate=False)
                return
            self.inspector.finish(update.result, self.side_label(search.side))
            self.last = search
            self.play(update.result.best_move)
            if self.match.moves and self.match.moves[-1] == update.result.best_move:
                self.decided[self.live] = self.inspector.decision_summary()
        elif isinstance(update, EngineForfeit):
            self.search = None
            self.forfeit(update.message)
        elif isinstance(update, EngineFailed):
            self.search = None
            self.refresh_bindings()
            reason = update.message.splitlines()[0]
            self.tell(reason, title="Search failed", severity="error")
            if search.purpose == "move":
                self.inspector.failed(reason)
                self.failed = reason
            else:
                self.inspector.leave_step()
            self.show_turn()

    def forfeit(self, reason: str) -> None:
        """The agent to move broke the rules of play: the game ends, kept as it is;
        `o` picks another player for that side and goes on."""
        self.cancel_timer()
        outcome = self.match.forfeits(reason)
        self.tell(outcome.reason, title="Forfeit", severity="error")
        self.inspector.failed(outcome.reason, what="")
        self.refresh_bindings()
        self.after_move(animate=False)

    def watch_the_clock(self) -> None:
        """An agent from outside that does not answer long after its time (a loop
        that never checks the clock) forfeits: its search process is stopped."""
        search = self.search
        if search is None or search.purpose != "move" or not search.agent.external \
                or self.app.engine.clock == "tick":  # (tests' clock: not real seconds)
            return
        time_budget = search.agent.budget().time
        if time_budget is None:
            return
        limit = search.agent.hang_limit(time_budget)
        since = search.started if self.thinking_since is None else self.thinking_since
        if time.monotonic() - since > limit:
            self.search = None
            self.app.engine.close()  # the next search starts a new process
            self.forfeit(f"{search.agent.label} did not answer within {limit:.0f} s "
                         f"({time_budget:g} s a move)")

    def show_live_soon(self) -> None:
        """Hand the live events to the views now, or at LIVE_INTERVAL (more for a
        large MCTS table) after the last time; the events that come meanwhile go
        along then. All views take them at once, so they show the same snapshot."""
        if self.live_timer is not None:
            return
        interval = max(LIVE_INTERVAL, self.inspector.live_interval)
        wait = self.live_shown_at + interval - time.monotonic()
        if wait > 0:
            self.live_timer = self.set_timer(wait, self.show_live_due)
        else:
            self.show_live(self.search)

    def show_live_due(self) -> None:
        self.live_timer = None
        if self.search is not None:  # (else it ended, and showed its events then)
            self.show_live(self.search)

    def show_live(self, search: SearchRecord) -> None:
        events, search.unshown = search.unshown, []
        self.live_shown_at = time.monotonic()
        if events:
            self.inspector.feed(events)
            self.show_heat(events)

    def show_heat(self, events: list) -> None:
        """Where MCTS spends its playouts, on the board."""
        snapshots = [e for e in events if isinstance(e, MctsSnapshot)]
        if snapshots and self.viewing is None:
            stats = snapshots[-1].stats
            total = sum(stat.visits for stat in stats) or 1
            self.board.show_heat({stat.move: stat.visits / total for stat in stats})

    def play(self, move) -> None:
        try:
            self.match.play(move)
        except IllegalMove as error:  # nothing changes: say why
            self.refuse(error)
            return
        self.after_move(animate=True)

    # --- the analysis panel ----------------------------------------------------------

    def analyse(self) -> None:
        """Solve the position on display in the analysis engine (cancelling the last)."""
        if not self.has_analysis:
            return
        panel = self.query_one(AnalysisPanel)
        state = self.shown_state
        if self.analysis_shown and panel.state == state and (
                panel.phase == "done" or self.analysis_id is not None):
            return  # solved, or being solved (a pause, a retry: the same position)
        self.stop_analysis()
        if not self.analysis_shown:
            panel.show_phase("hidden")
        elif state.outcome() is not None:
            panel.show_phase("over")
        else:
            game = self.match.game
            self.analysis_id = self.app.analyst.submit(
                AnalysisRequest(game.id, game.format_position(state), game.options()))
            panel.begin(state, self.side_label(state.to_move))

    def stop_analysis(self) -> None:
        if self.analysis_id is not None:
            self.app.analyst.cancel()
            self.analysis_id = None

    def on_analysis_update(self, message: AnalysisUpdate) -> None:
        update = message.update
        if isinstance(update, EngineWarning):
            self.tell(update.message, severity="warning")
            return
        if update.search_id == self.hint_id and self.hint_id is not None:
            if isinstance(update, (EngineDone, EngineFailed)):
                self.hint_found(update)
            return
        if update.search_id != self.analysis_id:
            return  # the analysis of a position no longer shown
        panel = self.query_one(AnalysisPanel)
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

    def action_toggle_analysis(self) -> None:
        self.analysis_shown = not self.analysis_shown
        self.analyse()

    # --- human moves -----------------------------------------------------------------

    def on_board_widget_move_chosen(self, message: BoardWidget.MoveChosen) -> None:
        message.stop()
        if self.viewing is not None:
            self.play_variation(message.move)
            return
        if self.match.outcome is not None:
            self.refuse("The game is over: n starts a new game, u takes moves back.")
            return
        agent = self.match.agent_to_move()
        if agent is not None:
            self.refuse(f"It is {self.side_label()}'s turn: {agent.label} plays it.")
            return
        self.failed = None
        self.board.show_heat({})
        self.play(message.move)

    def on_board_widget_prompt(self, message: BoardWidget.Prompt) -> None:
        if message.text:
            self.set_status(message.text)
        else:
            self.show_turn()

    # --- walking the game ---------------------------------------------------------

    def on_move_list_chosen(self, message: MoveList.Chosen) -> None:
        message.stop()
        self.view(message.node)

    def view(self, node: GameNode | None) -> None:
        """Show `node`'s position (None or the live node: the live game)."""
        if node is self.live:
            node = None
        if node is None and self.viewing is None:
            return
        self.viewing = node
        self.stop_hint()
        if node is None:
            self.board.show(self.match.state)
            self.board.show_heat({})
            self.inspector.show_live()
        else:
            self.board.show_reached(node.state, node.parent and node.parent.state)
            self.board.show_heat({})
            self.inspector.show_past(*self.past_decision(node))
        self.refresh_moves()
        self.show_turn()
        self.analyse()
        self.refresh_bindings()

    def leave_viewing(self) -> None:
        if self.viewing is not None:
            self.view(None)

    def past_decision(self, node: GameNode) -> tuple[Text, Text]:
        """The inspector's summary and text for an earlier position: how its move was
        decided (a search's summary, kept when it decided), and how the next one was."""
        game = self.match.game
        where = "a variation" if not node.on_main_line else \
            "the start" if node.parent is None else "the game"
        summary = Text(f"Viewing {where}: {self.position_name(node)}. "
                       "The live game goes on; l or End: back to it.", style="bold")
        text = Text()
        for title, decided in (("The move that led here", node),
                               ("The move played from here", node.children[0]
                                if node.children else None)):
            if decided is None or decided.move is None:
                continue
            text.append(f"{title}: {game.format_move(decided.move)}\n", style="bold")
            text.append_text(self.decided.get(decided, Text(
                "played by a human, or in a variation: no search decided it")))
            text.append("\n\n")
        return summary, text or Text("No move yet.")

    def position_name(self, node: GameNode) -> str:
        if node.parent is None:
            return "the start position"
        moves = self.match.game.format_line(node.moves())
        return f"after {moves}" if len(moves) <= 40 else f"after …{moves[-38:]}"

    def show_viewing(self) -> None:
        node = self.viewing
        outcome = node.state.outcome()
        self.board.set_interactive(outcome is None)
        side = self.side_label(node.state.to_move)
        if outcome is not None:
            what = f"{self.match.game.describe_outcome(outcome)}: {outcome.reason}."
        elif self.short:  # two short lines: the keys must stay in them
            what = "A move here starts a variation."
        else:
            what = (f"{side} to move: a move played here starts a variation "
                    "(no agent answers it).")
        keys = "[ ] walk · l live" if self.short else "[ ]: walk · l: live game"
        self.set_status(f"Viewing {self.position_name(node)}. {what}  {keys}")

    def play_variation(self, move) -> None:
        """A move played on a position of the past: a variation (or the move that
        was played there, walking on), kept in the tree."""
        try:
            node = self.viewing.add(move)
        except IllegalMove as error:
            self.refuse(error)
            return
        self.view(node)

    def action_walk(self, step: int) -> None:
        """Back, or forward along the line walked (or the move chosen at a branch)."""
        node = self.viewing or self.live
        target = node.parent if step < 0 else self.query_one(MoveList).next_node(node)
        if target is None:
            self.refuse("That is the start of the game." if step < 0 else
                        "No move after this one: l goes back to the live game.")
            return
        self.view(target)

    def action_choose(self, step: int) -> None:
        """At a branch of the position shown, the move `]` plays: one above or below."""
        if not self.query_one(MoveList).choose(step):
            self.refuse("Only one move follows this position: { } choose where "
                        "several do (a branch, shown in the move list).")

    def action_live(self) -> None:
        if self.viewing is None:
            self.refuse("This is the live game already: [ walks back through its moves.")
        self.view(None)

    # --- the hint --------------------------------------------------------------------

    def action_hint(self) -> None:
        """The best move for the side to move in the position shown, with its value:
        the analysis panel's, once it has proven every move's value, else Alpha-Beta's
        (HINT_AGENT, in the analysis engine)."""
        state = self.shown_state
        if state.outcome() is not None:
            self.refuse("The game is over in this position: there is no move to hint.")
            return
        self.stop_hint()
        self.hint_state = state
        if self.has_analysis:
            panel = self.query_one(AnalysisPanel)
            if panel.state == state and panel.phase == "done" and panel.values:
                best = max(panel.values, key=lambda move: panel.values[move])
                self.show_hint(best, panel.values[best], None, "the solver (exact)")
                return
        game = self.match.game
        self.stop_analysis()
        self.hint_id = self.app.analyst.submit(SearchRequest(
            game.id, game.format_position(state), HINT_AGENT.spec, game.options()))
        self.set_status(f"Hint: {HINT_AGENT.label} is looking for "
                        f"{self.side_label(state.to_move)}'s best move…")

    def show_hint(self, move, value, scale, source: str) -> None:
        state = self.hint_state
        value = "" if value is None else f" ({describe_value(value, state.ply, scale)})"
        self.board.show_marks([move])
        self.set_status(f"Hint: {self.side_label(state.to_move)}'s best move is "
                        f"{self.match.game.describe_move(move, state)}{value}, by "
                        f"{source}; it is marked on the board.")

    def stop_hint(self) -> None:
        if self.hint_id is not None:
            self.app.analyst.cancel()
            self.hint_id = None

    def hint_found(self, update) -> None:
        self.hint_id = None
        if self.hint_state != self.shown_state:
            return
        if isinstance(update, EngineDone):
            result = update.result
            self.show_hint(result.best_move, result.value, result.scale, HINT_AGENT.label)
        else:
            self.set_status(f"No hint: {update.message.splitlines()[0]}", error=True)
        self.analyse()

    # --- records and the history ------------------------------------------------------

    def record(self, left: bool = False):
        """The game as a record: its moves, variations and comments; an unfinished
        game `left` (for another, the setup, the end of the app) is abandoned, one
        still being played has no reason yet."""
        reason = "abandoned" if left and self.match.outcome is None else ""
        return record_of(self.match, self.game_tree, self.started, reason)

    def keep_in_history(self, left: bool = False) -> None:
        """Keep the game (finished, saved, or left with moves played) in the game
        history: added once, then updated (a take-back and a new ending, variations)."""
        if not self.match.moves and self.match.outcome is None \
                and not self.game_tree.root.children:
            return
        try:
            with History() as history:
                if self.history_id is None:
                    self.history_id = history.add(self.record(left), "app")
                else:
                    history.update(self.history_id, self.record(left))
        except PlygroundError as error:
            # Said once an app: each game would fail the same way, and play goes on.
            if getattr(self.app, "history_failure", None) != str(error):
                self.app.history_failure = str(error)
                self.tell(f"The games are not kept in the history: {error}",
                          severity="warning")

    def action_save(self) -> None:
        def saved(path: str | None) -> None:
            if path is not None:
                self.tell(f"Saved to {path}  (plyground play {self.match.game.id} "
                          f"--load FILE opens it)")
                self.keep_in_history()

        self.app.push_screen(SaveScreen(self.record()), saved)

    def action_games(self) -> None:
        """The games of the history; the one chosen opens here (this one is kept)."""
        self.app.choose_from_history(replacing=self)

    def leave_for_another_game(self) -> None:
        """Keep this game in the history and stop what runs for it."""
        self.keep_in_history(left=True)
        self.cancel_search()
        self.app.engine.release_agents()
        self.stop_analysis()
        self.stop_review()

    # --- actions ---------------------------------------------------------------------

    def check_action(self, action: str, parameters) -> bool | None:
        """Show only the keys that mean something now (None = shown but disabled)."""
        if action in ("pause", "step_move"):
            return self.match.watching  # (hidden when a human plays: room for the rest)
        if action == "another_opponent":
            return self.match.forfeit is not None
        if action == "toggle_analysis":
            return self.has_analysis  # only Connect 4 has one
        if action == "quick_replay":
            return self.quick_plan() is not None
        return True

    def action_undo(self) -> None:
        self.leave_viewing()
        self.cancel_search()
        undone = self.match.undo()
        if self.match.watching:
            self.paused = True
        self.failed = None
        self.after_move(animate=False)
        if not undone:
            self.refuse("Nothing to undo.")

    def action_new_game(self) -> None:
        self.leave_viewing()
        self.cancel_search()
        self.keep_in_history(left=True)
        self.app.engine.release_agents()
        self.match.restart()
        self.game_tree, self.decided = GameTree(self.match.start), {}
        self.clear_review()
        self.history_id, self.started = None, now()
        self.start_game()

    def action_pause(self) -> None:
        if not self.match.watching:
            self.refuse("Pause is for watching two agents play.")
            return
        self.paused = not self.paused
        if self.paused:
            self.cancel_timer()
            self.refresh_players()
            if self.search is None:
                self.after_move(animate=False)
        elif self.search is None:
            self.after_move(animate=False)
        else:
            self.refresh_players()

    def action_step_move(self) -> None:
        if not self.match.watching:
            self.refuse("Stepping move by move is for watching two agents play.")
            return
        self.paused = True
        self.refresh_players()
        if self.search is None and self.match.outcome is None:
            self.start_search()

    def action_help(self) -> None:
        """The game's rules, the keys that act now and the inspector's symbols."""
        self.app.push_screen(game_help(self.match.game, keys_text(self)))

    def action_another_opponent(self) -> None:
        """After a forfeit: pick who plays the side that forfeited, and go on."""
        forfeit = self.match.forfeit
        if forfeit is None:
            return
        side = 1 - forfeit.winner

        def chosen(spec: str | None) -> None:
            if spec is None:
                return
            self.match.replace_side(side, spec)
            agent = self.match.agents[side]
            self.tell(f"{self.side_label(side)} is now played by "
                      f"{'a human' if agent is None else agent.label}.")
            self.refresh_bindings()
            self.after_move(animate=False)

        self.app.push_screen(OpponentScreen(self.match.game, side), chosen)

    def action_retry(self) -> None:
        if self.failed is None:
            self.refuse("Nothing to retry: r starts a failed search again")
            return
        self.failed = None
        self.after_move(animate=False)

    def action_toggle_trace(self) -> None:
        self.trace_mode = not self.trace_mode
        self.refresh_players()
        self.tell("Trace on: searches run in Python and record every step (slower)."
                  if self.trace_mode else "Trace off: searches run at full speed.")

    def action_step_through(self) -> None:
        """Step through the search behind the last move an agent played: its own trace
        if it recorded one (trace mode), else the same search again, tracing, checked
        to repeat the decision. A move decided before this screen (a record opened, a
        game reopened) is searched again by the agent that played it. With no agent's
        move yet, a new search of this position by the agent to move."""
        if self.search is not None:
            if self.search.purpose == "move":
                self.refuse("Wait until the search ends (or pause) to step through it.")
                return
            self.cancel_search()  # s again: stop recording
            self.inspector.leave_step()
            self.tell("Recording stopped.")
            self.after_move(animate=False)
            return
        played = self.last_agent_move()
        if played is None:
            self.trace_new_search()
            return
        index, note = played
        decision = self.last
        if decision is None or decision.state is not self.match.states[index]:
            self.trace_played_move(index, note)
            return
        decision.note = note
        result, agent = decision.result, decision.agent
        if decision.trace:
            decision.title = "the deciding search, recorded as it ran"
            self.open_step_view(decision)
            return
        recorded = self.recorded
        if recorded is not None and recorded.decision is decision and recorded.trace:
            recorded.note = note
            self.open_step_view(recorded)
            return
        plan = agent.replay_plan(result)
        if plan is None:
            self.refuse("Its values come from a solver (a compiled kernel): there are no "
                        "steps to show." if result.exact else
                        f"{agent.label} does not search: there is nothing to step through.")
            return
        replayer, budget = plan
        depth = result.depth if replayer.shows == "tree" else None
        self.start_trace(decision.state, replayer, budget, "the deciding search", decision,
                         (result.best_move, result.value, result.work), "the decision",
                         depth, result.work, note=note)

    def move_name(self, index: int) -> str:
        """The game's move at `index` as step mode names it, e.g. `O's 4`."""
        state, move = self.match.states[index], self.match.moves[index]
        return f"{self.side_label(state.to_move)}'s {self.match.game.format_move(move)}"

    def last_agent_move(self) -> tuple[int, str] | None:
        """The index of the last move an agent played in the game, with a line saying
        so when a human's move came after it; None if no agent has moved."""
        match = self.match
        last = len(match.moves) - 1
        for index in range(last, -1, -1):
            if match.agents[match.states[index].to_move] is not None:
                note = "" if index == last else (
                    f"The last move, {self.move_name(last)}, was a human's: shown "
                    f"instead, the search behind {self.move_name(index)}.")
                return index, note
        return None

    def unrepeatable(self, agent) -> str:
        """Why a search `agent` made before this screen cannot be repeated for certain
        ('' if it can): a clock stops a slower, tracing search elsewhere; code from
        outside plyground may search differently each time; an unknown seed."""
        if agent.external:
            return f"by {agent.label}, code from outside plyground"
        time_budget = agent.budget().time
        if time_budget is not None:
            return f"against a {time_budget:g} s clock"
        if "seed" in agent.settings and "seed" not in agent.given \
                and self.match.seed is None:
            return "with a seed the record does not give"
        return ""

    def trace_played_move(self, index: int, note: str) -> None:
        """Record the search behind a move decided before this screen (a record
        opened, a game reopened): the agent that played it searches the position
        before it again with its own settings and seed, and must choose it again. A
        search that cannot be repeated for certain is labelled a new search."""
        state, move = self.match.states[index], self.match.moves[index]
        agent = self.match.agents[state.to_move]
        what = self.move_name(index)
        recorded = self.recorded
        if recorded is not None and recorded.played == move and recorded.state is state \
                and recorded.trace:
            recorded.note = note
            self.open_step_view(recorded)
            return
        if agent.shows == "none":
            self.refuse(f"{agent.label} does not search: there is nothing to step through.")
            return
        if agent.shows not in ("tree", "visits"):
            self.refuse(f"{what} was played by {agent.label}, from outside plyground: "
                        "its search has no steps to show.")
            return
        why = self.unrepeatable(agent)
        title = f"the search behind {what}, replayed"
        if why:
            title = f"a new search of the position before {what}"
            note = "\n".join(filter(None, (note, (
                f"{what} was chosen {why}, which no replay repeats for certain: shown "
                "instead, a new search of that position by the same agent."))))
        budget = agent.budget()
        target = (budget.iterations if agent.shows == "visits" else budget.nodes) or 0
        self.start_trace(state, agent, None, title, target=target, played=move, note=note)

    def quick_plan(self):
        """(budget, what it is, the figures it must reproduce, whose they are, trace
        depth, work expected) of a quicker replay of the decision being replayed, or
        None if there is none quicker."""
        search = self.search
        if search is None or search.purpose != "trace" or search.decision is None \
                or search.expected is None:
            return None
        result = search.decision.result
        if search.agent.shows == "visits":
            if result.work <= QUICK_ITERATIONS:
                return None
            return (Budget(iterations=QUICK_ITERATIONS),
                    f"a {QUICK_ITERATIONS:,}-iteration replay of a "
                    f"{result.work:,}-iteration decision", None, "", None,
                    QUICK_ITERATIONS)
        quick = [event for event in search.decision.iterations
                 if event.nodes <= QUICK_NODES and event.depth < (result.depth or 0)]
        if not quick:
            return None
        iteration = quick[-1]
        return (Budget(depth=iteration.depth),
                f"a depth-{iteration.depth} replay of a depth-{result.depth} decision",
                (iteration.best_move, iteration.value, iteration.nodes),
                "the decision's own iteration at that depth", iteration.depth,
                iteration.nodes)

    def action_quick_replay(self) -> None:
        plan = self.quick_plan()
        if plan is None:
            self.refuse("d makes a quicker replay while a long replay is being recorded.")
            return
        budget, title, expected, expected_of, depth, target = plan
        search = self.search
        self.start_trace(search.state, search.agent, budget, title, search.decision,
                         expected, expected_of, depth, target, note=search.note)

    def trace_new_search(self) -> None:
        """No agent has moved yet: record the search the agent to move would make now,
        labelled as a new search (never another side's agent on this position)."""
        if self.match.outcome is not None:
            self.refuse("The game is over and no agent searched in it: nothing to step "
                        "through.")
            return
        agent = self.match.agent_to_move()
        if agent is None:
            self.refuse(f"No agent has moved yet and {self.side_label()} is played by "
                        "hand: there is no search to step through yet.")
            return
        if agent.shows == "none":
            self.refuse(f"{agent.label} does not search: there is nothing to step through.")
            return
        self.start_trace(self.match.state, agent, None,
                         "a new search of this position (no move was decided yet)")

    def open_step_view(self, record: SearchRecord) -> None:
        replay = replay_for(record.trace or [])
        if replay is None:
            self.refuse("That search recorded no steps.")
            return
        side = self.side_label(record.state.to_move)  # as the step view's lines name it
        title = Text(f"{side}: {record.agent.label} with {side} to move — {record.title}",
                     style="bold")
        if record.note:
            title.append("\n" + record.note, style="yellow")
        check = self.replay_check(record)
        if check is not None:
            title.append("\n")
            title.append_text(check)
        self.inspector.step(replay, self.match.game, record.state, title, record.truncated)

    def replay_check(self, record: SearchRecord) -> Text | None:
        """Whether a replay repeated what it replays: move, value and work; or, for a
        move decided before this screen, the move that was played."""
        if record.played is not None and record.result is not None:
            chose = self.match.game.format_move(record.result.best_move)
            if record.result.best_move == record.played:
                return Text(f"✓ it chose {chose}, the move played in the game",
                            style="bold green")
            return Text(f"✗ it chose {chose}, not the game's "
                        f"{self.match.game.format_move(record.played)}: the steps are "
                        "this search's own", style="bold red")
        if record.expected is None or record.result is None:
            if record.decision is not None:
                return Text("not checked against the decision: a shorter search",
                            style="yellow")
            return None
        result = record.result

        def figures(move, value, work) -> str:
            value_text = "" if value is None else \
                f", value {describe_value(value, record.state.ply, result.scale)}"
            return (f"move {self.match.game.format_move(move)}{value_text}, "
                    f"{work:,} {result.work_unit}")

        replayed = figures(result.best_move, result.value, result.work)
        if (result.best_move, result.value, result.work) == record.expected:
            return Text(f"✓ matches {record.expected_of}: {replayed}", style="bold green")
        return Text(f"✗ differs from {record.expected_of}: the replay gives {replayed}; "
                    f"it was {figures(*record.expected)}. The steps are the "
                    "replay's own (a kernel that searched another tree, node for node, "
                    "than the traced Python search)", style="bold red")

    def action_focus_inspector(self) -> None:
        if not self.inspector.focus_view():
            self.refuse("Nothing to inspect yet: the inspector fills when an agent searches.")

    def action_focus_board(self) -> None:
        self.board.focus()

    def on_step_view_left(self, message: StepView.Left) -> None:
        self.inspector.leave_step()
        self.board.focus()

    def action_setup(self) -> None:
        self.keep_in_history(left=True)
        self.cancel_search()
        self.app.engine.release_agents()
        self.stop_analysis()
        self.stop_review()
        self.app.show_setup(self.match)

    async def action_quit(self) -> None:
        self.keep_in_history(left=True)
        self.cancel_search()
        self.app.exit()
