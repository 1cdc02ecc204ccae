"""The setup screen: the game, the position it starts from, who plays each side, each
agent's main setting, and the game's seed (empty: the app draws one)."""
from __future__ import annotations

import warnings

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, RadioButton, RadioSet, Select, Static

from plyground.core import Game, PlygroundError, State, game_entries, get_game
from plyground.core.catalogue import DEFAULT_OPPONENT, HUMAN, agent_kinds
from plyground.core.agents.base import check_plays
from plyground.core.ga.profile import SkippedProfile, saved_profiles
from plyground.core.game import game_entry
from plyground.core.play.match import parse_side
from plyground.core.records.positions import start_state
from plyground.core.errors import visible

from ..fields import refuse, seed as read_seed
from ..placeholders import OTHER_WORDINGS, FittedInput, position_wordings
from ..widgets.boards import has_board
from .help import FIELD_KEYS, keys_text, setup_help

OTHER = "other"  # the menu entry whose box takes any agent spec: a plugin, an engine


def agent_choices() -> list[tuple[str, str]]:
    """(title, choice) for the player menu: Human, each agent kind's entries (read anew
    each time, so a profile trained meanwhile appears), and "Other agent…", whose box
    takes a spec such as `bots/mybot.py:MyBot` or `engine:cmd=./mybot`."""
    choices = [("Human", HUMAN)]
    with warnings.catch_warnings():  # the setup screen tells of them (skipped_profiles)
        warnings.simplefilter("ignore", SkippedProfile)
        for cls in agent_kinds().values():
            choices += cls.menu_choices()
    return choices + [("Other agent…", OTHER)]


