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
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from plyground.core.connect4.analysis import can_analyse
from plyground.core.play.worker import EngineWarning
from plyground.core.errors import IllegalMove, visible
from plyground.core.records.tree import GameNode, GameTree
from plyground.core.play.match import Match
from plyground.core.search.events import MctsSnapshot

from ..engine_update import ANALYSIS, REVIEW, EngineUpdate
from ..search_driver import SearchDriver, SearchRecord
from ..widgets.analysis import AnalysisPanel
from ..widgets.boards import BoardWidget, board_for
from ..widgets.inspector import Inspector
from ..widgets.inspector.step_view import StepView
from ..widgets.key_footer import KeyFooter
from ..widgets.move_list import MoveList
from ..widgets.review_panel import ReviewPanel
from ..widgets.value_graph import ValueGraph
from . import game_keys
from .game_analysis import GameAnalysis
from .game_end import GameEnd
from .game_history import GameHistory
from .game_pace import GamePace
from .game_review import GameReview
from .game_search import GameSearch
from .game_sizing import GameSizing
from .game_status import GameStatus
from .game_steps import GameSteps
from .game_walk import GameWalk
from .help import game_help, keys_text

# Terminal rows below which the left column is packed, so that the move list keeps
# room beside a 7 x 7 board at 80 x 24: the status takes two rows and leaves out the
# keys the footer lists, and the move list keeps only its top border, with its title.
SHORT_SCREEN = 30


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
    BINDINGS, FOOTER_SPARE = game_keys.BINDINGS, game_keys.FOOTER_SPARE

    def __init__(self, match: Match, move_delay: float = 0.6,
                 tree: GameTree | None = None, history_id: int | None = None) -> None:
        super().__init__()
        self.match = match
        # the game with its variations (its main line is the live game's moves)
        self.game_tree = tree or GameTree.from_moves(match.start, match.moves)
        # from a record (a file, the history, the Match screen): no "Play again"
        self.opened_record = tree is not None
        self.live: GameNode = self.game_tree.root
        self.move_delay = move_delay  # pause between two agents' moves, to follow them
        self.driver = SearchDriver(self.app.engine)  # (made in the app's context)
        self.paused = False
        self.trace_mode = False
        self.failed: str | None = None
        self.timer = None
        self.analysis = GameAnalysis(self)  # the analysis panel, and hints
        self.review = GameReview(self)
        self.walk = GameWalk(self)  # the position viewed, when not the live one
        self.searching = GameSearch(self)
        self.steps = GameSteps(self)
        self.history = GameHistory(self, history_id)
        self.status = GameStatus(self)  # the players' bar and the turn's status line
        self.end = GameEnd(self)
        self.pace = GamePace(self)  # two agents' game: pause, one move
        self.sizing = GameSizing(self)

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

    @property
    def viewing(self) -> GameNode | None:
        """The position of the past on the board; None: the live game's."""
        return self.walk.viewing

    @property
    def history_id(self) -> int | None:
        """The game's entry in the history, once kept."""
        return self.history.history_id

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
        self.set_interval(0.25, self.searching.refresh)
        self.sizing.fit_board()
        self.board.focus()
        self.start_game()

    def on_resize(self) -> None:
        self.sizing.fit_board()
        self.sizing.fit_footer()
        self.status.refresh_players()  # (it fits its words to the width)

    @property
    def short(self) -> bool:
        return self.app.size.height < SHORT_SCREEN

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
        self.status.refresh_players()
        self.show_turn()
        self.analysis.analyse()
        if self.end.over(self.move_delay if animate else 0):  # (the dialog, once)
            return
        if self.match.agent_to_move() is not None and not self.paused \
                and self.failed is None:
            self.later(self.move_delay if animate and self.match.watching else 0,
                       self.searching.start)

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
        """The status line and the board's cursor for the position shown."""
        self.status.show_turn()

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
        """A notification; plain text, since messages may quote the user's input, and
        with its escapes shown, since they may quote a record, an engine or a net."""
        self.notify(visible(message, lines=True), severity=severity, title=title,
                    markup=False)

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
        # a Text (no markup read), its escapes shown: a reason may be a record's words
        status.update(Text(visible(message, lines=True)),
                      layout=False)  # fixed height: no relayout
        status.set_class(error, "error")

    # --- searching -----------------------------------------------------------------

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
            self.searching.receive(update)

    def forfeit(self, reason: str) -> None:
        self.searching.forfeit(reason)

    def show_heat(self, events: list) -> None:
        """Where MCTS spends its playouts (or what a network's prior says), on the
        board."""
        snapshots = [e for e in events if isinstance(e, MctsSnapshot)]
        if snapshots and self.viewing is None:
            self.board.show_search(snapshots[-1])

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
            self.walk.play_variation(message.move)
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
        self.walk.view(node)

    def action_walk(self, step: int) -> None:
        self.walk.walk(step)

    def action_choose(self, step: int) -> None:
        self.walk.choose(step)

    def action_live(self) -> None:
        self.walk.live()

    # --- the record and the history ---------------------------------------------------

    def record(self, left: bool = False):
        return self.history.record(left)

    def keep_in_history(self, left: bool = False) -> None:
        self.history.keep(left)

    def action_save(self) -> None:
        self.history.save()

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
        return game_keys.key_applies(self, action)

    def action_undo(self) -> None:
        self.walk.leave()
        self.cancel_search()
        undone = self.match.undo()
        if self.match.watching:
            self.paused = True
        self.failed = None
        self.after_move(animate=False)
        if not undone:
            self.refuse("Nothing to undo.")

    def action_new_game(self) -> None:
        self.walk.leave()
        self.cancel_search()
        self.keep_in_history(left=True)
        self.app.engine.release_agents()
        self.match.restart()
        self.game_tree = GameTree(self.match.start)
        self.walk.decided.clear()
        self.review.clear()
        self.history = GameHistory(self)
        self.opened_record = False  # a game played here now
        self.start_game()

    def action_pause(self) -> None:
        self.pace.pause()

    def action_step_move(self) -> None:
        self.pace.step_move()

    def action_help(self) -> None:
        """The game's rules, the keys that act now and the inspector's symbols."""
        self.app.push_screen(game_help(self.match.game, keys_text(self)))

    def action_another_opponent(self) -> None:
        self.end.another_opponent()

    def action_retry(self) -> None:
        if self.failed is None:
            self.refuse("Nothing to retry: r starts a failed search again")
            return
        self.failed = None
        self.after_move(animate=False)

    def action_toggle_trace(self) -> None:
        self.trace_mode = not self.trace_mode
        self.status.refresh_players()
        self.tell("Trace on: searches run in Python and record every step (slower)."
                  if self.trace_mode else "Trace off: searches run at full speed.")

    def action_step_through(self) -> None:
        self.steps.step_through()

    def action_quick_replay(self) -> None:
        self.steps.quick_replay()

    def action_toggle_heat(self) -> None:
        self.tell(self.board.toggle_heat_source())

    action_no_prior = action_toggle_heat  # (the board says why nothing changes)

    def action_focus_inspector(self) -> None:
        if not self.inspector.focus_view():
            self.refuse("Nothing to inspect yet: the inspector fills when an agent searches.")

    def action_focus_board(self) -> None:
        self.board.focus()

    def on_step_view_left(self, message: StepView.Left) -> None:
        self.inspector.leave_step()
        self.board.focus()

    def action_setup(self) -> None:
        self.leave_for_another_game()
        self.app.show_setup(self.match)

    async def action_quit(self) -> None:
        self.keep_in_history(left=True)
        self.cancel_search()
        self.app.exit()
