"""The az agent's search on the compiled tree (fast/puct_batch.py): puct_search's
decision, snapshots and budget, for one game whose tree batches its own leaves
(settings batch, with virtual loss) into each network call.

It makes the reference's simulations (tests/core/test_puct_batch.py holds the tree
to search/puct.py) at the network's pace, so a 0.2 s move searches several times as
many positions. What the tree cannot show, the phases of each simulation that step
mode replays, stays with the reference: the agent uses it when the observer traces.
"""
from __future__ import annotations

import math
from typing import Any

from ...fast.puct_batch import BatchPuct, kernels_for
from ...game import Game, State
from ...search.control import Budget, SearchControl
from ...search.events import MoveValue, PuctMoveStat, PuctSnapshot, SearchDone
from ...search.mcts import MAX_ITERATIONS, SNAPSHOT_INTERVAL
from ...search.puct import DEFAULT_BATCH, played_stat
from ...values import Bound, Scale
from .net import Net

START_NODES = 4096  # a search's first room; it doubles as it fills


def can_search(game: Game, observer: Any = None) -> bool:
    """Whether the compiled search serves `game` for this observer (not a trace)."""
    return not (observer is not None and observer.trace) and kernels_for(game) is not None


def fast_puct_search(game: Game, state: State, budget: Budget, net: Net,
                     c: float, observer: Any = None,
                     control: SearchControl | None = None,
                     batch: int = DEFAULT_BATCH) -> SearchDone:
    """puct_search (no noise) on the compiled tree: simulations until the budget or a
    cancel stops it, then the most visited move."""
    control = control or SearchControl(budget)
    if budget.iterations is None and budget.time is None:
        raise ValueError("PUCT needs a simulation or a time budget")
    limit = MAX_ITERATIONS if budget.iterations is None else \
        min(budget.iterations, MAX_ITERATIONS)
    encoding = game.encoding()
    search = BatchPuct(kernels_for(game), 1, min(limit + 1, START_NODES), batch, c,
                       encoding.policy_size, encoding.shape)
    forwards = [net.forward]
    search.start(0, state, limit)
    search.round(forwards)  # the root: evaluated before the clock is looked at
    network_value = search.root_value()
    last_snapshot = control.elapsed()
    while search.simulations(0) < limit:
        if search.simulations(0) > 0 and control.exhausted():
            break
        search.round(forwards)
        now = control.elapsed()
        if observer is not None and now - last_snapshot >= SNAPSHOT_INTERVAL:
            observer(snapshot(search, state, network_value, now))
            last_snapshot = now
    elapsed = control.elapsed()
    final = snapshot(search, state, network_value, elapsed)
    if observer is not None:
        observer(final)
    best = played_stat(final.stats)
    move_values = tuple(MoveValue(s.move, (s.q + 1) / 2, Bound.ESTIMATE, s.visits)
                        for s in final.stats if s.visits)
    return SearchDone(best.move, (final.value + 1) / 2, final.pv, search.simulations(0),
                      elapsed, move_values=move_values, scale=Scale.MEAN,
                      unit="simulations")


def snapshot(search: BatchPuct, state: State, network_value: float,
             elapsed: float) -> PuctSnapshot:
    """PuctTree.snapshot of the compiled tree of game 0."""
    root_visits, root_total = search.root_counts()
    priors, visits, totals = search.root_edges()
    stats = []
    for move, prior, count, total in zip(state.moves(), priors, visits, totals):
        q = total / count if count else root_total / root_visits
        u = search.c * prior * math.sqrt(root_visits) / (1 + count)
        stats.append(PuctMoveStat(move, int(count), (q + 1) / 2, q + u, prior=float(prior),
                                  q=float(q), u=float(u)))
    stats = tuple(stats)
    simulations = search.simulations(0)
    rate = simulations / elapsed if elapsed > 0 else 0.0
    return PuctSnapshot(simulations, elapsed, rate, stats,
                        principal_variation(search, state), root_visits=root_visits,
                        network_value=network_value, value=played_stat(stats).q)


def principal_variation(search: BatchPuct, state: State) -> tuple:
    """PuctTree.principal_variation: the most visited move (the highest prior among
    equals) from the root while the position is evaluated and running."""
    line = []
    for index in search.principal_indices(0):
        move = state.moves()[index]
        line.append(move)
        state = state.play(move)
    return tuple(line)
