"""Search events: the inspector's data model.

Searches call an optional observer with these small frozen records. Live views use the
summaries (`NodeResult`, `IterationDone`, `MctsSnapshot`, `SearchDone`); step mode replays
the node-level trace (`NodeEntered` / `NodeLeft`, and the four MCTS phases), which a
search emits only when its observer asks for it with `trace = True`.

Values are from the point of view of the side to move at the node concerned (negamax),
except MCTS means, which are for the side to move at the root. Paths are tuples of moves
from the root.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable

from ..values import Bound, Scale, Score

Move = Hashable
Path = tuple


# --- tree search (minimax, alpha-beta, greedy) ---------------------------------------


@dataclass(frozen=True, slots=True)
class NodeEntered:
    """Trace: the search enters the node at `path` with window (alpha, beta)."""

    path: Path
    depth: int  # plies left to search below this node
    alpha: float
    beta: float


@dataclass(frozen=True, slots=True)
class NodeLeft:
    """Trace: the search leaves the node at `path` with `value`.

    `cutoff` is set when a child's value reached beta and `pruned` moves were never
    searched; `source` says where the value came from ("search", "leaf", "end",
    "table" for a transposition-table hit, "repeat" for a return to a position the
    game has had, which a search that avoids repeats scores as a draw, "kernel" for a
    subtree a compiled kernel searched, `nodes` of them, untraced).
    """

    path: Path
    depth: int
    value: float
    alpha: float
    beta: float
    best_move: Move | None
    cutoff: bool = False
    pruned: int = 0
    source: str = "search"
    nodes: int = 1


@dataclass(frozen=True, slots=True)
class NodeResult:
    """Live: a node one or two plies below the root got its value at this depth.

    `value` is for the side that played the last move of `path` (negamax: at every
    node the best child is the one with the highest value).
    """

    path: Path
    depth: int  # the iteration's depth
    value: float
    bound: Bound


@dataclass(frozen=True, slots=True)
class MoveValue:
    move: Move
    value: float
    bound: Bound
    visits: int | None = None  # MCTS only


@dataclass(frozen=True, slots=True)
class IterationDone:
    """Live: one iteration of (iterative-deepening) tree search finished."""

    depth: int
    best_move: Move
    value: float
    move_values: tuple[MoveValue, ...]
    pv: tuple
    nodes: int
    elapsed: float
    nodes_per_second: float


# --- Monte Carlo tree search ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoveStat:
    move: Move
    visits: int
    mean: float  # mean result for the side to move at the root, 0..1
    uct: float
    # MCTS-Solver: the move's proven value for the side to move at the root, as a
    # values.py score (win/loss in N, 0 a draw); None where unproven
    proven: int | None = None


@dataclass(frozen=True, slots=True)
class MctsSnapshot:
    """Live: the root's statistics so far."""

    iterations: int
    elapsed: float
    iterations_per_second: float
    stats: tuple[MoveStat, ...]
    pv: tuple
    proven: int | None = None  # the root's proven value (as MoveStat.proven)


@dataclass(frozen=True, slots=True)
class MctsSelected:
    """Trace, phase 1: the tree policy walked down to `path`."""

    iteration: int
    path: Path


@dataclass(frozen=True, slots=True)
class MctsExpanded:
    """Trace, phase 2: a new node at `path` (its last move is the new one)."""

    iteration: int
    path: Path


@dataclass(frozen=True, slots=True)
class MctsRolledOut:
    """Trace, phase 3: a random playout from `path` played `moves` and ended so."""

    iteration: int
    path: Path
    moves: tuple
    winner: int | None


@dataclass(frozen=True, slots=True)
class MctsBackedUp:
    """Trace, phase 4: the result went back up `path`; `reward` is for the root mover."""

    iteration: int
    path: Path
    reward: float


# --- PUCT: MCTS guided by a policy/value network (AlphaZero) -------------------------
# A PUCT snapshot is an MCTS snapshot with more per move, so every view of MCTS root
# statistics (visits, mean, the heat map) shows it as it is; `uct` is the selection
# score Q + U and `mean` is (Q + 1) / 2. Q and the values are in [-1, 1] (a draw 0),
# for the side to move at the root.


@dataclass(frozen=True, slots=True)
class PuctMoveStat(MoveStat):
    prior: float = field(kw_only=True)  # P: the network's prior, noise mixed in if any
    q: float = field(kw_only=True)  # the move's mean value (the first-play value if unvisited)
    u: float = field(kw_only=True)  # the exploration bonus c · P · sqrt(N_root) / (1 + N)


@dataclass(frozen=True, slots=True)
class PuctSnapshot(MctsSnapshot):
    """Live: the root's statistics so far; every legal root move has a row."""

    root_visits: int = field(kw_only=True)  # N of the root: its own evaluation + simulations
    network_value: float = field(kw_only=True)  # the value head's estimate of the root
    value: float = field(kw_only=True)  # the search's: the Q of the move it would play


