"""What runs the Match screen's SPRT: a plain class, so that it is tested without Textual.

`read_plan` turns the screen's fields into an SprtPlan, or one line naming the field at
fault (a FieldError: the screen shows it, puts the cursor there and starts nothing).
`ArenaDriver.run` plays the plan with core/play/arena.run_sprt on a pool of worker
processes (this machine's cores but one, so the app keeps a core), on the caller's
thread (the screen's thread worker), stores each game in the history as it ends, and
hands `changed` an ArenaView after every event: a frozen snapshot, safe to pass to the
UI thread. The workers report each move they play (local_pool's watch queue); a thread
of the driver reads them and shows the game under way at most every `paint` seconds,
since fast games move far more often than a screen can usefully paint. `stop` (from any
thread) cuts the games under way short; the finished ones are kept.
"""
from __future__ import annotations

import os
import queue
import sys
import threading
import time
from contextlib import AbstractContextManager, contextmanager, redirect_stderr
from multiprocessing import resource_tracker
from dataclasses import dataclass, field, replace
from typing import Callable, Iterator

from plyground.core import Game, PlygroundError, State
from plyground.core.play.arena import (GameEnded, PairCounted, SprtPlan, points_of_a,
                                       run_sprt)
from plyground.core.play.openings import NO_OPENINGS, opening_suite, openings_option
from plyground.core.play.sprt import SPRT, SprtStatus
from plyground.core.play.tournament import (GameJob, GameResult, Pool, local_pool,
                                            watch_queue)
from plyground.core.records.history import History
from plyground.core.ranges import MOST_GAMES
from plyground.core.records.runs import finish_run, start_run

from .fields import FieldError, blamed, number
from .sprt_text import elo_text, llr_texts, result_line as sprt_result_line
from .cli.recording import record_match_game
from .cli.sides import game_agent

SOURCE = "sprt"  # the history's source column for the Match screen's games
LABELS = ("A", "B")
TEST_FIELDS = ("elo0", "elo1", "alpha", "beta")  # the SPRT's bounds, as SPRT names them
PAINT = 0.2  # seconds: at most 5 views a second for moves


def workers() -> int:
    """The processes a run plays on: every core but one (the app's), at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


def start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (a pool's locks need it) with the
    process's own stderr: it hands its process `sys.stderr`'s file descriptor, and
    inside a Textual app `sys.stderr` is a capture whose descriptor is -1, which
    starting a process refuses (`bad value(s) in fds_to_keep`)."""
    with redirect_stderr(sys.__stderr__):
        resource_tracker.ensure_running()


def named_first(message: str, names: tuple[str, ...]) -> str:
    """The name that `message` mentions first (the test's refusals start with the
    field they refuse: "beta is a probability…", "elo0 must be below elo1…")."""
    found = {message.find(name): name for name in names if name in message}
    return found[min(found)] if found else names[0]


def read_plan(game: Game, specs: tuple[str, str], elo0: str, elo1: str, alpha: str,
              beta: str, model: str, max_pairs: str, openings: str, seed: int
              ) -> SprtPlan:
    """The plan the fields describe; a FieldError (one line, and the field at fault:
    "A", "B", "elo0", "elo1", "alpha", "beta", "max pairs" or "openings") for anything
    wrong: a number that is not one, bounds the test refuses, an agent unknown or
    unable to play `game`, openings that cannot be read."""
    players = []
    for label, spec in zip(LABELS, specs):
        with blamed(label, f"Agent {label}: "):
            players.append(game_agent(game, spec))
    bounds = {name: number(name, text) for name, text in
              zip(TEST_FIELDS, (elo0, elo1, alpha, beta))}
    try:
        test = SPRT(**bounds, model=model)
    except PlygroundError as error:
        raise FieldError(str(error), named_first(str(error), TEST_FIELDS)) from None
    pairs = int(number("max pairs", max_pairs, whole=True, least=1, most=MOST_GAMES))
    with blamed("openings", "Openings: "):
        suite = opening_suite(game, openings_option(openings.strip() or NO_OPENINGS))
    return SprtPlan(game, specs, tuple(players), test, seed, pairs, suite,
                     openings_option(openings.strip() or NO_OPENINGS))


