"""The Match screen: is agent A stronger than agent B? An SPRT on game pairs (each
opening played twice, colours swapped) for the game chosen on the setup screen, shown
as it runs: the LLR curve between its bounds, the score, Elo with its 95% interval,
the likelihood of superiority, the pentanomial counts, the game under way on a small
board and the finished games, any of which opens on the analysis board.

The screen shows and routes keys; tui/arena_driver.py plays the run on a thread worker
and hands back a snapshot (ArenaView) after each event. Esc stops a run under way and
leaves its results on screen. On a narrow terminal the form and the run take turns:
Start shows the run; once it has ended, Esc shows the form and Ctrl+R the run again,
the footer naming whichever the key does now.
"""
from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, DataTable, Footer, Input, Label, Select, Static

from plyground.core import Game, PlygroundError
from plyground.core.catalogue import HUMAN
from plyground.core.errors import visible
from plyground.core.play.openings import shipped_suites
from plyground.core.play.sprt import MODELS, SPRT
from plyground.core.play.tournament import local_pool
from plyground.core.rng import fresh_seed

from ..arena_driver import (LABELS, NO_OPENINGS, ArenaDriver, ArenaView, PoolFactory,
                            figure_lines, live_line, read_plan, result_line)
from ..fields import FieldError, blamed, refuse, seed as read_seed
from ..text_board import render_board
from ..widgets.llr_chart import LlrChart
from ..widgets.pentanomial import Pentanomial
from .games import GameTable
from .setup import SideRow, player_choices, row_from_spec, spec_for

FILE = "\0file"  # the openings menu's entry whose box names a suite file
NARROW = 120  # narrower terminals show the form or the run, not both
SHORT = 36  # shorter ones show the game under way as a line, not a board
DEFAULTS = SPRT()
DEFAULT_MAX_PAIRS = 1000
DEFAULT_SIDES = ("alphabeta", "mcts")
FIELDS = (("elo0", f"{DEFAULTS.elo0:g}"), ("elo1", f"{DEFAULTS.elo1:g}"),
          ("alpha", f"{DEFAULTS.alpha:g}"), ("beta", f"{DEFAULTS.beta:g}"))


class ArenaUpdate(Message):
    """A run's new snapshot, from the driver's thread."""

    def __init__(self, driver: ArenaDriver, view: ArenaView) -> None:
        super().__init__()
        self.driver, self.view = driver, view


def openings_choices(game: Game) -> list[tuple[str, str]]:
    """The game's shipped suites (the default first), none, or a file: the first is
    chosen at first."""
    return [*((f"{name} (shipped)", name) for name in shipped_suites(game)),
            ("None: the usual start", NO_OPENINGS), ("A suite file…", FILE)]