@dataclass(frozen=True, slots=True)
class PuctStep:
    """One step of a selection: the move taken and its P, N, Q, U as they stood."""

    move: Move
    prior: float
    visits: int
    q: float
    u: float


@dataclass(frozen=True, slots=True)
class PuctSelected:
    """Trace, phase 1: simulation `simulation` walked down by Q + U, step by step, to
    the leaf at `path` (a new node, or a finished game)."""

    simulation: int
    path: Path
    steps: tuple[PuctStep, ...]


@dataclass(frozen=True, slots=True)
class PuctEvaluated:
    """Trace, phase 2: the leaf's value for its side to move, from the network with
    its priors (move, P), or exact for a finished game (`terminal`, no priors)."""

    simulation: int
    path: Path
    value: float
    priors: tuple = ()
    terminal: bool = False


@dataclass(frozen=True, slots=True)
class PuctBackedUp:
    """Trace, phase 3: the leaf's value went back up `path`, negated at each change of
    side; `value` is for the side to move at the root."""

    simulation: int
    path: Path
    value: float


# --- position analysis (an exact solver's values of every move) ---------------------


@dataclass(frozen=True, slots=True)
class AnalysisProgress:
    """Live: the moves whose exact values are known so far, of `total` to solve."""

    values: tuple[MoveValue, ...]
    total: int
    nodes: int
    elapsed: float


# --- agents from outside: Python bots and protocol engines ---------------------------


@dataclass(frozen=True, slots=True)
class Info:
    """Live: what an agent that is not plyground's own says it is thinking (a bot's
    `report`, an engine's `info` line). Every field is optional: `score` is for the
    side to move, in the agent's own units; `pv` is moves; `text` any other words."""

    depth: int | None = None
    score: float | None = None
    pv: tuple = ()
    nodes: int | None = None
    text: str = ""


# --- every search --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SearchDone:
    """Every search ends with this; agents return it as their decision.

    `value` is for the side to move at the root (None where the agent has no value),
    on a values.py `Scale` (`score` reads it); `work` counts nodes or MCTS iterations;
    `depth` is the last completed depth of a tree search; `move_values` are the root
    moves' values where the search has them. `stopped` says the budget or a cancel
    ended the search, and `note` says how ("stopped during depth 15: 3 of 7 root moves
    searched": a deeper iteration the budget cut short, never the decision). `exact`
    marks values a solver proved, every one of them.
    """

    best_move: Move
    value: float | None
    pv: tuple
    work: int
    elapsed: float
    depth: int | None = None
    move_values: tuple[MoveValue, ...] = ()
    note: str = ""
    scale: Scale = Scale.SCORE
    exact: bool = False
    stopped: bool = False  # the budget or a cancel ended it, not its own depth limit
    unit: str | None = None  # what `work` counts, if neither nodes nor MCTS iterations

    @property
    def work_unit(self) -> str:
        return self.unit or ("iterations" if self.scale == Scale.MEAN else "nodes")

    def score(self, ply: int) -> Score | None:
        """The decision's value read at `ply`, the ply count of the position searched."""
        return None if self.value is None else Score(self.value, ply, self.scale)


@dataclass(frozen=True, slots=True)
class TraceProgress:
    """Live, while a search records its trace: `work` nodes (or MCTS iterations) done
    of the `target` it is expected to reach (0 if unknown)."""

    work: int
    target: int


# The events a recorded search may keep (the app's step mode, a lesson): enough to step
# through, bounded so that one search cannot fill the memory.
TRACE_CAP = 200_000

TRACE_EVENTS = (NodeEntered, NodeLeft, MctsSelected, MctsExpanded, MctsRolledOut,
                MctsBackedUp, PuctSelected, PuctEvaluated, PuctBackedUp)


@dataclass
class Recorder:
    """An observer that keeps events in a list, the trace capped at `cap` events.

    With `depth`, only the tree-search iteration of that depth is kept (the one a
    learner steps through): the search still runs every iteration before it, but
    memory holds one. `work` counts the nodes entered (or MCTS iterations, PUCT
    simulations, started), recorded or not."""

    trace: bool = False
    cap: int = TRACE_CAP
    depth: int | None = None
    events: list = field(default_factory=list)
    trace_events: int = 0
    truncated: bool = False
    work: int = 0
    recording: bool = True

    def __call__(self, event: Any) -> None:
        if isinstance(event, TRACE_EVENTS):
            if isinstance(event, (NodeEntered, MctsSelected, PuctSelected)):
                self.work += 1
                if self.depth is not None and isinstance(event, NodeEntered) \
                        and not event.path:
                    self.recording = event.depth == self.depth
            elif isinstance(event, NodeLeft) and event.nodes > 1:  # a kernel's subtree
                self.work += event.nodes - 1
            if not self.recording:
                return
            if self.trace_events >= self.cap:
                self.truncated = True
                return
            self.trace_events += 1
        self.events.append(event)