@dataclass(frozen=True)
class FinishedGame:
    """A row of the finished games' list: game `number`, its opening ("" for the
    start), which agent moved first ("A" or "B"), A's points, the reason, and the
    game's id in the history (None when it could not be stored)."""

    number: int
    opening: str
    first: str
    points: float
    reason: str
    history_id: int | None

    @property
    def result(self) -> str:
        """Who won, in the screen's words (`A won`, `B won` or `draw`), then how it
        ended: `A won · O connects four`. Not `1-0`: beside a reason that names a
        side, and a history whose records score X's result, a score for A misleads."""
        words = {1.0: "A won", 0.5: "draw", 0.0: "B won"}[self.points]
        return f"{words} · {self.reason}" if self.reason else words


@dataclass(frozen=True)
class LiveGame:
    """The game shown on the small board: its number, who moves first ("A" or "B"),
    its position, and whether it is still under way (else it is the last finished
    game)."""

    number: int
    first: str
    state: State
    under_way: bool


def live_line(view: ArenaView) -> str:
    """What the small board shows: `game 7 under way · A (alphabeta) moves first ·
    ply 12`, or the last finished game."""
    game = view.live
    if game is None:
        return ""
    spec = view.plan.specs[LABELS.index(game.first)]
    if game.under_way:
        return (f"game {game.number} under way · {game.first} ({spec}) moves first · "
                f"ply {game.state.ply}")
    return f"game {game.number}, the last finished · {game.first} ({spec}) moved first"


@dataclass(frozen=True)
class ArenaView:
    """What the Match screen shows of a run, at one moment."""

    plan: SprtPlan
    llrs: tuple[float, ...] = ()  # the LLR after each counted pair
    status: SprtStatus | None = None  # after the last counted pair
    finished: tuple[FinishedGame, ...] = ()  # in the order they ended
    live: LiveGame | None = None
    running: bool = True
    stopped: bool = False  # Esc ended it before the test did
    error: str = ""  # what ended it otherwise (a game that failed)
    notice: str = ""  # what the run does without (a history it cannot write)

    @property
    def points(self) -> float:
        """A's points in the counted pairs (a pair of class k is worth k/2)."""
        counts = self.status.counts if self.status else ()
        return sum(kind * count for kind, count in enumerate(counts)) / 2

    @property
    def games(self) -> int:
        return self.status.games if self.status else 0


def result_line(view: ArenaView) -> str:
    """How the run ended, in a line ("" while it runs): the CLI's decision line."""
    if view.running:
        return ""
    status = view.status or view.plan.test.status([0] * 5)
    after = f"after {status.pairs} pair{'s' * (status.pairs != 1)}"
    if view.error:
        return f"Stopped {after}: {view.error}"
    if view.stopped:
        return f"Stopped {after} (Esc): no hypothesis accepted"
    if status.result is None:
        return f"No decision: stopped at the limit of {view.plan.max_pairs} pairs"
    return f"{sprt_result_line(status)}, {after}"


def figure_lines(view: ArenaView) -> list[str]:
    """The test's figures: the LLR between its bounds, A's score, Elo with its 95%
    interval and the likelihood of superiority, worded as the CLI words them."""
    test = view.plan.test
    status = view.status or test.status([0] * 5)
    lines = ["LLR {} (bounds {}, {})".format(*llr_texts(status))
             + f" · elo0 {test.elo0:g}, elo1 {test.elo1:g}, "
             f"α {test.alpha:g}, β {test.beta:g}, {test.model}"]
    if not status.pairs:
        return lines + ["no pair counted yet"]
    lines.append(f"Score {view.points:g}/{view.games} for A "
                 f"({100 * view.points / view.games:.1f}%) in {status.pairs} "
                 f"pair{'s' * (status.pairs != 1)}")
    los = "" if status.los is None else f" · LOS {100 * status.los:.1f}%"
    return lines + [f"Elo {elo_text(status)}{los}"]


# (game, jobs, watch): local_pool's signature
PoolFactory = Callable[[Game, int, object], AbstractContextManager[Pool]]


