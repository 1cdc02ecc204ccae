"""PUCT: Monte Carlo tree search guided by a policy/value network (AlphaZero).

A simulation walks down from the root, at each node taking the move with the highest
Q + U, where Q is the move's mean value for the side to move at the node and

    U = c · P · sqrt(N_node) / (1 + N_move)

the exploration bonus: P the network's prior for the move, N_node the node's visits
(its own evaluation and every simulation through it, so that the first choice at a new
node already follows the prior), N_move the move's visits. The walk stops at a new node
or a finished game. A new node is evaluated by the network (`evaluate`): its priors
and its value for its side to move; a finished game takes its exact value (1 won, 0
drawn, -1 lost) and no network. The value goes back up the path, negated wherever the
side to move differs (checked at each node, not assumed to alternate).

A move not visited yet takes its node's own mean value as Q (the "first-play value"):
an untried move is assumed as good as the position has proved so far, so that the
search neither rushes to every untried move when it is losing (Q = 0 would look
better than the moves it knows) nor never tries one when winning; the prior orders
them. Ties go to the first move in the rules' order.

Leaves are evaluated in batches (one network call for up to `batch` leaves): a round
walks down `batch` times, each pending leaf's path counting a virtual loss (a visit
and a lost game for each move on it) so that the next walks spread out; a walk that
ends on a leaf already pending ends the round early. Then the batch is evaluated,
the virtual losses taken off and the values backed up in order. A round depends only
on the tree, so the same position, settings and seed give the same search.

The move played is the most visited (the highest prior among equals); with no
simulations, the highest prior. Its value is its Q, reported on the MCTS mean scale
((Q + 1) / 2, a draw 0.5). The root's visit counts are the decision's `move_values`
(`puct_visits` reads them), which a trainer takes as its policy target.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from ..game import Game, Move, State
from ..values import Bound, Scale
from .control import Budget, SearchControl
from .events import (MoveValue, PuctBackedUp, PuctEvaluated, PuctMoveStat, PuctSelected,
                     PuctSnapshot, PuctStep, SearchDone)
from .mcts import MAX_ITERATIONS, SNAPSHOT_INTERVAL

DEFAULT_C = 1.5
DEFAULT_BATCH = 8

# states -> per state (prior over state.moves() in that order, value for its side to move)
Evaluate = Callable[[list[State]], Sequence[tuple[Sequence[float], float]]]


def exact_value(state: State) -> float | None:
    """A finished game's value for the side to move in it: 1, 0 or -1 (None if running)."""
    outcome = state.outcome()
    if outcome is None:
        return None
    return 0.0 if outcome.winner is None else 1.0 if outcome.winner == state.to_move else -1.0


class Node:
    """A position in the tree. Its moves' statistics live in the node, as lists by move
    index (`visits[i]`, `totals[i]`: the simulations through move i and the sum of
    their values for the side to move here), so that choosing a move reads no child;
    a child node is made when its move is first taken."""

    __slots__ = ("state", "to_move", "sign", "exact", "moves", "priors", "children",
                 "visits", "totals")

    def __init__(self, state: State, parent: "Node | None") -> None:
        self.state = state
        self.to_move = state.to_move
        # +1 if the parent's side to move is this node's too, else -1: values from here
        # to the parent's view
        self.sign = 1 if parent is None or parent.to_move == self.to_move else -1
        self.moves = tuple(state.moves())  # empty once the game is over
        self.exact = None if self.moves else exact_value(state)
        self.priors: list[float] | None = None  # None until evaluated
        self.children: list[Node | None] = []
        self.visits: list[int] = []
        self.totals: list[float] = []

    def expand(self, prior: Sequence[float]) -> None:
        self.priors = [float(p) for p in prior]
        if len(self.priors) != len(self.moves):
            raise ValueError(f"the evaluator gave {len(self.priors)} priors for "
                             f"{len(self.moves)} moves")
        self.children = [None] * len(self.moves)
        self.visits = [0] * len(self.moves)
        self.totals = [0.0] * len(self.moves)


