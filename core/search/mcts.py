"""Monte Carlo tree search: UCT with uniformly random playouts.

Each iteration has four phases: selection (follow the highest UCT score while a node
has no untried move), expansion (add the first untried move), a random playout to the
end, and backup (each node on the path counts a visit and the result for the side that
moved into it: 1 win, 0.5 draw, 0 loss). The move played is the most visited.

`PythonTree` is the readable reference and the one that can trace every phase; a game
may supply a fast tree (a numba kernel) that makes exactly the same decisions from the
same seed. `mcts_search` drives either one under a budget and reports snapshots.
"""
from __future__ import annotations

import math
from typing import Any, Protocol

from ..game import Game, Move, State
from ..rng import SplitMix64
from .control import Budget, SearchControl
from ..values import MEAN
from .events import (Bound, MctsBackedUp, MctsExpanded, MctsRolledOut, MctsSelected,
                     MctsSnapshot, MoveStat, MoveValue, SearchDone)

DEFAULT_EXPLORATION = math.sqrt(2)
SNAPSHOT_INTERVAL = 0.05  # seconds between live snapshots
MAX_ITERATIONS = 10_000_000  # a tree grows a node an iteration: this bounds its memory


class MctsTree(Protocol):
    """A search tree that runs iterations and reports its root."""

    iterations: int

    def run(self, count: int) -> None: ...

    def root_children(self) -> list[tuple[Move, int, float]]:
        """(move, visits, total reward for the root's side to move) per expanded move."""

    def principal_variation(self) -> tuple: ...


def uct_score(wins: float, visits: int, parent_visits: int, exploration: float) -> float:
    return wins / visits + exploration * math.sqrt(math.log(parent_visits) / visits)


class Node:
    __slots__ = ("move", "parent", "mover", "children", "untried", "visits", "wins")

    def __init__(self, move: Move | None, parent: "Node | None", mover: int,
                 untried: list) -> None:
        self.move = move
        self.parent = parent
        self.mover = mover  # the side that played `move`
        self.children: list[Node] = []
        self.untried = untried
        self.visits = 0
        self.wins = 0.0  # results for `mover`


class PythonTree:
    """The reference tree. `playout(state, rng)`, if given, picks each playout move in
    place of the uniformly random one (an agent's own playout policy)."""

    def __init__(self, state: State, seed: int, exploration: float = DEFAULT_EXPLORATION,
                 observer: Any = None, playout: Any = None) -> None:
        self.state = state
        self.rng = SplitMix64(seed)
        self.exploration = exploration
        self.playout = playout
        self.root = Node(None, None, 1 - state.to_move, list(state.moves()))
        self.iterations = 0
        self.trace = observer if observer is not None and observer.trace else None

    def select_child(self, node: Node) -> Node:
        best, best_score = node.children[0], -math.inf
        for child in node.children:
            score = uct_score(child.wins, child.visits, node.visits, self.exploration)
            if score > best_score:
                best, best_score = child, score
        return best

    def run(self, count: int) -> None:
        for _ in range(count):
            self.iterate()

    def iterate(self) -> None:
        index = self.iterations
        node, state, path = self.root, self.state, ()
        while not node.untried and node.children:
            node = self.select_child(node)
            state = state.play(node.move)
            path += (node.move,)
        if self.trace:
            self.trace(MctsSelected(index, path))
        if node.untried:
            move = node.untried.pop(0)
            mover = state.to_move
            state = state.play(move)
            child = Node(move, node, mover, list(state.moves()))
            node.children.append(child)
            node, path = child, path + (move,)
            if self.trace:
                self.trace(MctsExpanded(index, path))
        played = []
        while (outcome := state.outcome()) is None:
            if self.playout is not None:
                move = self.playout(state, self.rng)
            else:
                moves = state.moves()
                move = moves[self.rng.below(len(moves))]
            played.append(move)
            state = state.play(move)
        winner = outcome.winner
        if self.trace:
            self.trace(MctsRolledOut(index, path, tuple(played), winner))
        while node is not None:
            node.visits += 1
            node.wins += 0.5 if winner is None else float(winner == node.mover)
            node = node.parent
        self.iterations += 1
        if self.trace:
            root_side = self.state.to_move
            reward = 0.5 if winner is None else float(winner == root_side)
            self.trace(MctsBackedUp(index, path, reward))

    def root_children(self) -> list[tuple[Move, int, float]]:
        return [(c.move, c.visits, c.wins) for c in self.root.children]

    def principal_variation(self) -> tuple:
        line, node = [], self.root
        while node.children:
            node = max(node.children, key=lambda c: c.visits)
            line.append(node.move)
        return tuple(line)


