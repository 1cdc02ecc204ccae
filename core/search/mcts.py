"""Monte Carlo tree search: UCT, plain or with a solver.

Each iteration has four phases: selection (follow the highest UCT score while a node
has no untried move), expansion (add the first untried move), a playout to the end, and
backup (each node on the path counts a visit and the result for the side that moved
into it: 1 win, 0.5 draw, 0 loss). Plain UCT (the course's) plays uniformly random
playouts and plays the most visited move.

The solver variant (MCTS-Solver) also proves nodes: a node whose game is over is proven
(won, drawn or lost for the side that moved into it), and so is a node with a child
proven won for the side to move there, or whose children are all proven. A proven node
is not searched below: reaching it backs up its proven result with no playout. Its
playouts are decisive: a move that wins at once is played, else a random move among
those that leave the opponent no win at once (any move if none does). The move played
is the fastest proven win, else the most visited move not proven lost, else the
slowest loss; a proven root ends the search.

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
from ..values import WIN, Bound, Scale, Score
from .events import (MctsBackedUp, MctsExpanded, MctsRolledOut, MctsSelected, MctsSnapshot,
                     MoveStat, MoveValue, SearchDone)

DEFAULT_EXPLORATION = math.sqrt(2)
SNAPSHOT_INTERVAL = 0.05  # seconds between live snapshots
MAX_ITERATIONS = 10_000_000  # a tree grows a node an iteration: this bounds its memory


class MctsTree(Protocol):
    """A search tree that runs iterations and reports its root."""

    iterations: int

    def run(self, count: int) -> None: ...

    def root_children(self) -> list[tuple[Move, int, float, tuple | None]]:
        """(move, visits, total reward for the root's side to move, proof) per expanded
        move; the proof, if any, is (result for the root's side to move: 1, 0.5 or 0;
        plies from the root to the end)."""

    def principal_variation(self) -> tuple: ...

    @property
    def solved(self) -> bool:
        """Whether the root is proven (nothing more to search)."""

    @property
    def root_proof(self) -> tuple | None:
        """(result for the root's side to move, plies to the end) once proven."""


def uct_score(wins: float, visits: int, parent_visits: int, exploration: float) -> float:
    return wins / visits + exploration * math.sqrt(math.log(parent_visits) / visits)


class Node:
    __slots__ = ("move", "parent", "mover", "children", "untried", "visits", "wins",
                 "proof")

    def __init__(self, move: Move | None, parent: "Node | None", mover: int,
                 untried: list) -> None:
        self.move = move
        self.parent = parent
        self.mover = mover  # the side that played `move`
        self.children: list[Node] = []
        self.untried = untried
        self.visits = 0
        self.wins = 0.0  # results for `mover`
        self.proof: tuple[float, int] | None = None  # (result for `mover`, plies left)


def proof_of(node: Node) -> tuple[float, int] | None:
    """What `node`'s children prove of it, for the side that moved into it: lost if a
    move from it wins (in the fewest plies known), else, once every move is expanded
    and proven, drawn if one draws, else won (in the most plies)."""
    ends = [c.proof for c in node.children]
    wins = [plies for result, plies in filter(None, ends) if result == 1.0]
    if wins:
        return 0.0, 1 + min(wins)
    if node.untried or None in ends:
        return None
    draws = [plies for result, plies in ends if result == 0.5]
    if draws:
        return 0.5, 1 + min(draws)
    return 1.0, 1 + max(plies for _, plies in ends)


def decisive_move(state: State, rng: SplitMix64) -> Move:
    """The solver variant's playout move: the first move that wins at once, else a
    random one of the moves that leave the opponent no win at once (in the rules'
    order), else a random move."""
    game = state.game
    win = game.winning_move(state)
    if win is not None:
        return win
    moves = state.moves()
    safe = game.safe_moves(state)
    pool = safe or moves
    return pool[rng.below(len(pool))]


class PythonTree:
    """The reference tree, plain or with the solver. `playout(state, rng)`, if given,
    picks each playout move in place of the uniformly random one (an agent's own
    playout policy; the solver's is `decisive_move`)."""

    def __init__(self, state: State, seed: int, exploration: float = DEFAULT_EXPLORATION,
                 observer: Any = None, playout: Any = None, solver: bool = False) -> None:
        self.state = state
        self.rng = SplitMix64(seed)
        self.exploration = exploration
        self.solver = solver
        self.playout = decisive_move if solver and playout is None else playout
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

    @property
    def solved(self) -> bool:
        return self.root.proof is not None

    @property
    def root_proof(self) -> tuple | None:
        """The root's proof for its side to move (proofs are kept for the mover)."""
        proof = self.root.proof
        return None if proof is None else (1.0 - proof[0], proof[1])

    def run(self, count: int) -> None:
        for _ in range(count):
            if self.solved:
                return
            self.iterate()

    def iterate(self) -> None:
        index = self.iterations
        node, state, path = self.root, self.state, ()
        while node.proof is None and not node.untried and node.children:
            node = self.select_child(node)
            state = state.play(node.move)
            path += (node.move,)
        if self.trace:
            self.trace(MctsSelected(index, path))
        if node.proof is None and node.untried:
            move = node.untried.pop(0)
            mover = state.to_move
            state = state.play(move)
            child = Node(move, node, mover, list(state.moves()))
            outcome = state.outcome()
            if self.solver and outcome is not None:
                child.proof = (0.5 if outcome.winner is None
                               else float(outcome.winner == mover)), 0
            node.children.append(child)
            node, path = child, path + (move,)
            if self.trace:
                self.trace(MctsExpanded(index, path))
        played = []
        if node.proof is not None:  # proven: its result, no playout
            result = node.proof[0]
            winner = None if result == 0.5 else \
                node.mover if result == 1.0 else 1 - node.mover
        else:
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
        leaf = node
        while node is not None:
            node.visits += 1
            node.wins += 0.5 if winner is None else float(winner == node.mover)
            node = node.parent
        if leaf.proof is not None:
            self.prove_up(leaf.parent)
        self.iterations += 1
        if self.trace:
            root_side = self.state.to_move
            reward = 0.5 if winner is None else float(winner == root_side)
            self.trace(MctsBackedUp(index, path, reward))

    def prove_up(self, node: Node | None) -> None:
        """Prove what the children now prove, from `node` towards the root."""
        while node is not None and node.proof is None:
            node.proof = proof_of(node)
            if node.proof is None:
                return
            node = node.parent

    def root_children(self) -> list[tuple[Move, int, float, tuple | None]]:
        return [(c.move, c.visits, c.wins,
                 None if c.proof is None else (c.proof[0], c.proof[1] + 1))
                for c in self.root.children]

    def principal_variation(self) -> tuple:
        return chosen_line(lambda node: [(c.move, c.visits, c.proof, c)
                                         for c in node.children], self.root)


def proven_score(proof: tuple | None, ply: int) -> int | None:
    """A proof (result for the side to move at `ply`: 1, 0.5 or 0; plies to the end)
    as a values.py score: `win in N` and `loss in N` as a tree search says them."""
    if proof is None:
        return None
    result, plies = proof
    return 0 if result == 0.5 else (WIN - ply - plies) * (1 if result == 1.0 else -1)


def describe_proven(score: int, ply: int) -> str:
    """`win in 1`, `loss in ≤3` or `draw`, for a proven score at `ply`. A proof's length
    is that of the line it proved: the side that wins needs at most that many moves
    (a shorter win may be among the moves not yet proven), so "≤" beyond one move."""
    if score == 0:
        return "draw"
    text = str(Score(score, ply))
    return text if text.endswith(" 1") else text.replace(" in ", " in ≤")


def root_stats(tree: MctsTree, exploration: float, ply: int) -> tuple[MoveStat, ...]:
    children = tree.root_children()
    parent_visits = sum(visits for _, visits, _, _ in children)
    return tuple(
        MoveStat(move, visits, wins / visits if visits else 0.0,
                 uct_score(wins, visits, parent_visits, exploration) if visits else math.inf,
                 proven_score(proof, ply))
        for move, visits, wins, proof in children
    )


def choice_rank(visits: int, score: int | None) -> tuple:
    """How MCTS ranks a move (the highest is played, the first in the rules' order
    among equals): a proven win, the fastest first; then a move not proven lost (a
    proven draw among them), the most visited first; last a proven loss, the slowest
    first. `score` is the move's proven value as a values.py score, or None. Plain
    UCT proves nothing: its most visited move."""
    if score is None or score == 0:
        return 1, visits
    return (2 if score > 0 else 0), score


def chosen(stats) -> MoveStat:
    """The move MCTS plays, of the root's statistics (choice_rank)."""
    return max(stats, key=lambda s: choice_rank(s.visits, s.proven))


def chosen_line(children, first) -> tuple:
    """The principal variation: from the root, the child choice_rank picks at each
    node. `children(node)` lists (move, visits, proof for the side choosing, its
    node); `first` is the root."""
    line, node = [], first
    while entries := children(node):
        move, _, _, node = max(entries, key=lambda e: choice_rank(
            e[1], proven_score(e[2], 0)))
        line.append(move)
    return tuple(line)


def pool_size(iterations: int) -> int:
    """The nodes a tree needs for `iterations` (one each, and the root)."""
    return min(iterations, MAX_ITERATIONS) + 1


def mcts_search(game: Game, state: State, budget: Budget, seed: int,
                exploration: float = DEFAULT_EXPLORATION, observer: Any = None,
                control: SearchControl | None = None, fast_tree=None,
                playout: Any = None, solver: bool = False) -> SearchDone:
    """Run iterations until the budget (iterations and/or time), a cancel or, with the
    solver, a proven root stops it.

    `fast_tree(state, seed, exploration[, capacity=nodes][, solver=True])` builds a
    kernel-backed tree (its node pool sized for an iteration budget, grown as needed
    under a time budget); it is not used when the observer wants a trace, nor with an
    own `playout` policy (see PythonTree), which the kernel does not know.
    """
    control = control or SearchControl(budget)
    tracing = observer is not None and observer.trace
    if fast_tree is not None and not tracing and playout is None:
        sized = {"capacity": pool_size(budget.iterations)} if budget.iterations else {}
        variant = {"solver": True} if solver else {}
        tree = fast_tree(state, seed, exploration, **sized, **variant)
    else:
        tree = PythonTree(state, seed, exploration, observer, playout, solver)
    if budget.iterations is None and budget.time is None:
        raise ValueError("MCTS needs an iteration or a time budget")
    limit = min(budget.iterations or MAX_ITERATIONS, MAX_ITERATIONS)
    batch = 16
    last_snapshot = control.elapsed()
    while tree.iterations < limit and not tree.solved:
        if tree.iterations > 0 and control.exhausted():
            break
        count = min(batch, limit - tree.iterations)
        tree.run(count)
        now = control.elapsed()
        if now - last_snapshot < SNAPSHOT_INTERVAL / 4 and batch < 1 << 14:
            batch *= 2  # aim for a few clock readings per snapshot interval
        if observer is not None and now - last_snapshot >= SNAPSHOT_INTERVAL:
            observer(snapshot(tree, exploration, now, state.ply))
            last_snapshot = now
    elapsed = control.elapsed()
    final = snapshot(tree, exploration, elapsed, state.ply)
    if observer is not None:
        observer(final)
    best = chosen(final.stats)
    move_values = tuple(move_value(s) for s in final.stats)
    note = "" if final.proven is None else \
        f"proven: {describe_proven(final.proven, state.ply)}"
    return SearchDone(best.move, move_value(best).value, final.pv, tree.iterations,
                      elapsed, move_values=move_values, note=note, scale=Scale.MEAN)


def move_value(stat: MoveStat) -> MoveValue:
    """A root move's value on the mean scale: its mean result, or for a proven move
    the result it is proven to have (1, 0.5 or 0), exactly."""
    if stat.proven is None:
        return MoveValue(stat.move, stat.mean, Bound.ESTIMATE, stat.visits)
    result = 0.5 if stat.proven == 0 else float(stat.proven > 0)
    return MoveValue(stat.move, result, Bound.EXACT, stat.visits)


def snapshot(tree: MctsTree, exploration: float, elapsed: float,
             ply: int) -> MctsSnapshot:
    rate = tree.iterations / elapsed if elapsed > 0 else 0.0
    return MctsSnapshot(tree.iterations, elapsed, rate, root_stats(tree, exploration, ply),
                        tree.principal_variation(), proven_score(tree.root_proof, ply))
