"""The Cephalopod alpha-beta kernel against the reference rules and search.

Every comparison is exact: the kernel must make the reference's decisions, node for
node, not just good ones. Positions come from seeded random games on every board size.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from plyground.core.search.control import Budget
from plyground.core import parse_game
from plyground.core.fast import cephalopod as kernel
from plyground.core.fast.cephalopod import CephalopodBackend
from plyground.core.fast.table import thread_backend
from plyground.core.search.alphabeta import AlphaBeta, alphabeta_search
from plyground.core.search.control import SearchControl, SearchStopped, StopFlag
from plyground.core.values import INFINITY, WIN

GAMES = [parse_game(spec) for spec in
         ("cephalopod", "cephalopod:rows=3,cols=3", "cephalopod:rows=3,cols=5")]
GAME = GAMES[0]


@pytest.fixture(scope="module", autouse=True)
def compiled():
    kernel.warm_up()


def backend() -> CephalopodBackend:
    return thread_backend(CephalopodBackend)


def random_game(game, rng: random.Random) -> list:
    """Every state of one random game, its end included."""
    states = [game.start()]
    while states[-1].outcome() is None:
        states.append(states[-1].play(rng.choice(states[-1].moves())))
    return states


def positions(seed: int, count: int, game=GAME) -> list:
    """Running positions sampled from random games, at any ply."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        states = [s for s in random_game(game, rng) if s.outcome() is None]
        found.extend(rng.sample(states, min(len(states), 3)))
    return found[:count]


def cells(state) -> np.ndarray:
    return np.array(state.cells, np.int64)


def neighbours(state) -> np.ndarray:
    return np.array(state.game.neighbours, np.int64)


def test_the_random_games_have_captures_of_every_size():
    rng = random.Random(1)
    sizes = set()
    for _ in range(30):
        states = random_game(GAME, rng)
        sizes |= {len(m.captures) for s in states[:-1] for m in s.moves()}
    assert sizes == {0, 2, 3, 4}


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.spec)
def test_play_undo_end_and_evaluate_equal_the_rules(game):
    rng = random.Random(2)
    for _ in range(20):
        states = random_game(game, rng)
        for state in states:
            board = cells(state)
            over, value = kernel.end_value(board, state.to_move, state.ply)
            outcome = state.outcome()
            assert over == (outcome is not None)
            if outcome is None:
                assert kernel.evaluate(board, neighbours(state), state.to_move) == \
                    game.evaluate(state)
                continue
            assert value == (WIN - state.ply if outcome.winner == state.to_move
                             else -(WIN - state.ply))
        for state, after in zip(states, states[1:]):
            move = next(m for m in state.moves() if state.play(m) == after)
            code = move.cell * 16 + sum(1 << game.neighbours[move.cell].index(n)
                                        for n in move.captures)
            board = cells(state)
            saved = kernel.play(board, neighbours(state), code, state.to_move)
            assert tuple(board) == after.cells
            kernel.undo(board, neighbours(state), code, saved)
            assert tuple(board) == state.cells


def test_the_table_key_is_exact():
    """Different positions never share (key, check); the same one always does."""
    seen: dict = {}
    for game in GAMES:
        for state in positions(3, 400, game):
            for after in [state] + [state.play(m) for m in state.moves()]:
                key = tuple(int(x) for x in kernel.table_key(cells(after), after.to_move))
                assert key[0] < 1 << kernel.KEY_BITS
                assert seen.setdefault(key, (game.spec, after.key())) == \
                    (game.spec, after.key())
    assert len(seen) > 10_000


def windows(rng: random.Random):
    """Search windows of every kind: full, null, narrow, and around decisive values."""
    low = rng.randrange(-300, 300)
    return rng.choice([
        (-INFINITY, INFINITY), (low, low + 1), (low, low + rng.randrange(2, 200)),
        (-INFINITY, low), (low, INFINITY), (WIN - 400, INFINITY), (-INFINITY, -(WIN - 400)),
    ])


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.spec)
def test_kernel_negamax_equals_python_negamax_node_for_node(game):
    """The same value and the same node count, for any node, depth and window."""
    rng = random.Random(7)
    fast = backend()
    for state in positions(7, 120, game):
        depth = rng.randrange(1, 4)
        alpha, beta = windows(rng)
        reference = AlphaBeta(game, SearchControl(Budget()))
        value = reference.negamax(state, depth, alpha, beta, path=(0, 0))  # below the root
        fast.reset()
        assert fast.negamax(state, depth, alpha, beta, SearchControl(Budget()), 0) == \
            (value, reference.nodes), (game.format_position(state), depth, alpha, beta)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_search_values_equal_the_python_search(depth):
    """Alpha-beta through the backend against plain alpha-beta: the same value, the
    same decisions and the same work."""
    for state in positions(10 + depth, 12 if depth <= 3 else 4):
        plain = alphabeta_search(GAME, state, Budget(depth=depth))
        through = alphabeta_search(GAME, state, Budget(depth=depth), backend=backend())
        assert (through.value, through.best_move, through.pv, through.move_values,
                through.work) == (plain.value, plain.best_move, plain.pv,
                                  plain.move_values, plain.work), \
            (GAME.format_position(state), depth)


def test_a_node_budget_stops_the_search_where_python_stops():
    budget = Budget(nodes=4000)
    for state in positions(21, 4):
        plain = alphabeta_search(GAME, state, budget)
        fast = alphabeta_search(GAME, state, budget, backend=backend())
        assert fast.work <= budget.nodes
        assert (fast.best_move, fast.value, fast.pv, fast.depth, fast.note) == \
            (plain.best_move, plain.value, plain.pv, plain.depth, plain.note)


def test_the_kernel_stops_at_its_node_limit_and_at_the_flag():
    state = positions(22, 1)[0]
    fast = backend()

    def run(stop, limit):
        fast.reset()
        return kernel.search(cells(state), neighbours(state), state.to_move, state.ply,
                             30, -INFINITY, INFINITY, fast.keys, fast.checks, fast.values,
                             fast.depths, fast.flags, fast.moves, fast.stamp, stop,
                             limit)[1:]

    assert run(np.zeros(1, np.int64), 12_345) == (12_345, True)
    assert run(np.ones(1, np.int64), 10**9) == (1024, True)
    stop = StopFlag()
    stop.set()
    with pytest.raises(SearchStopped):
        fast.negamax(state, 30, -INFINITY, INFINITY, SearchControl(Budget(), stop), 0)


def test_best_move_reads_the_table_and_reset_forgets_it():
    state = positions(23, 1)[0]
    fast = backend()
    done = alphabeta_search(GAME, state, Budget(depth=5), backend=fast)
    deeper = state.play(done.pv[0]).play(done.pv[1])
    assert fast.best_move(deeper) in deeper.moves()
    fast.reset()
    assert fast.best_move(deeper) is None
