"""What drives the game screen's searches, kept apart from what shows them: the requests
to the engine, the record of each search and what came back, when a search's live
events are due on screen, whether an agent from outside has hung, and which search
step mode shows or records. A plain class with no widget in it, so that tests drive it
with a stand-in engine and clock (tests/tui/test_search_driver.py); the game screen
asks it and draws what it says.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial

from plyground.core.agents.base import Shows
from plyground.core.play.worker import (EngineDone, EngineEvents, EngineFailed,
                                        EngineForfeit, EngineStarted, SearchRequest)
from plyground.core.search.control import Budget
from plyground.core.search.events import TRACE_CAP, IterationDone, TraceProgress
from plyground.core.values import Scale, Score

from . import first_start
from .verdict import mean_words, network_valued

# Seconds between two repaints of a search's live views (inspector, heat map): the
# engine sends up to 20 batches a second, and painting each kept the screen busy a
# good part of the time, so that a key waited for a frame in progress (a key is to
# be answered within 50 ms p95, 100 ms at worst); five a second still reads as live.
LIVE_INTERVAL = 0.2
# what the status and the inspector say until a search's clock starts
PREPARING = "preparing the engine…"
QUICK_NODES = 60_000  # a quicker replay stops at the deepest iteration within this
QUICK_ITERATIONS = 5_000  # or, for MCTS, replays this many iterations


class Purpose(StrEnum):
    """What the screen started a search for."""

    MOVE = "move"  # its result is played
    TRACE = "trace"  # only to step through


@dataclass
class SearchRecord:
    """A search the screen started: what for, from where, and what came back."""

    purpose: Purpose
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


@dataclass(frozen=True)
class TracePlan:
    """A search to record step by step: `agent` searches `state` (for its side to
    move) with `budget` (None: its own), labelled `title`; what it replays and must
    reproduce, as in SearchRecord; `trace_depth` the iteration kept when they do not all
    fit the trace's cap, `target` the work expected (for the progress shown)."""

    state: object
    agent: object
    title: str
    budget: Budget | None = None
    decision: SearchRecord | None = None
    expected: tuple | None = None
    expected_of: str = ""
    trace_depth: int | None = None
    target: int = 0
    played: object = None
    note: str = ""


