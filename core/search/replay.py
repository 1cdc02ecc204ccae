"""Stepping through a recorded search trace, forward and back.

A trace is the list of node-level events a search emitted with `trace = True`. A replay
indexes it once, so that any position in it (a "frame") can be shown at once: for tree
search the current node, its window, its ancestors and the children searched so far;
for MCTS the iteration, its phase and the root statistics up to that moment; for PUCT
the simulation's selection steps, its leaf's evaluation and its backup. Jumping by whole
iterations uses the iteration starts (the root entered again, or a new selection).
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Any, Callable

from ..values import Bound
from .events import (MctsBackedUp, MctsExpanded, MctsRolledOut, MctsSelected, NodeEntered,
                     NodeLeft, PuctBackedUp, PuctEvaluated, PuctSelected)
from .tree import bound_of


class Replay:
    """Navigation shared by both kinds: events and where iterations start."""

    kind = ""

    def __init__(self, events: list, starts: list[int]) -> None:
        self.events = events
        self.starts = starts

    def __len__(self) -> int:
        return len(self.events)

    def next_iteration(self, index: int) -> int:
        """The start of the next iteration (or the last event)."""
        position = bisect_right(self.starts, index)
        return self.starts[position] if position < len(self.starts) else len(self) - 1

    def previous_iteration(self, index: int) -> int:
        """The start of this iteration, or of the previous one when already there."""
        position = bisect_left(self.starts, index)
        return self.starts[position - 1] if position > 0 else 0

    def iteration_of(self, index: int) -> int:
        """1-based number of the iteration the event belongs to."""
        return max(1, bisect_right(self.starts, index))


@dataclass(frozen=True)
class Ancestor:
    path: tuple
    depth: int
    alpha: float
    beta: float


@dataclass(frozen=True)
class ChildResult:
    move: Any
    value: float  # for the side to move at the child (negate for the parent's view)
    cutoff: bool
    bound: str  # what `value` says for the parent's side: exact, or ≤ / ≥ a bound

    @classmethod
    def of(cls, left: NodeLeft) -> "ChildResult":
        """A child's value as its parent sees it (negated, in the negated window), so
        that a cut-off in the child is an upper bound for the parent, as the live tree
        writes it; a static value (a leaf, an end, a repeat) is exact."""
        static = left.source in ("leaf", "end", "repeat")
        bound = Bound.EXACT if static else bound_of(-left.value, -left.beta, -left.alpha)
        return cls(left.path[-1], left.value, left.cutoff, bound)


@dataclass(frozen=True)
class TreeFrame:
    index: int
    event: NodeEntered | NodeLeft
    iteration: int
    iteration_depth: int
    ancestors: tuple[Ancestor, ...]  # root first, the current node last
    children: tuple[ChildResult, ...]  # the current node's children finished so far


class TreeReplay(Replay):
    kind = "tree"

    def __init__(self, trace: list) -> None:
        events = [e for e in trace if isinstance(e, (NodeEntered, NodeLeft))]
        starts = [i for i, e in enumerate(events) if isinstance(e, NodeEntered) and not e.path]
        super().__init__(events, starts)
        # entered[i]: index of the NodeEntered of the node event i belongs to;
        # parent[i] for entry events: the parent's entry index (-1 at the root)
        self.entered: list[int] = []
        self.parent: dict[int, int] = {}
        self.children: dict[int, list[tuple[int, ChildResult]]] = {}
        stack: list[int] = []
        for i, event in enumerate(events):
            if isinstance(event, NodeEntered):
                self.parent[i] = stack[-1] if stack else -1
                stack.append(i)
                self.entered.append(i)
            else:
                entry = stack.pop() if stack else i
                self.entered.append(entry)
                parent = self.parent.get(entry, -1)
                if parent >= 0:
                    self.children.setdefault(parent, []).append(
                        (i, ChildResult.of(event)))

    def frame(self, index: int) -> TreeFrame:
        event = self.events[index]
        entry = self.entered[index]
        chain = []
        node = entry
        while node >= 0:
            entered = self.events[node]
            chain.append(Ancestor(entered.path, entered.depth, entered.alpha, entered.beta))
            node = self.parent.get(node, -1)
        chain.reverse()
        finished = self.children.get(entry, [])
        done = bisect_right([i for i, _ in finished], index)
        root = self.starts[self.iteration_of(index) - 1] if self.starts else 0
        return TreeFrame(index, event, self.iteration_of(index), self.events[root].depth,
                         tuple(chain), tuple(child for _, child in finished[:done]))


def root_tallies(events: list, backup: type, gain: Callable[[Any], float],
                 tally: Callable[[Any, int, float], Any]) -> tuple[list[int], list[tuple]]:
    """Every `backup` event's index, and after each, the root moves' tallies: each
    move through which a backup has come, `tally(move, backups, sum of their gains)`."""
    backups, tallies = [], []
    visits: dict[Any, int] = {}
    totals: dict[Any, float] = {}
    for index, event in enumerate(events):
        if isinstance(event, backup) and event.path:
            move = event.path[0]
            visits[move] = visits.get(move, 0) + 1
            totals[move] = totals.get(move, 0.0) + gain(event)
            backups.append(index)
            tallies.append(tuple(tally(m, visits[m], totals[m]) for m in visits))
    return backups, tallies


PHASES = {MctsSelected: "selection", MctsExpanded: "expansion", MctsRolledOut: "playout",
          MctsBackedUp: "backup"}


@dataclass(frozen=True)
class RootTally:
    move: Any
    visits: int
    wins: float  # for the side to move at the root


@dataclass(frozen=True)
class MctsFrame:
    index: int
    event: Any
    phase: str
    iteration: int  # 1-based
    path: tuple  # the iteration's path so far (selection, then the expanded node)
    rollout: tuple  # the playout's moves, once played
    winner: int | None
    reward: float | None  # for the root's side to move, once backed up
    root: tuple[RootTally, ...]  # root moves as they stand after this event


class MctsReplay(Replay):
    kind = "mcts"

    def __init__(self, trace: list) -> None:
        events = [e for e in trace if type(e) in PHASES]
        starts = [i for i, e in enumerate(events) if isinstance(e, MctsSelected)]
        super().__init__(events, starts)
        # event index of every backup, in order, and the root tallies after each
        self.backups, self.tallies = root_tallies(
            events, MctsBackedUp, lambda event: event.reward, RootTally)

    def frame(self, index: int) -> MctsFrame:
        event = self.events[index]
        start = self.starts[self.iteration_of(index) - 1]
        path, rollout, winner, reward = (), (), None, None
        for current in self.events[start:index + 1]:
            path = current.path
            if isinstance(current, MctsRolledOut):
                rollout, winner = current.moves, current.winner
            elif isinstance(current, MctsBackedUp):
                reward = current.reward
        done = bisect_right(self.backups, index)
        root = self.tallies[done - 1] if done else ()
        return MctsFrame(index, event, PHASES[type(event)], self.iteration_of(index), path,
                         rollout, winner, reward, root)


PUCT_PHASES = {PuctSelected: "selection", PuctEvaluated: "evaluation",
               PuctBackedUp: "backup"}


@dataclass(frozen=True)
class PuctTally:
    move: Any
    visits: int  # the simulations backed up through it so far
    value: float  # their mean value for the root's side to move, -1..1


@dataclass(frozen=True)
class PuctFrame:
    index: int
    event: Any
    phase: str
    simulation: int  # 1-based
    selected: PuctSelected | None  # the simulation's walk down, once made
    evaluated: PuctEvaluated | None  # its leaf's value, once known
    backed_up: PuctBackedUp | None  # its backup, once done
    root: tuple[PuctTally, ...]  # root moves as they stand after this event


class PuctReplay(Replay):
    """A PUCT trace. Leaves are evaluated in batches, so a round's selections come
    first and then each leaf's evaluation and backup: events are stepped in the order
    the search made them, and a frame gathers its simulation's phases by number."""

    kind = "puct"

    def __init__(self, trace: list) -> None:
        events = [e for e in trace if type(e) in PUCT_PHASES]
        starts = [i for i, e in enumerate(events) if isinstance(e, PuctSelected)]
        super().__init__(events, starts)
        self.numbers = sorted({e.simulation for e in events})
        self.backups, self.tallies = root_tallies(
            events, PuctBackedUp, lambda event: event.value,
            lambda move, visits, total: PuctTally(move, visits, total / visits))

    def frame(self, index: int) -> PuctFrame:
        event = self.events[index]
        phases: dict[type, Any] = {}
        for current in reversed(self.events[:index + 1]):
            if current.simulation == event.simulation:
                phases.setdefault(type(current), current)
                if isinstance(current, PuctSelected):
                    break
        done = bisect_right(self.backups, index)
        return PuctFrame(index, event, PUCT_PHASES[type(event)],
                         bisect_left(self.numbers, event.simulation) + 1,
                         phases.get(PuctSelected), phases.get(PuctEvaluated),
                         phases.get(PuctBackedUp),
                         self.tallies[done - 1] if done else ())


def replay_for(trace: list) -> Replay | None:
    """The replay a trace calls for (None if it holds no step events)."""
    if any(isinstance(e, (NodeEntered, NodeLeft)) for e in trace):
        return TreeReplay(trace)
    if any(type(e) in PHASES for e in trace):
        return MctsReplay(trace)
    if any(type(e) in PUCT_PHASES for e in trace):
        return PuctReplay(trace)
    return None
