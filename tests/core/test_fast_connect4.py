"""The Connect 4 kernels against the reference rules and searches they replace.

Every comparison is exact: the kernels must make the reference's decisions, not just
good ones. Positions come from seeded random play.
"""
from __future__ import annotations

import random
import subprocess
import sys
import threading

import numpy as np
import pytest

from plyground.core.search.control import Budget
from plyground.core import get_game
from plyground.core.fast import connect4 as kernel
from plyground.core.fast.table import GENERATIONS
from plyground.core.fast import mcts_tree_factory, tree_backend, warm_up
from plyground.core.fast.connect4_mcts import Connect4Tree
from plyground.core.search.alphabeta import AlphaBeta, alphabeta_search
from plyground.core.search.control import SearchControl, SearchStopped, StopFlag, TickClock
from plyground.core.search.mcts import PythonTree, mcts_search
from plyground.core.search.minimax import minimax_search
from plyground.core.values import INFINITY, WIN, terminal_value
from tests.core.positions import (assert_kernel_search_is_the_reference,
                                  assert_same_decisions, random_games, random_position)
from tests.core.test_search import solver_value
from tests.reference import read_scored_positions

GAME = get_game("connect4")


@pytest.fixture(scope="module", autouse=True)
def compiled():
    warm_up("connect4")


def positions(seed: int, count: int, max_plies: int = 36):
    rng = random.Random(seed)
    return [random_position(rng, rng.randrange(0, max_plies)) for _ in range(count)]


def test_heuristic_equals_evaluate():
    """On running games and on finished ones (where a side holds four)."""
    states = positions(1, 2000) + list(random_games(GAME, 5, 60))
    assert sum(bool(s.winning_moves()) for s in states) > 300  # the WIN - (ply+1) rule
    for state in states:
        assert kernel.evaluate(*kernel.bitboards(state)) == GAME.evaluate(state), \
            GAME.format_position(state)


def test_end_detection_equals_the_rules():
    ends = {"win": 0, "draw": 0}
    for state in random_games(GAME, 2, 400):
        outcome = state.outcome()
        over, value = kernel.end_value(*kernel.bitboards(state))
        assert over == (outcome is not None), GAME.format_position(state)
        if outcome is not None:
            assert value == terminal_value(outcome, state.ply, state.to_move)
            ends["draw" if outcome.winner is None else "win"] += 1
    assert ends["win"] > 0 and ends["draw"] > 0


def windows(rng: random.Random):
    """Search windows of every kind: full, null, narrow, and around decisive values."""
    low = rng.randrange(-300, 300)
    return rng.choice([
        (-INFINITY, INFINITY), (low, low + 1), (low, low + rng.randrange(2, 200)),
        (-INFINITY, low), (low, INFINITY), (WIN - 40, INFINITY), (-INFINITY, -(WIN - 40)),
    ])


def test_kernel_negamax_equals_python_negamax_node_for_node():
    """The same value and the same node count, for any node, depth and window."""
    rng = random.Random(3)
    backend = tree_backend(GAME)
    for state in positions(3, 250):
        depth = rng.randrange(1, 6)
        alpha, beta = windows(rng)
        reference = AlphaBeta(GAME, SearchControl(Budget()))
        value = reference.negamax(state, depth, alpha, beta, path=(0, 0))  # below the root
        backend.reset()
        assert backend.negamax(state, depth, alpha, beta, SearchControl(Budget()), 0) == \
            (value, reference.nodes), (GAME.format_position(state), depth, alpha, beta)


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5, 6])
def test_alphabeta_with_the_kernel_equals_alphabeta_without(depth):
    count = 20 if depth <= 4 else 10
    for state in positions(10 + depth, count, max_plies=30):
        plain = alphabeta_search(GAME, state, Budget(depth=depth))
        fast = alphabeta_search(GAME, state, Budget(depth=depth),
                                backend=tree_backend(GAME))
        assert (fast.value, fast.best_move, fast.pv, fast.move_values, fast.work) == \
            (plain.value, plain.best_move, plain.pv, plain.move_values, plain.work), \
            GAME.format_position(state)
        if depth <= 4:
            assert fast.value == minimax_search(GAME, state, Budget(depth=fast.depth)).value


def test_endgame_solves_equal_the_python_ones_and_the_published_scores():
    rows = read_scored_positions("connect4/Test_L3_R1")
    for index, (moves, score) in enumerate(rows):
        state = GAME.parse_position(moves)
        budget = Budget(depth=42 - state.ply)
        fast = alphabeta_search(GAME, state, budget, backend=tree_backend(GAME))
        assert fast.value == solver_value(score, state), moves
        if index < 40:
            plain = alphabeta_search(GAME, state, budget)
            assert (fast.best_move, fast.pv, fast.work) == \
                (plain.best_move, plain.pv, plain.work), moves


def test_a_node_budget_stops_the_search_where_python_stops():
    """Both count the same nodes, so both stop at the same one with the same best."""
    for budget in (Budget(nodes=5000), Budget(nodes=20_000), Budget(nodes=3000, depth=9)):
        for state in positions(4, 5, max_plies=16):
            plain = alphabeta_search(GAME, state, budget)
            fast = alphabeta_search(GAME, state, budget, backend=tree_backend(GAME))
            assert fast.work <= budget.nodes
            assert (fast.best_move, fast.value, fast.pv, fast.depth, fast.note) == \
                (plain.best_move, plain.value, plain.pv, plain.depth, plain.note)


