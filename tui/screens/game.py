"""The game screen: the board, whose turn it is, the moves, the search inspector, and
for Connect 4 the analysis panel (every column's exact value).

Agents search in the engine process; its messages arrive here as `EngineUpdate`
messages (tui/engine_update.py), so the screen never blocks. Every key works at any
moment: one that makes no sense now (a move during the agent's turn, a full column)
gets a message, nothing else.
"""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from plyground.core.connect4.analysis import can_analyse
from plyground.core.play.worker import (EngineDone, EngineEvents, EngineFailed,
                                        EngineForfeit, EngineStarted, EngineWarning)
from plyground.core.errors import IllegalMove, PlygroundError
from plyground.core.records.tree import GameNode, GameTree
from plyground.core.records.history import History
from plyground.core.records.record import now, record_of
from plyground.core.play.match import Match
from plyground.core.search.events import MctsSnapshot
from plyground.core.search.replay import replay_for

from ..engine_update import ANALYSIS, REVIEW, EngineUpdate
from ..search_driver import (PREPARING, SearchDriver, SearchRecord, TracePlan,
                             check_replay)
from ..widgets.analysis import AnalysisPanel
from ..widgets.boards import BoardWidget, board_for
from ..widgets.inspector import Inspector
from ..widgets.inspector.step_view import StepView
from ..widgets.key_footer import KeyFooter
from ..widgets.move_list import MoveList
from ..widgets.review_panel import ReviewPanel
from ..widgets.value_graph import ValueGraph
from .game_analysis import GameAnalysis
from .game_review import GameReview
from .help import game_help, keys_text
from .opponent import OpponentScreen
from .result import ResultScreen, sentence
from .save import SaveScreen

LARGE_BOARD_HEIGHT = 40  # terminal rows from which the board is drawn at full size,
LARGE_BOARD_WIDTH = 100  # if it has as many columns (else the inspector is too narrow)


WIDE_FOOTER = 120  # columns from which the footer spaces its keys and shows ^p
# Terminal rows below which the left column is packed, so that the move list keeps
# room beside a 7 x 7 board at 80 x 24: the status takes two rows and leaves out the
# keys the footer lists, and the move list keeps only its top border, with its title.
SHORT_SCREEN = 30
CHECK_STYLES = {True: "bold green", False: "bold red", None: "yellow"}  # a replay's check