class SearchDriver:
    """The searches of one game screen, in `engine` (the app's search engine): one
    runs at a time (`search`); `last` is the last move search that finished, `recorded`
    the last search recorded to step through. `clock` is time.monotonic but in tests."""

    def __init__(self, engine, clock=time.monotonic) -> None:
        self.engine = engine
        self.clock = clock
        self.search: SearchRecord | None = None  # running
        self.last: SearchRecord | None = None
        self.recorded: SearchRecord | None = None
        # when the search's clock started; None while the engine prepares (it compiles
        # or loads its kernels, off the move's clock)
        self.thinking_since: float | None = None
        self.live_shown_at = 0.0
        # when the app's first start last had this search's kernels still to compile:
        # an agent from outside is not waited for before then
        self.compiled_at = 0.0

    def forget(self) -> None:
        """A new game: no search of the last one to step through."""
        self.last = self.recorded = None

    # --- requests ------------------------------------------------------------------

    def start_move(self, game, state, agent, trace: bool) -> SearchRecord:
        """Ask the engine for `agent`'s move in `state` (`trace`: record its steps)."""
        request = SearchRequest(game.id, game.format_position(state), agent.spec,
                                game.options(), trace=trace)
        search_id = self.engine.submit(request)
        return self._running(SearchRecord(Purpose.MOVE, state, state.to_move, agent,
                                          search_id, started=self.clock()))

    def start_trace(self, game, plan: TracePlan) -> SearchRecord:
        """Record `plan.agent`'s search of `plan.state` step by step. Every iteration
        is kept if they all fit the trace's cap (two events a node), else only the one
        of `plan.trace_depth`: memory stays bounded."""
        trace_depth = None if 2 * plan.target <= TRACE_CAP else plan.trace_depth
        request = SearchRequest(game.id, game.format_position(plan.state),
                                plan.agent.spec, game.options(), trace=True,
                                budget=plan.budget, trace_depth=trace_depth,
                                target=plan.target)
        search_id = self.engine.submit(request)
        return self._running(SearchRecord(
            Purpose.TRACE, plan.state, plan.state.to_move, plan.agent, search_id,
            title=plan.title, decision=plan.decision, expected=plan.expected,
            expected_of=plan.expected_of, target=plan.target, started=self.clock(),
            played=plan.played, note=plan.note))

    def _running(self, search: SearchRecord) -> SearchRecord:
        self.search = search
        self.thinking_since = None
        self.compiled_at = 0.0
        return search

    def cancel(self) -> bool:
        """Stop the search running, if one is (whether one was)."""
        if self.search is None:
            return False
        self.engine.cancel()
        self.search = None
        return True

    # --- what comes back -----------------------------------------------------------

    def receive(self, update) -> SearchRecord | None:
        """Keep `update` in the record of the search it belongs to, and return that
        record; None for a cancelled or superseded search's. A search that ends is
        no longer running: a move search becomes `last`, a trace `recorded`."""
        search = self.search
        if search is None or update.search_id != search.search_id:
            return None
        if isinstance(update, EngineStarted):
            self.thinking_since = self.clock()
        elif isinstance(update, EngineEvents):
            if search.purpose == Purpose.TRACE:
                progress = [e for e in update.events if isinstance(e, TraceProgress)]
                if progress:
                    search.progress = progress[-1].work
            else:
                search.iterations += [e for e in update.events
                                      if isinstance(e, IterationDone)]
                search.unshown += update.events
        elif isinstance(update, EngineDone):
            self.search = None
            search.result, search.trace, search.truncated = \
                update.result, update.trace, update.truncated
            if search.purpose == Purpose.TRACE:
                self.recorded = search
            else:
                self.last = search
        elif isinstance(update, (EngineForfeit, EngineFailed)):
            self.search = None
        return search

    def live_wait(self, view_interval: float) -> float:
        """Seconds to wait before the live events go to the views (0 or less: now):
        LIVE_INTERVAL, or more if a view asks for it (a large MCTS table), after the
        last time."""
        return self.live_shown_at + max(LIVE_INTERVAL, view_interval) - self.clock()

    def take_unshown(self, search: SearchRecord) -> list:
        """The live events not shown yet, which are shown now."""
        events, search.unshown = search.unshown, []
        self.live_shown_at = self.clock()
        return events

    def hung(self) -> str | None:
        """Why the agent from outside that is searching forfeits, if it does not
        answer long after its time (a loop that never checks the clock): its search
        process is stopped, the next search starts a new one. None while all is well."""
        search = self.search
        if search is None or search.purpose != Purpose.MOVE or not search.agent.external \
                or self.engine.clock == "tick":  # (tests' clock: not real seconds)
            return None
        time_budget = search.agent.budget().time
        if time_budget is None:
            return None
        limit = search.agent.hang_limit(time_budget)
        if self.thinking_since is None and first_start.waiting_for(search.state.game.id):
            self.compiled_at = self.clock()
            return None
        since = max(search.started, self.compiled_at) if self.thinking_since is None \
            else self.thinking_since
        if self.clock() - since <= limit:
            return None
        self.search = None
        self.engine.close()
        return (f"{search.agent.label} did not answer within {limit:.0f} s "
                f"({time_budget:g} s a move)")

    # --- what the screen says about it ---------------------------------------------

    def doing(self) -> str:
        """What the running search's agent is doing, after its name in the status."""
        if self.thinking_since is None:
            return f": {self.preparing()}"
        seconds = self.clock() - self.thinking_since
        what = "is thinking" if self.search.purpose == Purpose.MOVE else \
            "is recording a step-by-step trace"
        return f" {what}… {seconds:.1f} s"

    def preparing(self) -> str:
        """What the running search waits for before its clock starts: its game's
        kernels, while the app's first start still compiles them, else the engine."""
        if first_start.waiting_for(self.search.state.game.id):
            return first_start.FIRST_START
        return PREPARING

    def recording(self) -> str:
        """How far the recording of a trace has come, and the keys that act on it."""
        search = self.search
        unit = search.agent.work_noun or (
            "iterations" if search.agent.shows == Shows.VISITS else "nodes")
        if search.target:
            share = min(search.progress / search.target, 1.0)
            text = (f"{search.progress:,} of {search.target:,} {unit} "
                    f"({100 * share:.0f}%)")
            seconds = self.clock() - search.started
            if search.progress and seconds > 0.5:
                left = (search.target - search.progress) / (search.progress / seconds)
                text += f" · about {max(left, 0):.0f} s left"
        else:
            text = f"{search.progress:,} {unit} so far"
        if self.quick_plan() is not None:
            text += "\nd: a quicker, shallower replay instead (labelled as one)"
        return text + "\ns again: stop recording"

    # --- step mode -----------------------------------------------------------------

    def quick_plan(self) -> TracePlan | None:
        """A quicker replay of the decision being replayed, or None if there is none
        (no replay of a decision is being recorded, or none would be quicker)."""
        search = self.search
        if search is None or search.purpose != Purpose.TRACE or search.decision is None \
                or search.expected is None:
            return None
        result = search.decision.result
        plan = partial(TracePlan, search.state, search.agent, decision=search.decision,
                       note=search.note)
        if search.agent.shows == Shows.VISITS:
            if result.work <= QUICK_ITERATIONS:
                return None
            return plan(f"a {QUICK_ITERATIONS:,}-iteration replay of a "
                        f"{result.work:,}-iteration decision",
                        Budget(iterations=QUICK_ITERATIONS), target=QUICK_ITERATIONS)
        quick = [event for event in search.decision.iterations
                 if event.nodes <= QUICK_NODES and event.depth < (result.depth or 0)]
        if not quick:
            return None
        iteration = quick[-1]
        return plan(f"a depth-{iteration.depth} replay of a depth-{result.depth} decision",
                    Budget(depth=iteration.depth),
                    expected=(iteration.best_move, iteration.value, iteration.nodes),
                    expected_of="the decision's own iteration at that depth",
                    trace_depth=iteration.depth, target=iteration.nodes)

    def step_through(self, match) -> SearchRecord | TracePlan | str:
        """What `s` shows while no search runs: the search behind the last move an
        agent played in `match`, as recorded when it ran (trace mode) or by an earlier
        `s`, else a plan to record the same search again, checked to repeat the
        decision. A move decided before this screen (a record opened, a game
        reopened) is searched again by the agent that played it. With no agent's move
        yet, a new search of this position by the agent to move. Or why there is
        nothing to show."""
        played = last_agent_move(match)
        if played is None:
            return new_search(match)
        index, note = played
        decision = self.last
        if decision is None or decision.state is not match.states[index]:
            recorded = self.recorded
            if recorded is not None and recorded.played == match.moves[index] \
                    and recorded.state is match.states[index] and recorded.trace:
                recorded.note = note
                return recorded
            return played_move(match, index, note)
        decision.note = note
        result, agent = decision.result, decision.agent
        if decision.trace:
            decision.title = "the deciding search, recorded as it ran"
            return decision
        recorded = self.recorded
        if recorded is not None and recorded.decision is decision and recorded.trace:
            recorded.note = note
            return recorded
        plan = agent.replay_plan(result)
        if plan is None:
            return ("Its values come from a solver (a compiled kernel): there are no "
                    "steps to show." if result.exact else
                    f"{agent.label} does not search: there is nothing to step through.")
        replayer, budget = plan
        depth = result.depth if replayer.shows == Shows.TREE else None
        return TracePlan(decision.state, replayer, "the deciding search", budget, decision,
                         (result.best_move, result.value, result.work), "the decision",
                         depth, result.work, note=note)