class MatchScreen(Screen):
    DEFAULT_CSS = """
    MatchScreen #match { height: 1fr; }
    MatchScreen #match-form { width: 66; height: 1fr; padding: 0 1; }
    MatchScreen #match-fields { height: auto; }
    MatchScreen.-short #match-fields { height: 1fr; }
    MatchScreen #match-run { width: 1fr; height: 1fr; padding: 0 1; }
    MatchScreen.-narrow #match-form { width: 1fr; }
    MatchScreen.-narrow.-run-shown #match-form { display: none; }
    MatchScreen.-narrow #match-run { display: none; }
    MatchScreen.-narrow.-run-shown #match-run { display: block; }
    MatchScreen .title { text-style: bold; color: $accent; }
    MatchScreen .heading { text-style: bold; margin-top: 1; }
    MatchScreen SideRow { margin-bottom: 0; }
    MatchScreen SideRow > Label { width: 4; }
    MatchScreen SideRow > Select { width: 30; }
    MatchScreen SideRow > .setting-help { display: none; }
    MatchScreen #openings-row, MatchScreen .numbers { height: auto; }
    MatchScreen #openings { width: 30; }
    MatchScreen #openings-file { width: 1fr; }
    MatchScreen .numbers > Label { width: 10; padding: 1 1 0 0; }
    MatchScreen .numbers > Input { width: 12; }
    MatchScreen #model { width: 20; }
    MatchScreen #match-buttons { height: auto; margin-top: 1; }
    MatchScreen #match-error { color: $error; height: auto; }
    MatchScreen #run-title { height: auto; }
    MatchScreen LlrChart { height: 1fr; min-height: 5; max-height: 13; }
    MatchScreen #figures { height: auto; }
    MatchScreen #middle { height: auto; margin-top: 1; }
    MatchScreen Pentanomial { width: 1fr; }
    MatchScreen #live { width: auto; min-width: 24; height: auto; padding: 0 0 0 2; }
    MatchScreen #finished { height: 1fr; min-height: 3; margin-top: 1; }
    MatchScreen #result-line { height: auto; text-style: bold; }
    MatchScreen.-short LlrChart { max-height: 7; }
    MatchScreen.-short #middle { margin-top: 0; }
    MatchScreen.-short #live { max-width: 50%; }
    """
    # Esc does one thing at a time, the first of these that applies (check_action):
    # stop the run, show the form in its place, go back to the setup screen
    BINDINGS = [
        Binding("ctrl+s", "start", "Start"),
        Binding("escape", "stop", "Stop"),
        Binding("escape", "form", "Form"),
        Binding("escape", "back", "Back"),
        Binding("ctrl+r", "results", "Results"),
    ]

    def __init__(self, game: Game, sides: tuple[str | None, str | None] = (None, None)
                 ) -> None:
        """`sides`: the agents A and B are first (None: the default one)."""
        super().__init__()
        self.game = game
        self.sides = tuple(spec or default for spec, default in zip(sides, DEFAULT_SIDES))
        self.driver: ArenaDriver | None = None
        self.view: ArenaView | None = None
        self.pool: PoolFactory = local_pool  # where the games are played

    def compose(self) -> ComposeResult:
        with Horizontal(id="match"):
            # the error line is below the fields' scroll, in sight of the field at fault
            with Vertical(id="match-form"):
                with VerticalScroll(id="match-fields"):
                    yield from self.compose_fields()
                yield Static(id="match-error")
            with Vertical(id="match-run"):
                yield Static("No run yet: choose the agents and Start.", id="run-title")
                yield LlrChart()
                yield Static(id="figures")
                with Horizontal(id="middle"):
                    yield Pentanomial()
                    yield Static(id="live")
                yield GameTable(cursor_type="row", id="finished")
                yield Static(id="result-line")
        yield Footer()

    def compose_fields(self) -> ComposeResult:
        """The form: the agents, the openings, the test, Start."""
        yield Static(f"Match: is A stronger than B at {self.game.title}?",
                     classes="title")
        yield Label("Agents (A, then B)", classes="heading")
        for side, spec in enumerate(self.sides):
            yield SideRow(side, *row_from_spec(spec))
        yield Label("Openings (each played twice, colours swapped)", classes="heading")
        with Horizontal(id="openings-row"):
            choices = openings_choices(self.game)
            yield Select(choices, value=choices[0][1], allow_blank=False, id="openings")
            yield Input(placeholder="path/to/suite.txt", id="openings-file")
        yield Label("SPRT: H0 elo0 against H1 elo1, error rates α, β",
                    classes="heading")
        for pair in (FIELDS[:2], FIELDS[2:]):
            with Horizontal(classes="numbers"):
                for name, value in pair:
                    yield Label(name)
                    yield Input(value, id=name)
        with Horizontal(classes="numbers"):
            yield Label("model")
            yield Select([(model, model) for model in MODELS], value=MODELS[0],
                         allow_blank=False, id="model")
        with Horizontal(classes="numbers"):
            yield Label("max pairs")
            yield Input(str(DEFAULT_MAX_PAIRS), id="max-pairs")
            yield Label("seed")
            yield Input(placeholder="random", id="match-seed")
        with Horizontal(id="match-buttons"):
            yield Button("Start", id="match-start", variant="primary")

    def on_mount(self) -> None:
        for row in self.query(SideRow):
            row.offer([choice for choice in player_choices(self.game, row.extra)
                       if choice[1] != HUMAN])
            row.query_one(Label).update(LABELS[row.side])
        table = self.query_one("#finished", GameTable)
        table.add_columns("game", "opening", "first", "result")
        self.query_one(LlrChart).show([], DEFAULTS.lower, DEFAULTS.upper)
        self.show_openings_file()
        self.fit()
        self.query_one("#match-start", Button).focus()

    def on_resize(self) -> None:
        self.fit()

    def fit(self) -> None:
        self.set_class(self.size.width < NARROW, "-narrow")
        self.set_class(self.size.height < SHORT, "-short")
        if self.view is not None:
            self.show_live(self.view)
        self.refresh_bindings()  # Esc and Ctrl+R do what the width allows

    def show_openings_file(self) -> None:
        self.query_one("#openings-file").display = \
            self.query_one("#openings", Select).value == FILE

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "openings":
            self.show_openings_file()
        elif event.select.id.startswith("player-"):
            row = next(row for row in self.query(SideRow) if event.select in row.children)
            row.describe(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "match-start":
            self.action_start()

    def on_input_submitted(self) -> None:
        self.action_start()

    # --- running -----------------------------------------------------------------

    def field(self, name: str) -> str:
        return self.query_one(f"#{name}", Input).value

    def openings(self) -> str:
        chosen = self.query_one("#openings", Select).value
        if chosen != FILE:
            return chosen
        path = self.field("openings-file").strip()
        if not path:
            raise FieldError("Openings: name a suite file, or choose another entry",
                             "openings")
        return path

    def at_fault(self, problem: PlygroundError) -> Widget | None:
        """The field a refusal names (FieldError's names: read_plan's, and "seed"):
        an agent's setting box, else its menu; the suite file's box where the menu
        asks for one, else the menu."""
        name = getattr(problem, "name", None)
        if name in LABELS:
            row = self.query_one(f"#side-{LABELS.index(name)}", SideRow)
            box = row.query_one(Input)
            return row.query_one(Select) if box.disabled else box
        if name == "openings":
            box = self.query_one("#openings-file", Input)
            return box if box.display else self.query_one("#openings", Select)
        fields = {"max pairs": "#max-pairs", "seed": "#match-seed",
                  **{field: f"#{field}" for field, _ in FIELDS}}
        return self.query_one(fields[name]) if name in fields else None

    def action_start(self) -> None:
        """Read the form and start the run; anything wrong is one line under the form,
        and the cursor goes to the field at fault."""
        if self.running:
            return
        error = self.query_one("#match-error", Static)
        rows = sorted(self.query(SideRow), key=lambda row: row.side)
        seed_text = self.field("match-seed").strip()
        try:
            specs = tuple(spec_for(row.kind, row.value) for row in rows)
            for label, spec in zip(LABELS, specs):
                with blamed(label, f"Agent {label}: "):
                    self.app.check_choice(spec)
            seed = read_seed("seed", seed_text)
            plan = read_plan(self.game, specs, *(self.field(name) for name, _ in FIELDS),
                             self.query_one("#model", Select).value,
                             self.field("max-pairs"), self.openings(),
                             fresh_seed() if seed is None else seed)
        except PlygroundError as problem:
            refuse(error, str(problem), self.at_fault(problem))
            return
        error.update("")
        self.query_one("#finished", GameTable).clear()
        # A served app's visitor writes nothing into the server's history.
        driver = ArenaDriver(plan, lambda view: self.post_message(ArenaUpdate(driver, view)),
                             self.pool, keep=getattr(self.app, "served", None) is None)
        self.driver = driver
        self.show_run(True)
        self.show(driver.view)
        self.play(driver)

    @work(thread=True, group="arena")
    def play(self, driver: ArenaDriver) -> None:
        driver.run()

    def on_arena_update(self, message: ArenaUpdate) -> None:
        if message.driver is self.driver:
            self.show(message.view)

    def show(self, view: ArenaView) -> None:
        """Draw the run as `view` has it."""
        self.view = view
        plan, status = view.plan, view.status
        self.query_one("#run-title", Static).update(Text.assemble(
            (f"A {plan.specs[0]}", "bold"), " against ", (f"B {plan.specs[1]}", "bold"),
            f" · openings {plan.suite.name if plan.suite else 'none'} · seed {plan.seed}"))
        test = plan.test
        self.query_one(LlrChart).show(list(view.llrs), test.lower, test.upper)
        self.query_one("#figures", Static).update(Text("\n".join(figure_lines(view))))
        if status is not None:
            self.query_one(Pentanomial).show(status.counts)
        self.show_live(view)
        self.show_finished(view)
        line = result_line(view)
        if view.notice:
            line = f"{line}\n{view.notice}".strip()
        self.query_one("#result-line", Static).update(Text(line))
        self.refresh_bindings()

    def show_live(self, view: ArenaView) -> None:
        """The game under way (or the last finished) on the small board; a short
        terminal has room for its line alone."""
        live = self.query_one("#live", Static)
        line = Text(live_line(view), style="bold")
        if view.live is None or self.has_class("-short"):
            live.update(line)
            return
        live.update(Group(line, render_board(view.live.state)))

    def show_finished(self, view: ArenaView) -> None:
        table = self.query_one("#finished", GameTable)
        for row in view.finished[table.row_count:]:
            # a reason may quote an agent's fault: a Text (no markup), its escapes shown
            table.add_row(str(row.number), row.opening or "start", row.first,
                          Text(visible(row.result)), key=str(row.number))
        if view.running:
            table.scroll_end(animate=False)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Open the game chosen on the analysis board."""
        event.stop()
        number = int(event.row_key.value)
        row = next(row for row in self.view.finished if row.number == number)
        if row.history_id is None:
            self.notify("That game is not in the history", severity="warning")
            return
        self.app.open_history_game(row.history_id)

    @property
    def running(self) -> bool:
        return self.view is not None and self.view.running

    def show_run(self, shown: bool) -> None:
        """Show the run (True) or the form: on a narrow terminal they take turns."""
        self.set_class(shown, "-run-shown")
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which of Esc's actions applies now (the footer names that one alone),
        whether Ctrl+R has a run to show, and Start none while one runs."""
        turns = self.has_class("-narrow")  # the form and the run take turns
        shown = self.has_class("-run-shown")
        if action == "start":
            return not self.running
        if action == "stop":
            return self.running
        if action == "form":
            return not self.running and turns and shown
        if action == "back":
            return not self.running and not (turns and shown)
        if action == "results":
            return self.view is not None and turns and not shown
        return True

    def stop(self) -> None:
        if self.driver is not None:
            self.driver.stop()

    def action_stop(self) -> None:
        """Stop the run under way: its results (the finished games, the score, how it
        ended) stay on screen."""
        self.stop()

    def action_form(self) -> None:
        """The form in the run's place (a narrow terminal's): Ctrl+R shows it again."""
        self.show_run(False)
        self.query_one("#match-start", Button).focus()

    def action_results(self) -> None:
        """The last run in the form's place (a narrow terminal's)."""
        self.show_run(True)

    def action_back(self) -> None:
        """Back to the setup screen."""
        self.app.pop_screen()

    def on_unmount(self) -> None:
        self.stop()
