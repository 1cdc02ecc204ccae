"""Trap-setting: when a tree search has seen every line to the end and the game is a
draw, the root's drawing moves are all equal to it; this picks the one that leaves the
opponent the smallest share of replies that still hold the draw, so that an opponent
who errs (a sampler, a shallow search, a person) most likely errs into a loss. A reply
that loses at once (the trapper wins with its next move) is left out of the count:
any opponent that looks one move ahead avoids it, so it sets no trap.

Each drawing root move's replies are searched to the end with the window (-1, 1):
above it the reply loses for the opponent, below it the root move was a loss after
all (an upper bound of 0 only said "at most a draw"), and at 0 the reply holds. The
phase runs under the search's own budget and counts its nodes; if the budget ends it,
the best move fully measured so far stands (the search's own move to begin with), so
a replay under the same node count makes the same choice. Live views see nothing of
it: they keep the last iteration's tree, and the decision's note says why the move
was chosen.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..game import Move, State
from ..values import WIN, Bound, terminal_value
from .control import SearchStopped
from .events import SearchDone


@dataclass(frozen=True, slots=True)
class Trap:
    move: Move
    holding: int  # the opponent's replies that keep the draw
    replies: int  # its replies that do not lose at once
    obvious: int  # its replies that lose at once

    @property
    def share(self) -> float:
        return self.holding / self.replies if self.replies else 1.0


def drawing_candidates(done: SearchDone) -> list[Move]:
    """The root moves that may draw: the decision first, then the others whose value is
    0, exactly or as an upper bound."""
    others = [mv.move for mv in done.move_values if mv.value == 0 and
              mv.bound in (Bound.EXACT, Bound.UPPER) and mv.move != done.best_move]
    return [done.best_move, *others]


def loses_at_once(search, state: State, side: int, path: tuple) -> bool:
    """Whether `side`, to move in `state`, wins with its next move: a search one ply
    deep with a null window just below a win in one."""
    if state.to_move != side:
        return False
    threshold = WIN - (state.ply + 2)  # a win in one scores WIN - (ply + 1)
    return search.negamax(state, 1, threshold, threshold + 1, path) > threshold


def measure(search, state: State, move: Move, cap: float) -> Trap | None:
    """The trap that `move` sets, or None if it loses, or if its share of holding
    replies reaches `cap` (it cannot beat the best so far)."""
    side = state.to_move
    child = state.play(move)
    replies = child.moves()
    holding = obvious = 0
    for reply in search.game.order_moves(child, replies):
        grandchild = child.play(reply)
        outcome = grandchild.outcome()
        if outcome is not None:
            value = terminal_value(outcome, grandchild.ply, grandchild.to_move)
        else:
            depth = search.game.plies_left_at_most(grandchild)
            value = search.negamax(grandchild, depth, -1, 1, (move, reply))
        if grandchild.to_move != side:
            value = -value
        if value < 0:
            return None
        if value == 0:
            holding += 1
        elif outcome is not None or loses_at_once(search, grandchild, side, (move, reply)):
            obvious += 1
        left = len(replies) - obvious
        if left and holding / left >= cap:
            return None  # even if every reply still to come is a subtle loss
    return Trap(move, holding, len(replies) - obvious, obvious)


def set_trap(search, state: State, done: SearchDone) -> SearchDone:
    """`done` (a search that proved the root a draw) with its move replaced by the
    drawing move whose replies most often lose, as far as the budget allows."""
    observer, tracing = search.observer, search.tracing
    search.observer, search.tracing = None, False
    best: Trap | None = None
    try:
        for move in drawing_candidates(done):
            trap = measure(search, state, move, best.share if best else 1.01)
            if trap is not None and (best is None or trap.share < best.share):
                best = trap
    except SearchStopped:
        pass
    finally:
        search.observer, search.tracing = observer, tracing
    elapsed = search.control.elapsed()
    if best is None:
        return replace(done, work=search.nodes, elapsed=elapsed)
    values = tuple(replace(mv, bound=Bound.EXACT) if mv.move == best.move else mv
                   for mv in done.move_values)
    pv = search.principal_variation(state, best.move, done.depth or 1)
    note = done.note
    if best.holding < best.replies:  # else every reply that does not lose at once holds
        note = f"a trap: {best.holding} of {best.replies} replies hold the draw"
        if best.obvious:
            note += f" ({best.obvious} more lose at once)"
    return replace(done, best_move=best.move, pv=pv, move_values=values,
                   work=search.nodes, elapsed=elapsed, note=note)