def move_name(match, index: int) -> str:
    """The game's move at `index` as step mode names it, e.g. `O's 4`."""
    state, move = match.states[index], match.moves[index]
    return f"{match.game.side_labels[state.to_move]}'s {match.game.format_move(move)}"


def last_agent_move(match) -> tuple[int, str] | None:
    """The index of the last move an agent played in the game, with a line saying
    so when a human's move came after it; None if no agent has moved."""
    last = len(match.moves) - 1
    for index in range(last, -1, -1):
        if match.agents[match.states[index].to_move] is not None:
            note = "" if index == last else (
                f"The last move, {move_name(match, last)}, was a human's: shown "
                f"instead, the search behind {move_name(match, index)}.")
            return index, note
    return None


def unrepeatable(match, agent) -> str:
    """Why a search `agent` made before this screen cannot be repeated for certain
    ('' if it can): a clock stops a slower, tracing search elsewhere; code from
    outside plyground may search differently each time; an unknown seed."""
    if agent.external:
        return f"by {agent.label}, code from outside plyground"
    time_budget = agent.budget().time
    if time_budget is not None:
        return f"against a {time_budget:g} s clock"
    if agent.draws_its_seed() and match.seed is None:
        return "with a seed the record does not give"
    return ""


def played_move(match, index: int, note: str) -> TracePlan | str:
    """The search behind a move decided before this screen (a record opened, a game
    reopened): the agent that played it searches the position before it again with
    its own settings and seed, and must choose it again. A search that cannot be
    repeated for certain is labelled a new search."""
    state, move = match.states[index], match.moves[index]
    agent = match.agents[state.to_move]
    what = move_name(match, index)
    if agent.shows == Shows.NONE:
        return f"{agent.label} does not search: there is nothing to step through."
    if agent.shows not in (Shows.TREE, Shows.VISITS):
        return (f"{what} was played by {agent.label}, from outside plyground: "
                "its search has no steps to show.")
    why = unrepeatable(match, agent)
    title = f"the search behind {what}, replayed"
    if why:
        title = f"a new search of the position before {what}"
        note = "\n".join(filter(None, (note, (
            f"{what} was chosen {why}, which no replay repeats for certain: shown "
            "instead, a new search of that position by the same agent."))))
    budget = agent.budget()
    target = (budget.iterations if agent.shows == Shows.VISITS else budget.nodes) or 0
    return TracePlan(state, agent, title, target=target, played=move, note=note)