def test_a_time_budget_becomes_a_node_limit_measured_on_the_search_clock():
    """With a fake clock the kernel's speed is measured in fake seconds, so a timed
    search stops, and always at the same node."""
    def timed_search():
        budget = Budget(time=0.2)
        control = SearchControl(budget, clock=TickClock(0.001))
        return alphabeta_search(GAME, GAME.start(), budget, control=control,
                                backend=tree_backend(GAME))

    first, again = timed_search(), timed_search()
    assert first.note.startswith("stopped") and first.best_move in GAME.start().moves()
    assert first.work < 50_000  # Python alone reads the clock only every 1024 nodes
    assert (first.work, first.depth, first.best_move) == \
        (again.work, again.depth, again.best_move)


def kernel_search(state, stop: np.ndarray, limit: int):
    """(value, nodes, stopped) of a full-depth kernel search on a fresh table."""
    backend = tree_backend(GAME)
    backend.reset()
    return kernel.search(*kernel.bitboards(state), 42 - state.ply, -INFINITY, INFINITY,
                         backend.keys, backend.values, backend.depths, backend.flags,
                         backend.moves, backend.stamp, stop, limit)


def test_the_kernel_stops_exactly_at_its_node_limit_and_at_the_flag():
    state = GAME.parse_position("4453")
    clear, raised = np.zeros(1, np.int64), np.ones(1, np.int64)
    assert kernel_search(state, clear, 12_345)[1:] == (12_345, True)
    assert kernel_search(state, raised, 10**9)[1:] == (1024, True)  # read every 1024


def test_the_stop_flag_set_from_another_thread_stops_a_long_kernel_search():
    """A full solve from the start takes far more than `limit` nodes: only the flag,
    read while the kernel runs without the GIL, can stop it before the limit."""
    stop, limit = StopFlag(), 10**8
    timer = threading.Timer(0.05, stop.set)
    timer.start()
    _, nodes, stopped = kernel_search(GAME.start(), stop.array(), limit)
    timer.join()
    assert stopped and nodes < limit


def test_the_backend_raises_search_stopped_when_cancelled():
    stop = StopFlag()
    stop.set()
    control = SearchControl(Budget(), stop)
    with pytest.raises(SearchStopped):
        tree_backend(GAME).negamax(GAME.start(), 20, -INFINITY, INFINITY, control, 0)


def test_reset_forgets_the_table_even_when_the_generations_wrap():
    backend = tree_backend(GAME)
    state = GAME.parse_position("4453")
    deeper = state.play(3).play(3)
    alphabeta_search(GAME, state, Budget(depth=5), backend=backend)
    assert backend.best_move(deeper) is not None
    backend.reset()
    assert backend.best_move(deeper) is None
    alphabeta_search(GAME, state, Budget(depth=5), backend=backend)
    backend.generation = GENERATIONS - 1
    backend.reset()
    assert backend.generation == 1 and not backend.keys.any()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_mcts_kernel_makes_the_reference_decisions(seed):
    """Across several runs and, with a tiny start, several array growths."""
    for state in positions(20 + seed, 3, max_plies=30):
        reference = PythonTree(state, seed, exploration=1.1 * seed)
        fast = Connect4Tree(state, seed, exploration=1.1 * seed, capacity=4)
        assert_same_decisions(reference, fast, (1, 2, 37, 400, 1000))
        assert len(fast.visits) > 4


def test_mcts_search_with_the_kernel_equals_mcts_search_without():
    for state in positions(30, 4):
        assert_kernel_search_is_the_reference(GAME, state, 1500, seed=7)


def test_the_mcts_kernel_on_a_finished_game_backs_up_its_end():
    state = GAME.parse_position("121212")
    state = state.play(0)  # X connects four
    tree, reference = Connect4Tree(state, 1), PythonTree(state, 1)
    tree.run(10)
    reference.run(10)
    assert tree.root_children() == [] and tree.principal_variation() == ()
    assert (tree.visits[0], tree.wins[0]) == (reference.root.visits, reference.root.wins)
    assert reference.root.wins == 10.0  # won by the side that moved last


def test_a_game_declaring_no_kernels_has_none_and_the_core_does_not_load_numba():
    from plyground.core.game import GameEntry

    class Other:
        id = "other"
        entry = GameEntry("other", "Other", lambda: None)

    assert tree_backend(Other()) is None and mcts_tree_factory(Other()) is None
    code = ("import sys, plyground.core\n"
            "from plyground.core.game import register_game\n"
            "from plyground.core.fast import warm_up\n"
            "register_game('other', 'Other', lambda: None)\n"
            "warm_up('other')\n"
            "assert 'numba' not in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_an_iteration_budget_sizes_the_mcts_pool_and_running_out_of_memory_is_said(
        monkeypatch):
    """With an iteration count the tree's arrays are made once, at their size (no copy
    as it grows); under a clock they grow, and a pool the machine cannot hold stops the
    search with a message, not a MemoryError."""
    from plyground.core.fast import mcts_tree
    from plyground.core.errors import PlygroundError

    made, grow = [], mcts_tree.KernelTree.grow

    def growing(tree, capacity):
        made.append(capacity)
        grow(tree, capacity)

    monkeypatch.setattr(mcts_tree.KernelTree, "grow", growing)
    mcts_search(GAME, GAME.start(), Budget(iterations=200_000), seed=1,
                fast_tree=mcts_tree_factory(GAME))
    assert made == []
    monkeypatch.undo()

    def no_memory(*args, **kwargs):
        raise MemoryError

    tree = Connect4Tree(GAME.start(), 1, capacity=4)
    monkeypatch.setattr(mcts_tree.np, "zeros", no_memory)
    with pytest.raises(PlygroundError, match="MCTS ran out of memory"):
        tree.run(100)