def skipped_profiles() -> list[str]:
    """Why each file in the profiles folder that the menus leave out is left out."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SkippedProfile)
        saved_profiles()
    return [str(warning.message) for warning in caught
            if issubclass(warning.category, SkippedProfile)]


def agent_of(choice: str):
    """The agent a menu choice makes, with its defaults (None: Human or Other)."""
    if choice in (HUMAN, OTHER):
        return None
    return parse_side(choice)


def player_choices(game, extra=()) -> list[tuple[str, str]]:
    """Human, then every menu agent (and `extra` one) that can play `game`, then Other."""
    choices = agent_choices()
    return [(title, choice) for title, choice in choices[:-1] + list(extra) + choices[-1:]
            if choice in (HUMAN, OTHER) or type(agent_of(choice)).plays(game)]


# "You play" choices: which sides are human
ROLES = [("first", (True, False)), ("second", (False, True)), ("both", (True, True)),
         ("watch", (False, False))]


def playable_games():
    """The registered games the app has a board for."""
    return [entry for entry in game_entries() if has_board(entry)]


def main_setting(choice: str):
    agent = agent_of(choice)
    if agent is None or agent.main_setting is None:
        return None
    return next(s for s in agent.settings_spec if s.name == agent.main_setting)


def spec_for(choice: str, value: str) -> str:
    """The agent spec a side's row describes (its seed comes from the game's, `Match`):
    Other's box holds a whole spec; an agent's box its main setting."""
    if choice == HUMAN:
        return HUMAN
    if choice == OTHER:
        return value.strip()
    setting = main_setting(choice)
    if setting is None or not value.strip():
        return choice
    joint = "," if agent_of(choice).given else ":"
    return f"{choice}{joint}{setting.name}={value.strip()}"


def menu(choices: list[tuple[str, str]]) -> list[tuple[Text, str]]:
    """The player menu's entries as the Select shows them: a title may be a file's
    words (a GA profile's name), so it is a Text (no markup read), escapes shown."""
    return [(Text(visible(title)), choice) for title, choice in choices]


def row_from_spec(spec: str) -> tuple[str, str, list[tuple[str, str]]]:
    """(choice, main setting text, extra menu entries) of a side's spec, to fill its
    row: an agent the menu does not list (a plugin, a profile file, other settings)
    becomes an entry of its own."""
    agent = parse_side(spec)
    if agent is None:
        return HUMAN, "", []
    choice = agent.choice
    listed = {c for _, c in agent_choices()}
    extra = [] if choice in listed else [(agent.menu_title, choice)]
    setting = agent.main_setting
    value = agent.settings.get(setting) if setting and setting in agent.given else None
    return choice, "" if value is None else f"{value:g}" if isinstance(value, float) \
        else str(value), extra


EXAMPLE_PLIES = 4  # how far into a game the position box's example is


def example_position(game: Game) -> str:
    """A position of `game` as it was made (its board size: a 3×3 example does not
    read on a 5×5 board), in its notation: a few moves from its start, chosen by a
    fixed rule and written by the game itself, short of any move that ends it."""
    state = game.start()
    for ply in range(EXAMPLE_PLIES):
        moves = list(state.moves())
        after = state.play(moves[(ply * 5 + len(moves) // 2) % len(moves)])
        if after.outcome() is not None:
            break
        state = after
    return game.format_position(state)


def notation_help(game: Game) -> str:
    """How a position of `game` is written, as it registered it, with an example of
    this game and board in place of the registration's own (written for one board)."""
    notation = game.entry.notation
    head, found, _ = notation.rpartition("e.g. ")
    return f"{(head if found else notation).rstrip(' ,(') or 'the game’s own'}, " \
        f"e.g. '{example_position(game)}'"


def read_start(game: Game, text: str) -> tuple[State, str]:
    """The state the position box's `text` starts `game` from, read as the command line's
    `--position` is (`start_state`), and a short description of it for the box: the
    side to move and the ply. A game already over in that position cannot be started
    from it: PlygroundError, as for a text that is not a position."""
    state = start_state(game, text)
    outcome = state.outcome()
    if outcome is not None:
        raise PlygroundError(f"the game is over in this position "
                             f"({game.describe_outcome(outcome)}: {outcome.reason}); "
                             "there is nothing to play")
    to_move = f"{game.side_labels[state.to_move]} to move"
    return state, f"the usual start: {to_move}" if state == game.start() else \
        f"{to_move} at ply {state.ply}"


class SideRow(Horizontal):
    """One side: who plays it, and the main setting of the agent if one does."""

    DEFAULT_CSS = """
    SideRow { height: auto; margin-bottom: 1; }
    SideRow > Label { width: 18; padding: 1 1 0 0; }
    SideRow > Select { width: 28; }
    SideRow > Input { width: 14; }
    SideRow > .setting-help { width: 1fr; padding: 1 0 0 1; color: $text-muted; }
    SideRow.-other > Input { width: 1fr; }
    SideRow.-other > .setting-help { display: none; }
    """

    def __init__(self, side: int, kind: str, value: str, extra) -> None:
        super().__init__(id=f"side-{side}")
        self.side = side
        self.initial = (kind, value)
        self.described: str | None = None  # the player the setting box was fitted to
        self.typed: dict[str, str] = {}  # what the box held for each player chosen
        self.extra = extra  # an agent from the command line that the menu does not list
        choices = agent_choices()
        self.choices = choices[:-1] + extra + choices[-1:]

    def compose(self) -> ComposeResult:
        kind, value = self.initial
        yield Label(id=f"side-label-{self.side}")
        yield Select(menu(self.choices), value=kind, allow_blank=False,
                     id=f"player-{self.side}")
        yield FittedInput(value=value, id=f"setting-{self.side}")
        yield Static(classes="setting-help", id=f"help-{self.side}")

    def on_mount(self) -> None:
        self.describe(self.initial[0], keep_value=bool(self.initial[1]))

    @property
    def kind(self) -> str:
        return self.query_one(Select).value

    @property
    def value(self) -> str:
        return self.query_one(Input).value

    def set_kind(self, kind: str) -> None:
        self.query_one(Select).value = kind

    def offer(self, choices: list[tuple[str, str]]) -> None:
        """Offer these players; one no longer offered gives way to the default."""
        if choices == self.choices:
            return
        self.choices = choices
        kind, select = self.kind, self.query_one(Select)
        select.set_options(menu(choices))
        select.value = kind if kind in {k for _, k in choices} else DEFAULT_OPPONENT

    def describe(self, kind: str, keep_value: bool = False) -> None:
        """Fit the setting box and its help to the chosen player. What the user typed
        stays while the player does (the menu is offered anew when the game changes,
        and announces its value again)."""
        box = self.query_one(Input)
        if self.described is not None and not box.disabled:
            self.typed[self.described] = box.value
        keep_value = keep_value or kind == self.described
        self.described = kind
        setting = main_setting(kind)
        help_text = self.query_one(f"#help-{self.side}", Static)
        # Other's box takes the help's room, as a spec is long (a file, a class and
        # settings); its placeholder names the forms it takes
        self.set_class(kind == OTHER, "-other")
        if kind == OTHER:
            box.disabled = False
            if not keep_value:
                box.value = self.typed.get(OTHER, "")
            box.fit(OTHER_WORDINGS)
            help_text.update("")
            return
        box.disabled = setting is None
        box.wordings = ()
        if setting is None:
            box.value = ""
            box.placeholder = ""
            help_text.update("plays with keys or mouse" if kind == HUMAN
                             else agent_of(kind).description)
            return
        if not keep_value:
            box.value = self.typed.get(kind, "" if setting.default is None
                                       else str(setting.default))
        agent = agent_of(kind)
        default = agent.DEFAULT_TIME if setting.default is None and \
            setting.name == "time" else setting.default
        box.placeholder = str(default)
        help_text.update(f"{agent.description}\n{setting.name}: {setting.help}")


class SetupScreen(Screen):
    DEFAULT_CSS = """
    SetupScreen { align: center top; }
    SetupScreen #setup { width: 108; max-width: 100%; height: auto; padding: 1 2; }
    SetupScreen #title { text-style: bold; color: $accent; margin-bottom: 1; }
    SetupScreen .heading { text-style: bold; margin-top: 1; }
    SetupScreen #game-row { height: auto; }
    SetupScreen #game { width: 40; }
    SetupScreen #variant { width: 20; margin-left: 2; }
    SetupScreen #position { width: 62; }
    SetupScreen #position-check { height: auto; padding: 0 1; color: $success; }
    SetupScreen #position-check.-invalid { color: $error; }
    SetupScreen #position-help { height: auto; padding: 0 1; color: $text-muted; }
    SetupScreen RadioSet { width: 40; height: auto; }
    SetupScreen #seed-row { height: auto; }
    SetupScreen #seed-row > Label { width: 18; padding: 1 1 0 0; }
    SetupScreen #seed { width: 14; }
    SetupScreen #seed-help { width: 1fr; padding: 1 0 0 1; color: $text-muted; }
    SetupScreen #buttons { height: auto; margin-top: 1; }
    SetupScreen #buttons Button { margin-right: 2; }
    SetupScreen #setup-error { color: $error; height: auto; margin-top: 1; }
    """
    BINDINGS = [
        Binding("ctrl+s", "start", "Start game"),
        Binding("ctrl+g", "games", "Games played"),
        Binding("ctrl+t", "match", "Match"),
        Binding("question_mark,f1", "help", "Help"),
    ]

    def __init__(self, game_id: str | None = None, sides: tuple[str, str] | None = None,
                 options: dict | None = None, seed: int | None = None,
                 position: str | None = None):
        super().__init__()
        self.game_id = game_id or playable_games()[0].id
        self.sides = sides or (HUMAN, DEFAULT_OPPONENT)
        self.options = options or {}  # the chosen game's, as its board menu shows them
        self.options_of: dict[str, dict] = {}  # each game's, while another is chosen
        self.seed = seed
        self.position = position  # None: the app's `--position`, for its game
        # The position box holds a text for each game: what was typed for it stays
        # while another game is chosen, and comes back with it.
        self.positions: dict[str, str] = {}
        self.position_game: str | None = None  # the game the box's text is for
        self.position_refused = False  # the error line says why the position can't start

    def compose(self) -> ComposeResult:
        rows = [row_from_spec(spec) for spec in self.sides]
        with Center():
            with Vertical(id="setup"):
                yield Static("plyground — play against, and look inside, adversarial "
                             "search", id="title")
                yield Label("Game", classes="heading")
                with Horizontal(id="game-row"):
                    yield Select([(e.title, e.id) for e in playable_games()],
                                 value=self.game_id, allow_blank=False, id="game")
                    yield Select([("-", "-")], allow_blank=False, id="variant")
                yield Label("Start position", classes="heading")
                yield FittedInput(id="position")
                yield Static(id="position-check")
                yield Static(id="position-help")
                yield Label("You play", classes="heading")
                with RadioSet(id="role"):
                    for role, _ in ROLES:
                        yield RadioButton(id=f"role-{role}")
                yield Label("Players", classes="heading")
                yield SideRow(0, *rows[0])
                yield SideRow(1, *rows[1])
                with Horizontal(id="seed-row"):
                    yield Label("Seed")
                    yield Input("" if self.seed is None else str(self.seed),
                                placeholder="random", id="seed")
                    yield Static("same seed, same game; empty: a new seed each game",
                                 id="seed-help")
                with Horizontal(id="buttons"):
                    yield Button("Start game", id="start", variant="primary")
                    yield Button("Games played", id="games")
                    yield Button("Match…", id="match")
                    yield Button("Quit", id="quit")
                yield Static(id="setup-error")
        yield Footer()

    def on_mount(self) -> None:
        position = self.position
        if position is None:  # a setup screen the app opens: `play GAME --position P`
            launched = self.app.start_with
            position = launched.position if launched.game_id == self.game_id else None
        self.positions[self.game_id] = position or ""
        self.show_variants(self.options)
        self.show_position()
        self.label_sides()
        self.sync_role()
        # Enter starts at once, yet a short terminal opens on the title and the game,
        # not scrolled down to the focused button
        self.query_one("#start", Button).focus(scroll_visible=False)
        for problem in skipped_profiles():
            self.notify(visible(problem), title="A profile is not offered",
                        severity="warning", markup=False, timeout=10)

    def rows(self) -> list[SideRow]:
        return [self.query_one(f"#side-{side}", SideRow) for side in (0, 1)]

    def variants(self) -> tuple[tuple[str, dict], ...]:
        return game_entry(self.query_one("#game", Select).value).variants

    def show_variants(self, options: dict) -> None:
        """The board sizes (or other variants) of the chosen game, if it has several."""
        variants = self.variants()
        select = self.query_one("#variant", Select)
        select.display = bool(variants)
        if variants:  # labels are the values: a Select redraws only when its value changes
            select.set_options((label, label) for label, _ in variants)
            chosen = [label for label, opts in variants if opts == options]
            select.value = chosen[0] if chosen else variants[0][0]

    def chosen_options(self) -> dict:
        return dict(self.variants()).get(self.query_one("#variant", Select).value, {})

    def show_position(self) -> None:
        """Fill the position box with the text typed for the chosen game, and its help
        with the game's notation."""
        box = self.query_one("#position", Input)
        if self.position_game != self.game_id:
            if self.position_game is not None:
                self.positions[self.position_game] = box.value
            box.value = self.positions.get(self.game_id, "")
            self.position_game = self.game_id
        self.show_notation()
        self.check_position()

    def show_notation(self) -> None:
        """The box's placeholder and the help under it: an example position of the
        game and board chosen."""
        game = get_game(self.game_id, **self.chosen_options())
        self.query_one("#position", FittedInput).fit(
            position_wordings(example_position(game)))
        self.query_one("#position-help", Static).update(Text(
            f"notation: {notation_help(game)}"))

    def check_position(self) -> tuple[State | None, str | None]:
        """Read the position box for the chosen game and board, and say under it what
        it holds: the side to move, or what is wrong. Returns (state, problem), one of
        them None."""
        check = self.query_one("#position-check", Static)
        text = self.query_one("#position", Input).value
        game = get_game(self.game_id, **self.chosen_options())
        try:
            state, description = read_start(game, text)
        except PlygroundError as problem:
            message = f"{problem}{self.fitting_variant(text)}"
            check.set_class(True, "-invalid")
            check.update(Text(f"✗ {message}"))
            return None, message
        check.set_class(False, "-invalid")
        check.update(Text(f"✓ {description}"))
        if self.position_refused:  # mended: the error line no longer applies
            self.position_refused = False
            self.query_one("#setup-error", Static).update("")
        return state, None

    def fitting_variant(self, text: str) -> str:
        """For a position the chosen board does not read: which other board (variant)
        of the game would, said as advice ("" if none)."""
        for label, options in self.variants():
            if options == self.chosen_options():
                continue
            try:
                read_start(get_game(self.game_id, **options), text)
            except PlygroundError:
                continue
            return f" (it is a position for “{label}”: choose that above)"
        return ""

    def label_sides(self) -> None:
        game = get_game(self.query_one("#game", Select).value)
        first, second = game.side_labels
        labels = {"first": f"{first} (moves first)", "second": second,
                  "both": "Both sides (two humans)", "watch": "Neither: watch two agents"}
        for role, _ in ROLES:
            self.query_one(f"#role-{role}", RadioButton).label = labels[role]
        for side in (0, 1):
            suffix = " (first)" if side == 0 else ""
            self.query_one(f"#side-label-{side}", Label).update(
                f"{game.side_labels[side]}{suffix}")
        for row in self.rows():
            row.offer(player_choices(game, row.extra))

    def sync_role(self) -> None:
        """Tick the "You play" choice that matches the rows, if any."""
        humans = tuple(row.kind == HUMAN for row in self.rows())
        for role, pattern in ROLES:
            button = self.query_one(f"#role-{role}", RadioButton)
            if pattern == humans and not button.value:
                button.value = True  # the RadioSet unticks the others

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "game":
            if event.value != self.game_id:  # not the Select announcing its first value
                self.options_of[self.game_id] = self.options  # its board comes back too
                self.game_id = event.value
                self.options = self.options_of.get(self.game_id, {})
            self.show_variants(self.options)
            self.show_position()
            self.label_sides()
            return
        if event.select.id == "variant":
            self.options = self.chosen_options()
            self.show_notation()
            self.check_position()
            return
        row = next(row for row in self.rows() if event.select in row.children)
        row.describe(event.value)
        self.sync_role()

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        role = event.pressed.id.removeprefix("role-")
        pattern = dict(ROLES)[role]
        for row, human in zip(self.rows(), pattern):
            if human and row.kind != HUMAN:
                row.set_kind(HUMAN)
            elif not human and row.kind == HUMAN:
                row.set_kind(DEFAULT_OPPONENT)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "games":
            self.action_games()
        elif event.button.id == "match":
            self.action_match()
        elif event.button.id == "quit":
            self.app.exit()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "position":
            self.check_position()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def action_help(self) -> None:
        """What the fields do, how a position of the game and board chosen is written,
        the keys and the game's rules."""
        game = get_game(self.game_id, **self.chosen_options())
        self.app.push_screen(setup_help(game, keys_text(self, FIELD_KEYS),
                                                notation_help(game)))

    def action_games(self) -> None:
        """The games of the history; the one chosen opens on the board."""
        self.app.choose_from_history()

    def action_match(self) -> None:
        """The Match screen for the game and board chosen: is one agent stronger than
        another? The sides' agents (not humans) are its first choices."""
        sides = tuple(None if row.kind in (HUMAN, OTHER) else spec_for(row.kind, row.value)
                      for row in self.rows())
        self.app.open_match(get_game(self.game_id, **self.chosen_options()), sides)

    def action_start(self) -> None:
        sides = tuple(spec_for(row.kind, row.value) for row in self.rows())
        error = self.query_one("#setup-error", Static)
        self.position_refused = False
        try:
            seed = read_seed("Seed", self.query_one("#seed", Input).value)
        except PlygroundError as problem:
            error.update(Text(visible(str(problem))))  # it quotes what was typed
            return
        game = get_game(self.game_id, **self.chosen_options())
        start, problem = self.check_position()
        if start is None:
            self.position_refused = True
            refuse(error, f"Start position: {problem}", self.query_one("#position"))
            return
        for label, spec in zip(game.side_labels, sides):
            try:
                self.app.check_choice(spec)
                agent = parse_side(spec)
                if agent is not None:
                    check_plays(agent, game)
            except PlygroundError as problem:
                error.update(Text(visible(f"{label}: {problem}")))
                return
        error.update("")
        position = None if start == game.start() else game.format_position(start)
        self.app.start_match(self.game_id, sides, position,
                             options=self.chosen_options(), seed=seed)