@dataclass
class ArenaDriver:
    """Plays `plan` (`run`, blocking) and reports each change to `changed`."""

    plan: SprtPlan
    changed: Callable[[ArenaView], None]
    pool: PoolFactory = local_pool
    jobs: int = field(default_factory=workers)
    keep: bool = True  # store the games in the history
    paint: float = PAINT  # seconds at least between two views for moves

    def __post_init__(self) -> None:
        self.view = ArenaView(self.plan)
        self.stopping = threading.Event()
        self.running_pool: Pool | None = None
        self.run_id: int | None = None  # the run's id in the history
        self.lock = threading.RLock()  # the run's thread and the move reader both show
        self.moving: dict[int, str] = {}  # the games under way: number -> record so far
        self.ended_games: set[int] = set()  # their late moves are not news
        self.last: LiveGame | None = None  # the last finished game

    def stop(self) -> None:
        """End the run: the games under way are cut short, the finished kept."""
        self.stopping.set()
        if self.running_pool is not None:
            self.running_pool.stop()

    def show(self, **changes) -> None:
        with self.lock:  # one view after another, never two built from the same one
            self.view = replace(self.view, **changes)
            self.changed(self.view)

    def run(self) -> ArenaView:
        """Play the test to its end (or `stop`); the last view."""
        plan = self.plan
        history = self.open_history()
        try:
            start_resource_tracker()
            with self.reading_moves() as watch, \
                    self.pool(plan.game, self.jobs, watch) as pool:
                self.running_pool = pool
                if self.stopping.is_set():
                    pool.stop()
                for event in run_sprt(plan.game, plan.players, plan.test, plan.seed,
                                      pool, plan.max_pairs, plan.opening):
                    if self.stopping.is_set():
                        break
                    if isinstance(event, GameEnded):
                        self.ended(event.job, event.result, history)
                    elif isinstance(event, PairCounted):
                        self.show(llrs=(*self.view.llrs, event.status.llr),
                                  status=event.status)
        except Exception as error:  # a stopped run's games end with SearchStopped
            if not self.stopping.is_set():
                self.show(running=False, error=str(error) or type(error).__name__,
                          live=self.last)
                return self.view
        finally:
            self.running_pool = None
            if history is not None:
                finish_run(history, self.run_id, "interrupted" if self.stopping.is_set()
                           or self.view.error else "finished")
                history.close()
        with self.lock:  # the games cut short are not under way any more
            self.moving.clear()
            self.show(running=False, stopped=self.stopping.is_set(), live=self.last)
        return self.view

    @contextmanager
    def reading_moves(self) -> Iterator:
        """A watch queue for the pool, whose moves a thread of ours reads until the
        block ends (after the pool's, whose workers have then written theirs)."""
        watch = watch_queue()
        done = threading.Event()
        reader = threading.Thread(target=self.read_moves, args=(watch, done),
                                  name="arena-moves", daemon=True)
        reader.start()
        try:
            yield watch
        finally:
            done.set()
            reader.join()
            watch.close()

    def read_moves(self, watch, done: threading.Event) -> None:
        """Take the workers' moves as they come; show the game under way when it has
        moved and `paint` seconds have passed since it was last shown."""
        painted, fresh = 0.0, False
        while not done.is_set():
            try:
                _, number, record = watch.get(timeout=PAINT)  # to see `done` soon
                with self.lock:
                    if number not in self.ended_games:
                        self.moving[number] = record
                        fresh = True
            except queue.Empty:
                pass
            if fresh and time.monotonic() - painted >= self.paint:
                with self.lock:
                    self.show(live=self.under_way() or self.last)
                painted, fresh = time.monotonic(), False

    def under_way(self) -> LiveGame | None:
        """The lowest-numbered game that has moved and not ended."""
        if not self.moving:
            return None
        number = min(self.moving)
        return LiveGame(number, LABELS[(number - 1) % 2],
                        self.position(self.moving[number]), under_way=True)

    def position(self, record: str) -> State:
        game = self.plan.game
        state = game.start()
        for move in game.parse_line(state, record):
            state = state.play(move)
        return state

    def open_history(self) -> History | None:
        """The history the games go to, with the run started in it; a run goes on
        without one it cannot write (the list still shows its games, which then
        cannot be opened)."""
        if not self.keep:
            return None
        history = None
        try:
            history = History()
            history.check_writable()
            self.run_id = start_run(history, SOURCE, self.plan.game.spec,
                                    self.plan.params, self.plan.command)
            return history
        except PlygroundError as error:
            if history is not None:
                history.close()
            self.show(notice=f"The games are not kept in the history: {error}")
            return None

    def ended(self, job: GameJob, result: GameResult, history: History | None) -> None:
        game = self.plan.game
        history_id = None
        if history is not None:
            history_id = record_match_game(history, SOURCE, game, job.players, result,
                                           self.plan.command, (self.run_id, job.key))
        first = LABELS[result.first]
        row = FinishedGame(result.number, job.opening, first, points_of_a(result),
                           result.reason, history_id)
        with self.lock:
            self.ended_games.add(result.number)
            self.moving.pop(result.number, None)
            self.last = LiveGame(result.number, first, self.position(result.record),
                                 under_way=False)
            self.show(finished=(*self.view.finished, row),
                      live=self.under_way() or self.last)
