"""Trap-setting (search/traps.py): in a position proven drawn, Alpha-Beta plays the
drawing move that leaves the opponent the smallest share of replies that hold the draw,
among the replies that do not lose at once.

Every expected value here comes from brute force over the rules (plain negamax, no
pruning, no table), not from the search under test.
"""
from __future__ import annotations

from functools import lru_cache

import pytest

from plyground.core.search.control import Budget
from plyground.core import get_game
from plyground.core.catalogue import make_agent
from plyground.core.fast import warm_up
from plyground.core.values import terminal_value
from tests.core.positions import quarto_endgames

GAME = get_game("quarto")
C4 = get_game("connect4")


@pytest.fixture(scope="module", autouse=True)
def compiled():
    warm_up("quarto")


@lru_cache(maxsize=None)
def exact(state) -> int:
    """The game's value for the side to move: -1, 0 or 1."""
    outcome = state.outcome()
    if outcome is not None:
        value = terminal_value(outcome, state.ply, state.to_move)
        return (value > 0) - (value < 0)
    return max(-exact(state.play(move)) for move in state.moves())


def wins_at_once(state, side) -> bool:
    """Whether the game is over with `side` the winner, or `side` is to move and has a
    move that makes it so."""
    def won(position):
        outcome = position.outcome()
        return outcome is not None and outcome.winner == side
    return won(state) or (state.outcome() is None and state.to_move == side and
                          any(won(state.play(move)) for move in state.moves()))


def holding_share(state, move) -> float:
    """Of the opponent's replies to `move` that do not lose at once, the share that
    keep the draw."""
    child = state.play(move)
    replies = [child.play(reply) for reply in child.moves()]
    subtle = [after for after in replies if not wins_at_once(after, state.to_move)]
    return sum(exact(after) == 0 for after in subtle) / len(subtle)


@lru_cache(maxsize=None)
def drawn_positions(empty: int, count: int, seed: int) -> list:
    """Drawn positions where the drawing moves set traps of different sizes."""
    found = []
    for state in quarto_endgames(seed, GAME, empty, 60):
        if exact(state) != 0:
            continue
        draws = [m for m in state.moves() if -exact(state.play(m)) == 0]
        if len({holding_share(state, m) for m in draws}) > 1:
            found.append((state, draws))
        if len(found) == count:
            break
    assert len(found) == count, "the seeds give too few drawn positions with a choice"
    return found


@pytest.mark.parametrize("empty, count", [(5, 4), (6, 2)])
def test_a_proven_draw_is_played_for_the_smallest_share_of_holding_replies(empty, count):
    for state, draws in drawn_positions(empty, count, seed=empty):
        done = make_agent("alphabeta").decide(state, Budget(depth=30))
        assert done.best_move in draws
        fewest = min(holding_share(state, move) for move in draws)
        assert holding_share(state, done.best_move) == fewest
        assert done.value == 0
        chosen = [mv for mv in done.move_values if mv.move == done.best_move]
        assert chosen and chosen[0].value == 0 and chosen[0].bound == "exact"
        assert done.note.startswith("a trap: ") and "replies hold the draw" in done.note


def test_a_trap_cut_short_by_the_budget_still_draws_and_replays_the_same():
    state, draws = drawn_positions(5, 4, seed=5)[0]
    whole = make_agent("alphabeta").decide(state, Budget(depth=30))
    solved = make_agent("alphabeta").decide(state, Budget(depth=30, nodes=whole.work))
    assert solved.best_move == whole.best_move
    for nodes in range(whole.work // 5, whole.work, whole.work // 5):
        first = make_agent("alphabeta").decide(state, Budget(nodes=nodes))
        again = make_agent("alphabeta").decide(state, Budget(nodes=nodes))
        assert first.best_move == again.best_move
        if first.value == 0 and not first.note.startswith("stopped"):
            assert first.best_move in draws


def test_analysis_leaves_the_move_order_alone():
    state, _ = drawn_positions(5, 4, seed=5)[0]
    done = make_agent("alphabeta").decide(state, Budget(depth=30), exact_root=True)
    assert "hold the draw" not in done.note


def test_connect4_sets_the_same_trap_traced_as_untraced():
    """Connect 4's kernel is the Python search, so a traced search (all in Python) must
    choose the trap the kernel's did."""
    state = C4.parse_position("56727764266345152361721117")  # a draw, 16 cells left
    plain = make_agent("alphabeta").decide(state, Budget(depth=40))

    class Trace:
        trace = True

        def __call__(self, event):
            pass

    traced = make_agent("alphabeta").decide(state, Budget(depth=40), observer=Trace())
    assert plain.value == traced.value
    assert plain.best_move == traced.best_move
    assert plain.note == traced.note


def test_a_draw_with_nothing_to_trap_says_nothing_of_a_trap():
    """With one or two squares left every drawing move's replies hold (or none are
    left), so no move sets a trap and the note must not claim one."""
    checked = 0
    for empty in (1, 2):
        for state in quarto_endgames(empty, GAME, empty, 20):
            if exact(state) != 0:
                continue
            shares = {holding_share(state, move) for move in state.moves()
                      if -exact(state.play(move)) == 0 and state.play(move).moves()
                      and any(not wins_at_once(state.play(move).play(reply), state.to_move)
                              for reply in state.play(move).moves())}
            done = make_agent("alphabeta").decide(state, Budget(depth=30))
            assert done.value == 0
            if shares <= {1.0}:
                assert "trap" not in done.note
                checked += 1
    assert checked > 5