class PuctTree:
    """The tree of one search: rounds of simulations, the root's statistics.

    A walk is a list of (node, move index) steps from the root; the root's own visits
    and value sum are kept here (no parent holds them), every other node's in its
    parent's lists."""

    def __init__(self, state: State, evaluate: Evaluate, c: float,
                 observer: Any = None) -> None:
        if not state.moves():
            raise ValueError("the game is over: there is no move to search")
        self.evaluate = evaluate
        self.c = c
        self.trace = observer if observer is not None and observer.trace else None
        self.simulations = 0
        self.root = Node(state, None)
        [(prior, value)] = evaluate([state])
        self.root.expand(prior)
        self.root_visits, self.root_total = 1, float(value)
        self.network_value = float(value)

    def add_noise(self, alpha: float, fraction: float, seed: int) -> None:
        """Mix Dirichlet(alpha) noise into the root's priors (training's exploration)."""
        import numpy as np  # numpy: only a training search draws noise

        noise = np.random.default_rng(seed).dirichlet([alpha] * len(self.root.moves))
        self.root.priors = [(1 - fraction) * p + fraction * float(n)
                            for p, n in zip(self.root.priors, noise)]

    def edge(self, node: Node, index: int, node_visits: int,
             node_total: float) -> tuple[float, int, float, float]:
        """(P, N, Q, U) of the node's move `index`, Q for the side to move at `node`,
        given the node's own visits and value sum."""
        prior, visits = node.priors[index], node.visits[index]
        q = node.totals[index] / visits if visits else node_total / node_visits
        return prior, visits, q, self.c * prior * math.sqrt(node_visits) / (1 + visits)

    def select(self) -> tuple[list[tuple[Node, int]], Node, tuple] | None:
        """A walk from the root to a leaf (a new node or a finished game): its steps,
        the leaf, and the trace's steps if tracing; None if it ends on a pending leaf.
        At each node the move of the highest Q + U, the first among equals."""
        c, trace = self.c, self.trace
        node, node_visits, node_total = self.root, self.root_visits, self.root_total
        walk: list[tuple[Node, int]] = []
        steps = [] if trace else None
        while True:
            first_play, root = node_total / node_visits, math.sqrt(node_visits)
            scores = [(total / visits if visits else first_play)
                      + c * prior * root / (1 + visits)
                      for prior, visits, total in zip(node.priors, node.visits,
                                                      node.totals)]
            best = scores.index(max(scores))
            if steps is not None:
                steps.append(PuctStep(node.moves[best],
                                      *self.edge(node, best, node_visits, node_total)))
            walk.append((node, best))
            child = node.children[best]
            if child is None:
                child = node.children[best] = Node(node.state.play(node.moves[best]),
                                                   node)
                return walk, child, tuple(steps or ())
            if child.exact is not None:
                return walk, child, tuple(steps or ())
            if child.priors is None:
                return None
            node_visits, node_total = node.visits[best], child.sign * node.totals[best]
            node = child

    def run(self, count: int) -> None:
        """One round: up to `count` simulations, their new leaves evaluated together.
        A pending leaf's walk counts a virtual loss (a visit and a lost game for each
        move on it) until its value is backed up."""
        pending, walks = [], 0
        while walks < count and (selected := self.select()) is not None:
            walks += 1
            walk, leaf, steps = selected
            number = self.simulations + len(pending)
            path = tuple(node.moves[index] for node, index in walk) if self.trace else ()
            if self.trace:
                self.trace(PuctSelected(number, path, steps))
            if leaf.exact is not None:
                self.finish(number, walk, leaf, path, leaf.exact, False)
            else:
                for node, index in walk:
                    node.visits[index] += 1
                    node.totals[index] -= 1
                pending.append((number, walk, leaf, path))
        if not pending:
            return
        results = self.evaluate([leaf.state for _, _, leaf, _ in pending])
        for (number, walk, leaf, path), (prior, value) in zip(pending, results):
            for node, index in walk:
                node.visits[index] -= 1
                node.totals[index] += 1
            leaf.expand(prior)
            self.finish(number, walk, leaf, path, float(value), True)

    def finish(self, number: int, walk: list[tuple[Node, int]], leaf: Node, path: tuple,
               value: float, evaluated: bool) -> None:
        """Back up a leaf's `value` (for its side to move) along the walk."""
        leaf_side = leaf.to_move
        if self.trace:
            priors = tuple(zip(leaf.moves, leaf.priors)) if evaluated else ()
            self.trace(PuctEvaluated(number, path, value, priors, not evaluated))
        for node, index in walk:
            node.visits[index] += 1
            node.totals[index] += value if node.to_move == leaf_side else -value
        self.root_visits += 1
        self.root_total += value if self.root.to_move == leaf_side else -value
        self.simulations += 1
        if self.trace:
            root_value = value if self.root.to_move == leaf_side else -value
            self.trace(PuctBackedUp(number, path, root_value))

    def stats(self) -> tuple[PuctMoveStat, ...]:
        stats = []
        for index, move in enumerate(self.root.moves):
            prior, visits, q, u = self.edge(self.root, index, self.root_visits,
                                            self.root_total)
            stats.append(PuctMoveStat(move, visits, (q + 1) / 2, q + u, prior=prior, q=q,
                                      u=u))
        return tuple(stats)

    def principal_variation(self) -> tuple:
        line, node = [], self.root
        while node is not None and node.priors is not None and node.moves:
            index = best_index(node)
            line.append(node.moves[index])
            node = node.children[index]
        return tuple(line)

    def snapshot(self, elapsed: float) -> PuctSnapshot:
        stats = self.stats()
        best = stats[best_index(self.root)]
        rate = self.simulations / elapsed if elapsed > 0 else 0.0
        return PuctSnapshot(self.simulations, elapsed, rate, stats,
                            self.principal_variation(), root_visits=self.root_visits,
                            network_value=self.network_value, value=best.q)