def root_stats(tree: MctsTree, exploration: float) -> tuple[MoveStat, ...]:
    children = tree.root_children()
    parent_visits = sum(visits for _, visits, _ in children)
    return tuple(
        MoveStat(move, visits, wins / visits if visits else 0.0,
                 uct_score(wins, visits, parent_visits, exploration) if visits else math.inf)
        for move, visits, wins in children
    )


def pool_size(iterations: int) -> int:
    """The nodes a tree needs for `iterations` (one each, and the root)."""
    return min(iterations, MAX_ITERATIONS) + 1


def mcts_search(game: Game, state: State, budget: Budget, seed: int,
                exploration: float = DEFAULT_EXPLORATION, observer: Any = None,
                control: SearchControl | None = None, fast_tree=None,
                playout: Any = None) -> SearchDone:
    """Run iterations until the budget (iterations and/or time) or a cancel stops it.

    `fast_tree(state, seed, exploration[, capacity])` builds a kernel-backed tree (its
    node pool sized for an iteration budget, grown as needed under a time budget); it
    is not used when the observer wants a trace, nor with an own `playout` policy (see
    PythonTree), which the kernel does not know.
    """
    control = control or SearchControl(budget)
    tracing = observer is not None and observer.trace
    if fast_tree is not None and not tracing and playout is None:
        sized = {"capacity": pool_size(budget.iterations)} if budget.iterations else {}
        tree = fast_tree(state, seed, exploration, **sized)
    else:
        tree = PythonTree(state, seed, exploration, observer, playout)
    if budget.iterations is None and budget.time is None:
        raise ValueError("MCTS needs an iteration or a time budget")
    limit = min(budget.iterations or MAX_ITERATIONS, MAX_ITERATIONS)
    batch = 16
    last_snapshot = control.elapsed()
    while tree.iterations < limit:
        if tree.iterations > 0 and control.exhausted():
            break
        count = min(batch, limit - tree.iterations)
        tree.run(count)
        now = control.elapsed()
        if now - last_snapshot < SNAPSHOT_INTERVAL / 4 and batch < 1 << 14:
            batch *= 2  # aim for a few clock readings per snapshot interval
        if observer is not None and now - last_snapshot >= SNAPSHOT_INTERVAL:
            observer(snapshot(tree, exploration, now))
            last_snapshot = now
    elapsed = control.elapsed()
    final = snapshot(tree, exploration, elapsed)
    if observer is not None:
        observer(final)
    best = max(final.stats, key=lambda s: s.visits)
    move_values = tuple(MoveValue(s.move, s.mean, Bound.ESTIMATE, s.visits)
                        for s in final.stats)
    return SearchDone(best.move, best.mean, final.pv, tree.iterations, elapsed,
                      move_values=move_values, scale=MEAN)


def snapshot(tree: MctsTree, exploration: float, elapsed: float) -> MctsSnapshot:
    rate = tree.iterations / elapsed if elapsed > 0 else 0.0
    return MctsSnapshot(tree.iterations, elapsed, rate, root_stats(tree, exploration),
                        tree.principal_variation())
