"""The Textual app: setup → game → result, one engine process for the whole session.

`create_app` is the one factory the CLI and the tests share; `run` launches it.
"""
from __future__ import annotations

import gc
import os
import sys
from collections import Counter
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Iterable

import textual.screen
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from plyground.core import Game, PlygroundError, get_game
from plyground.core.play.worker import Engine
from plyground.core.records.history import History
from plyground.core.catalogue import HUMAN
from plyground.core.errors import visible
from plyground.core.play.match import Match
from plyground.core.records.record import GameRecord
from plyground.core.rng import fresh_seed
from plyground.core.agents.ceilings import Ceilings, hold_searches
from plyground.core.trust import Trust, served_agent, untrusted

from .engine_update import ANALYSIS, REVIEW, SEARCH, EngineUpdate
from .first_start import FirstStart
from .screens.game import GameScreen
from .screens.setup import SetupScreen
from .screens.trust import TrustScreen, not_run, refused_outright
from .served_saves import MB, QUOTA_FILES, QUOTA_MB
from .minimum_size import MinimumSize
from .terminal import is_terminal, require_terminal
from .themes import board_variable_defaults, load_themes

DEFAULT_THEME = "plyground-dark"


@dataclass(frozen=True)
class ServedLimits:
    """What a visitor of `plyground serve` may do: play only the outside agents the
    server's user named (`serve --allow-agent`), save only inside a folder of its own
    up to a quota, and change nothing else of the server's (its game history is read,
    never written)."""

    allowed_agents: tuple[str, ...] = ()
    save_dir: Path | None = None
    # save_dir is the server's save folder: each visitor saves in a folder of its own
    # inside it, at most this many files and bytes (tui/served_saves.py).
    save_quota_files: int = QUOTA_FILES
    save_quota_bytes: int = QUOTA_MB * MB
    # the most one search of a visitor's may take (serve --max-time, --max-nodes, ...)
    ceilings: Ceilings = Ceilings()


@dataclass(frozen=True)
class StartWith:
    """What the command line asks the app to open first: a game with its sides, at a
    position, with its variant options; without a game or sides, the setup screen (at
    that position, for that game)."""

    game_id: str | None
    sides: tuple[str, str] | None
    position: str | None
    options: dict


# Set by the root command's hidden options when `plyground serve` started this process:
# every app it creates is then served (`lesson run` creates its own, too).
SERVED: ServedLimits | None = None



def paint_faster() -> None:
    """Let screens paint 120 frames a second: Textual paints at most 60, so a key
    pressed just after a frame waits up to 17 ms for the next; at 120 it waits 8 at
    most (a key is to be answered within 50 ms). Textual's own setting, TEXTUAL_FPS,
    still wins when it is set. (Textual reads it when a screen mounts: an app sets it
    as it is made, not this module as it is imported.)"""
    if "TEXTUAL_FPS" not in os.environ:
        textual.screen.UPDATE_PERIOD = 1 / 120