def best_index(node: Node) -> int:
    """The move a node's side plays: the most visited, the highest prior among equals,
    the first in the rules' order among those."""
    return max(range(len(node.moves)),
               key=lambda index: (node.visits[index], node.priors[index]))


def played_stat(stats: Sequence[PuctMoveStat]) -> PuctMoveStat:
    """Of a snapshot's root moves (in the rules' order), the one the search plays, as
    best_index chooses: the most visited, the highest prior among equals."""
    return max(stats, key=lambda stat: (stat.visits, stat.prior))


def puct_search(game: Game, state: State, budget: Budget, evaluate: Evaluate,
                c: float = DEFAULT_C, seed: int = 0, observer: Any = None,
                control: SearchControl | None = None, *,
                noise: tuple[float, float] | None = None,
                batch: int = DEFAULT_BATCH) -> SearchDone:
    """Run simulations until the budget (`iterations` simulations and/or `time`) or a
    cancel stops it, then play the most visited move. `noise=(alpha, fraction)` mixes
    Dirichlet noise drawn from `seed` into the root's priors. Snapshots go to the
    observer about every SNAPSHOT_INTERVAL and at the end; the phases of every
    simulation too if it asks for a trace."""
    control = control or SearchControl(budget)
    if budget.iterations is None and budget.time is None:
        raise ValueError("PUCT needs a simulation or a time budget")
    tree = PuctTree(state, evaluate, c, observer)
    if noise is not None:
        tree.add_noise(*noise, seed)
    limit = MAX_ITERATIONS if budget.iterations is None else \
        min(budget.iterations, MAX_ITERATIONS)
    last_snapshot = control.elapsed()
    while tree.simulations < limit:
        if tree.simulations > 0 and control.exhausted():
            break
        tree.run(min(batch, limit - tree.simulations))
        now = control.elapsed()
        if observer is not None and now - last_snapshot >= SNAPSHOT_INTERVAL:
            observer(tree.snapshot(now))
            last_snapshot = now
    elapsed = control.elapsed()
    final = tree.snapshot(elapsed)
    if observer is not None:
        observer(final)
    best = final.stats[best_index(tree.root)]
    move_values = tuple(MoveValue(s.move, (s.q + 1) / 2, Bound.ESTIMATE, s.visits)
                        for s in final.stats if s.visits)
    return SearchDone(best.move, (final.value + 1) / 2, final.pv, tree.simulations,
                      elapsed, move_values=move_values, scale=Scale.MEAN,
                      unit="simulations")


def puct_visits(done: SearchDone) -> dict[Move, int]:
    """The root's visit count per move a PUCT decision chose from (moves it never
    visited are left out): what a trainer takes as the search's policy."""
    return {value.move: value.visits for value in done.move_values}