def new_search(match) -> TracePlan | str:
    """No agent has moved yet: the search the agent to move would make now, labelled
    as a new search (never another side's agent on this position)."""
    if match.outcome is not None:
        return "The game is over and no agent searched in it: nothing to step through."
    agent = match.agent_to_move()
    if agent is None:
        return (f"No agent has moved yet and "
                f"{match.game.side_labels[match.state.to_move]} is played by "
                "hand: there is no search to step through yet.")
    if agent.shows == Shows.NONE:
        return f"{agent.label} does not search: there is nothing to step through."
    return TracePlan(match.state, agent,
                     "a new search of this position (no move was decided yet)")


@dataclass(frozen=True)
class ReplayCheck:
    """What step mode's title says of a replay: whether it `matches` what it replays
    (None: not checked), in a line."""

    matches: bool | None
    text: str


def check_replay(record: SearchRecord, game) -> ReplayCheck | None:
    """Whether a replay repeated what it replays: move, value and work; or, for a
    move decided before this screen, the move that was played. None for a search that
    replays nothing."""
    result = record.result
    if record.played is not None and result is not None:
        chose = game.format_move(result.best_move)
        if result.best_move == record.played:
            return ReplayCheck(True, f"✓ it chose {chose}, the move played in the game")
        return ReplayCheck(False, f"✗ it chose {chose}, not the game's "
                                  f"{game.format_move(record.played)}: the steps are "
                                  "this search's own")
    if record.expected is None or result is None:
        if record.decision is not None:
            return ReplayCheck(None, "not checked against the decision: a shorter search")
        return None

    def figures(move, value, work) -> str:
        value_text = "" if value is None else \
            f", {mean_words(value, record.state.ply, network_valued(result))}" \
            if result.scale == Scale.MEAN else \
            f", value {Score(value, record.state.ply, result.scale)}"
        return f"move {game.format_move(move)}{value_text}, {work:,} {result.work_unit}"

    replayed = figures(result.best_move, result.value, result.work)
    if (result.best_move, result.value, result.work) == record.expected:
        return ReplayCheck(True, f"✓ matches {record.expected_of}: {replayed}")
    return ReplayCheck(False, f"✗ differs from {record.expected_of}: the replay gives "
                              f"{replayed}; it was {figures(*record.expected)}. The steps "
                              "are the replay's own (a kernel that searched another "
                              "tree, node for node, than the traced Python search)")