class PlygroundApp(MinimumSize, App):
    TITLE = "plyground"
    # Quitting, on every screen: Ctrl+Q, named in each footer, and q wherever no text
    # box has the focus (a box takes the q typed in it: the key never reaches here).
    # Every quit key names its action `app.quit`, so that a footer shows one Quit (it
    # merges the keys of one action): a screen's own q, else Ctrl+Q.
    BINDINGS = [Binding("ctrl+q", "app.quit", "Quit", priority=True,
                        tooltip="Quit plyground (q too, outside a text box)"),
                Binding("q", "app.quit", "Quit", show=False)]

    def __init__(self, game_id: str | None = None, sides: tuple[str, str] | None = None,
                 position: str | None = None, *, options: dict | None = None,
                 clock: str = "real", move_delay: float = 0.6,
                 animations: bool = True, analysis: bool = True,
                 seed: int | None = None, record: GameRecord | None = None,
                 lesson: tuple | None = None, trust_agents: bool = False,
                 served: ServedLimits | None = None) -> None:
        super().__init__()
        paint_faster()
        # What a record opened here may run without asking (`--trust-agents`); what
        # the one who started `plyground serve` allows its visitors (None: not served).
        self.trust_agents = trust_agents
        self.served = served
        self.lesson = lesson  # (Lesson, its slides) to present (`lesson run`)
        self.start_with = StartWith(game_id, sides, position, options or {})
        self.record = record  # a game record to open (`play --load`)
        self.seed = seed  # the games' seed (`play --seed`); None: each game draws one
        self.clock = clock
        self.move_delay = move_delay
        if not animations:
            self.animation_level = "none"
        self.engine = Engine(partial(self.forward, SEARCH), clock=clock)
        self.analysis = analysis  # whether game screens show the analysis panel
        self.analyst = Engine(partial(self.forward, ANALYSIS), clock=clock)
        # reviews games (started at the first review: an engine spawns on first use)
        self.reviewer = Engine(partial(self.forward, REVIEW), clock=clock)
        self.game_screen: GameScreen | None = None
        self.first_start = FirstStart(self)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return board_variable_defaults()

    def run(self, *args, **kwargs):
        """Run in the terminal, refused at once when there is none (tui/terminal.py);
        headless (snapshot tests), it draws nowhere and needs none."""
        if not kwargs.get("headless"):
            require_terminal()
        if self.served is not None:  # its search processes, started later, too
            hold_searches(self.served.ceilings)
        return super().run(*args, **kwargs)

    def on_mount(self) -> None:
        if not self.is_headless and self.runs_in_a_terminal():
            self.set_interval(1.0, self.exit_if_the_terminal_is_gone)
        # the kernels numba's cache lacks, compiled in the background (first start)
        self.first_start.begin(self.start_with.game_id or (
            self.record.game.id if self.record is not None else None))
        themes, problems = load_themes()
        for theme in themes:
            self.register_theme(theme)
        if DEFAULT_THEME in self.available_themes:
            self.theme = DEFAULT_THEME
        for problem in problems:
            self.notify(problem, severity="warning")
        if self.lesson is not None:
            from .screens.lesson import LessonScreen

            self.push_screen(LessonScreen(*self.lesson))
            return
        if self.record is not None:
            self.open_record(self.record)
            return
        start = self.start_with
        game_id, sides, options = start.game_id, start.sides, start.options
        if game_id is not None and sides is not None:
            try:
                self.start_match(game_id, sides, start.position, options, self.seed)
                return
            except PlygroundError as error:  # the CLI checks first; say it all the same
                self.notify(visible(str(error)), title="Cannot start that game",
                            severity="error", markup=False)
                game_id = options = None
        self.push_screen(SetupScreen(game_id, sides, options, self.seed))

    def on_ready(self) -> None:
        """The first frame is out: what exists now (the imported modules, the styles,
        the first screen) lives as long as the app, so the garbage collector is told
        to leave it alone. A full collection then looks at about half as many objects,
        and its pauses, which a key pressed meanwhile waits out, drop from up to 100 ms
        to under 20 ms. (No collection first: it would cost every start
        tens of milliseconds, and what is frozen is let go when the app exits.)"""
        gc.freeze()

    def on_unmount(self) -> None:
        gc.unfreeze()  # (an app run in a test process: what it kept may go now)
        self.first_start.close()
        self.engine.close()
        self.analyst.close()
        self.reviewer.close()

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """The palette's Screenshot saves to the current folder, as Textual's docs say,
        not to a downloads folder, which may not exist. (Served, Textual
        hands it to the browser instead, and writes nothing.)"""
        return super().deliver_screenshot(filename, path or os.getcwd(), time_format)

    @staticmethod
    def runs_in_a_terminal() -> bool:
        """Whether the app draws on a terminal (served to a browser, its input is a
        pipe, and it has no terminal to lose)."""
        return is_terminal(sys.__stdin__)

    def exit_if_the_terminal_is_gone(self) -> None:
        """A closed terminal does not always send its hangup signal (not through
        `make play`, say), and an app left reading a dead terminal spins a core."""
        try:
            os.tcgetpgrp(sys.__stdin__.fileno())
        except (OSError, AttributeError, ValueError):
            self.exit()

    def forward(self, source: str, update) -> None:
        """Called on an engine's reader thread: hand its update to the game screen,
        with the name of the engine it came from."""
        screen = self.game_screen
        if screen is not None:
            screen.post_message(EngineUpdate(source, update))

    def start_match(self, game_id: str, sides: tuple[str, str],
                    position: str | None = None, options: dict | None = None,
                    seed: int | None = None) -> None:
        """Open a game; without a seed it draws one, which the game screen shows, so
        that any game can be replayed (`play --seed`, or the setup screen's Seed)."""
        game = get_game(game_id, **(options or {}))
        start = game.parse_position(position) if position else None
        if seed is None:
            seed = fresh_seed()
        match = Match(game, sides, start, seed=seed)
        self.game_screen = GameScreen(match, self.move_delay)
        self.push_screen(self.game_screen)

    def open_record(self, record: GameRecord, history_id: int | None = None,
                    replacing: Screen | None = None) -> None:
        """Open a game record on the board, its variations in the move list; the
        game goes on from its last position. A player that runs code from outside
        plyground runs only if the user says so here (or passed --trust-agents); a
        served app never asks its visitor, and plays such a side by hand."""
        outside = untrusted(record.players, self.record_trust())
        if self.served is not None:  # and what the server lets no visitor play
            outside += self.refused_here(record.players, outside)
        # a spec that could hide text is never asked about: it is refused outright
        hidden, asked = refused_outright(outside)
        if asked and self.served is None:
            self.push_screen(TrustScreen("This game record", asked),
                             lambda yes: self.show_record(
                                 record, history_id, replacing,
                                 hidden + ([] if yes else asked)))
            return
        self.show_record(record, history_id, replacing, outside)

    def check_choice(self, spec: str) -> None:
        """Raise a PlygroundError for a side chosen in the app that the app may not
        run: any agent is the user's own choice in the user's own app, but a visitor of
        a served app plays only what the server's user allowed, as written, under the
        served ceilings and naming only files the server offers (core/trust.py)."""
        if self.served is not None:
            served = self.served
            served_agent(spec, served.allowed_agents, served.save_dir, served.ceilings)

    def refused_here(self, specs, refused: list[tuple[str, str]]
                     ) -> list[tuple[str, str]]:
        """(spec, why) for each of `specs` not yet `refused` that a visitor of this
        served app may not play (check_choice)."""
        found, seen = [], {spec for spec, _ in refused}
        for spec in specs:
            if spec in seen:
                continue
            try:
                self.check_choice(spec)
            except PlygroundError as error:
                found.append((spec, str(error)))
                seen.add(spec)
        return found

    def record_trust(self) -> Trust:
        """The agents from outside that a record opened here may run without asking:
        those the server's user allowed when served, else all or none
        (`--trust-agents`)."""
        return self.served.allowed_agents if self.served is not None else \
            self.trust_agents

    def show_record(self, record: GameRecord, history_id: int | None,
                    replacing: Screen | None, refused: list[tuple[str, str]]) -> None:
        """The record on the board, the `refused` players played by hand. A player
        that cannot be made here (a plugin not installed) is played by a human too,
        as said."""
        if refused:
            specs = {spec for spec, _ in refused}
            record = replace(record, players=tuple(HUMAN if spec in specs else spec
                                                   for spec in record.players))
            self.notify(not_run(sorted(specs)), title="Players replaced",
                        severity="warning", markup=False)
        try:
            match = record.match(trust=True)  # (what is left was trusted above)
        except PlygroundError as error:
            self.notify(f"{visible(str(error))}: its sides are played by humans here.",
                        title="Players replaced", severity="warning", markup=False)
            record = replace(record, players=(HUMAN, HUMAN))
            match = record.match()
        if replacing is not None:
            self.pop_screen()
        self.game_screen = GameScreen(match, self.move_delay, tree=record.tree,
                                      history_id=history_id)
        self.push_screen(self.game_screen)

    def choose_from_history(self, replacing: GameScreen | None = None) -> None:
        """The Games screen; the game chosen opens on the board, in place of
        `replacing` (which is kept in the history and stops its searches first). A game
        that cannot be read is said in a notification, and nothing changes."""
        from .screens.games import GamesScreen

        def chosen(history_id: int | None) -> None:
            if history_id is not None:
                self.open_history_game(history_id, replacing)

        playing = replacing.history_id if replacing is not None \
            and replacing.match.outcome is None else None
        self.push_screen(GamesScreen(playing), chosen)

    def open_history_game(self, history_id: int,
                          replacing: GameScreen | None = None) -> None:
        """Open game `history_id` of the history on the board (see
        choose_from_history); one that cannot be read is said in a notification."""
        try:
            with History() as history:
                record = history.get(history_id)
        except PlygroundError as error:
            self.notify(visible(str(error)), severity="error",
                        title="Cannot open that game", markup=False)
            return
        if replacing is not None:
            replacing.leave_for_another_game()
        self.open_record(record, history_id, replacing=replacing)

    def show_setup(self, match: Match) -> None:
        """Leave the game for the screen it was opened from (the setup screen, which
        keeps its Seed as typed, or the Match screen); a game opened from the command
        line goes to a new setup screen with the game's choices, its Seed filled with
        `--seed` (empty without: a drawn seed stays drawn)."""
        self.game_screen = None
        self.pop_screen()
        if len(self.screen_stack) == 1:  # only the app's blank default screen is left
            self.push_screen(SetupScreen(match.game.id, match.sides, match.game.options(),
                                         self.seed))

    def open_match(self, game: Game, sides: tuple[str | None, str | None]) -> None:
        """The Match screen for `game`, its agents A and B first `sides` (None: its
        default). (Imported here: its statistics load numpy, which the app's start
        does without.)"""
        from .screens.match import MatchScreen

        self.push_screen(MatchScreen(game, sides))

    async def action_quit(self) -> None:
        """Ctrl+Q or q: a game on the screens is kept in the history first."""
        if self.game_screen is not None and self.game_screen in self.screen_stack:
            await self.game_screen.action_quit()
        else:
            self.exit()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's own commands, plus every key binding active on this screen."""
        yield from super().get_system_commands(screen)
        by_action = {}  # one command per action, whatever keys it has
        for item in screen.active_bindings.values():
            if item.binding.description and item.enabled:
                by_action.setdefault(item.binding.action, item)
        descriptions = Counter(item.binding.description for item in by_action.values())
        for action, item in by_action.items():
            binding = item.binding
            title = binding.description
            if descriptions[title] > 1:  # e.g. "Drop in column" for each of 1-7
                title = f"{title} {binding.key}"
            yield SystemCommand(title, f"key: {self.get_key_display(binding)}",
                                partial(item.node.run_action, action))


def create_app(game_id: str | None = None, sides: tuple[str, str] | None = None,
               position: str | None = None, **settings) -> PlygroundApp:
    settings.setdefault("served", SERVED)
    return PlygroundApp(game_id, sides, position, **settings)


def run(game_id: str | None = None, sides: tuple[str, str] | None = None,
        position: str | None = None, options: dict | None = None,
        seed: int | None = None, record: GameRecord | None = None,
        trust_agents: bool = False) -> None:
    """Open the setup screen, or a game directly when the game and both sides are given;
    `options` are the game's (e.g. a board size), `seed` the games' (else drawn);
    `trust_agents`: a record may run agents from outside plyground without asking."""
    create_app(game_id, sides, position, options=options, seed=seed, record=record,
               trust_agents=trust_agents).run()