class GameScreen(Screen):
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
        self.history_id = history_id  # the game's entry in the history, once kept
        self.started = now()  # the record's date
        self.live: GameNode = self.game_tree.root
        self.move_delay = move_delay  # pause between two agents' moves, to follow them
        self.driver = SearchDriver(self.app.engine)  # (made in the app's context)
        self.paused = False
        self.trace_mode = False
        self.failed: str | None = None
        self.timer = None
        self.live_timer = None  # the next repaint of the live views, when one is due
        self.analysis = GameAnalysis(self)  # the analysis panel, and hints
        self.review = GameReview(self)

    @property
    def search(self) -> SearchRecord | None:
        """The search running, if one is."""
        return self.driver.search

    @property
    def last(self) -> SearchRecord | None:
        """The last move search that finished."""
        return self.driver.last

    @property
    def analysis_id(self) -> int | None:
        return self.analysis.analysis_id

    @property
    def hint_id(self) -> int | None:
        return self.analysis.hint_id

    @property
    def review_id(self) -> int | None:
        return self.review.review_id

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
        self.review.panel.set_class(not large, "small")
        self.review.panel.mark(self.viewing or self.live, self.viewing is None)

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
        self.driver.forget()
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
        self.analysis.analyse()
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
                                      self.review.judged)
        self.review.panel.mark(self.viewing or self.live, self.viewing is None)

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
        agent = self.match.agents[state.to_move]
        if agent is None or state.outcome() is not None:
            return
        self.board.show_heat({})
        self.driver.start_move(self.match.game, state, agent, self.trace_mode)
        self.failed = None
        side = self.side_label(state.to_move)
        self.inspector.begin(self.match.game, state, agent, side)
        self.inspector.set_summary(f"{side}: {PREPARING}")
        self.refresh_thinking()

    def start_trace(self, plan: TracePlan) -> None:
        """Record a search step by step (the decision's view stays as it is; the
        summary shows the recording's progress)."""
        self.cancel_timer()
        self.driver.start_trace(self.match.game, plan)
        self.show_replay_progress()
        self.refresh_thinking()
        self.refresh_bindings()

    def show_replay_progress(self) -> None:
        text = Text(f"Recording {self.search.title}, step by step…\n", style="bold")
        text.append(self.driver.recording())
        self.inspector.replaying(text)

    def refresh_thinking(self) -> None:
        self.watch_the_clock()
        search = self.search
        if search is None:
            return
        if search.purpose == "trace":
            self.show_replay_progress()
        self.set_status(f"{self.side_label(search.side)} ({search.agent.label})"
                        f"{self.driver.doing()}   (u: undo · n: new game · q: quit)")

    def cancel_search(self) -> None:
        self.driver.cancel()
        self.cancel_timer()

    def on_engine_update(self, message: EngineUpdate) -> None:
        """An update from one of the app's engines, handed to what asked for it."""
        update = message.update
        if isinstance(update, EngineWarning):
            self.tell(update.message, severity="warning")
        elif message.source == ANALYSIS:
            self.analysis.receive(update)
        elif message.source == REVIEW:
            self.review.receive(update)
        else:
            self.search_update(update)

    def search_update(self, update) -> None:
        search = self.driver.receive(update)
        if search is None:
            return  # a cancelled or superseded search
        if isinstance(update, EngineStarted):
            if search.purpose == "move":
                self.inspector.set_summary(f"{self.side_label(search.side)} is thinking…")
            self.refresh_thinking()
        elif isinstance(update, EngineEvents):
            if search.purpose == "trace":
                self.show_replay_progress()
            else:
                self.show_live_soon()
        elif isinstance(update, EngineDone):
            self.show_live(search)  # the last events, before the decision
            self.refresh_bindings()
            if search.purpose == "trace":
                self.open_step_view(search)
                self.after_move(animate=False)
                return
            self.inspector.finish(update.result, self.side_label(search.side))
            self.play(update.result.best_move)
            if self.match.moves and self.match.moves[-1] == update.result.best_move:
                self.decided[self.live] = self.inspector.decision_summary()
        elif isinstance(update, EngineForfeit):
            self.forfeit(update.message)
        elif isinstance(update, EngineFailed):
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
        """An agent from outside that does not answer long after its time forfeits."""
        reason = self.driver.hung()
        if reason is not None:
            self.forfeit(reason)

    def show_live_soon(self) -> None:
        """Hand the live events to the views now, or when the driver says they are
        due; the events that come meanwhile go along then. All views take them at
        once, so they show the same snapshot."""
        if self.live_timer is not None:
            return
        wait = self.driver.live_wait(self.inspector.live_interval)
        if wait > 0:
            self.live_timer = self.set_timer(wait, self.show_live_due)
        else:
            self.show_live(self.search)

    def show_live_due(self) -> None:
        self.live_timer = None
        if self.search is not None:  # (else it ended, and showed its events then)
            self.show_live(self.search)

    def show_live(self, search: SearchRecord) -> None:
        events = self.driver.take_unshown(search)
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

    # --- the analysis panel, hints and the review ----------------------------------

    def action_toggle_analysis(self) -> None:
        self.analysis.toggle()

    def action_hint(self) -> None:
        self.analysis.hint()

    def action_review(self) -> None:
        self.review.start_or_stop()

    def on_value_graph_chosen(self, message: ValueGraph.Chosen) -> None:
        message.stop()
        self.review.view_ply(message.ply)

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
        self.analysis.stop_hint()
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
        self.analysis.analyse()
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
        self.analysis.stop()
        self.review.stop()

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
            return self.driver.quick_plan() is not None
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
        self.review.clear()
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
        """Step through the search behind the last move an agent played (which one,
        and how: SearchDriver.step_through); `s` while it is recorded stops it."""
        if self.search is not None:
            if self.search.purpose == "move":
                self.refuse("Wait until the search ends (or pause) to step through it.")
                return
            self.cancel_search()  # s again: stop recording
            self.inspector.leave_step()
            self.tell("Recording stopped.")
            self.after_move(animate=False)
            return
        choice = self.driver.step_through(self.match)
        if isinstance(choice, str):
            self.refuse(choice)
        elif isinstance(choice, TracePlan):
            self.start_trace(choice)
        else:
            self.open_step_view(choice)

    def action_quick_replay(self) -> None:
        plan = self.driver.quick_plan()
        if plan is None:
            self.refuse("d makes a quicker replay while a long replay is being recorded.")
            return
        self.start_trace(plan)

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
        check = check_replay(record, self.match.game)
        if check is not None:
            title.append("\n")
            title.append(check.text, style=CHECK_STYLES[check.matches])
        self.inspector.step(replay, self.match.game, record.state, title, record.truncated)

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
        self.analysis.stop()
        self.review.stop()
        self.app.show_setup(self.match)

    async def action_quit(self) -> None:
        self.keep_in_history(left=True)
        self.cancel_search()
        self.app.exit()
