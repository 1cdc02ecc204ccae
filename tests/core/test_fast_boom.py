"""The Desconecta-4 BOOM alpha-beta kernel against the reference rules and search.

Every comparison is exact: the kernel must make the reference's decisions, not just
good ones. Positions come from seeded random games in which each side avoids a move
that loses at once whenever it can, so games run long and have bombs and BOOMs.
"""
from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from plyground.core.search.control import Budget
from plyground.core import get_game
from plyground.core.fast import boom as kernel
from plyground.core.fast.boom import BoomBackend
from plyground.core.fast.table import thread_backend
from plyground.core.games.boom import BOARD, BOOM, MAX_PLIES, BoomState
from plyground.core.search.alphabeta import AlphaBeta, alphabeta_search
from plyground.core.search.control import SearchControl, SearchStopped, StopFlag
from plyground.core.values import INFINITY, WIN, terminal_value
from tests.core.positions import CYCLING_BOOM_GAME, first_return
from tests.core.positions import careful_boom_game as careful_game

GAME = get_game("boom")


@pytest.fixture(scope="module", autouse=True)
def compiled():
    kernel.warm_up()


def backend() -> BoomBackend:
    return thread_backend(BoomBackend)


def game_states(seed: int, games: int) -> list[BoomState]:
    rng = random.Random(seed)
    return [s for _ in range(games) for s in careful_game(rng)]


def with_children(states: list[BoomState]) -> list[BoomState]:
    """The states and every child of each: the moves a careful side avoids too."""
    return states + [s.play(m) for s in states if s.outcome() is None for m in s.moves()]


def positions(seed: int, count: int) -> list[BoomState]:
    """Running positions sampled from careful games, at any ply."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        states = [s for s in careful_game(rng) if s.outcome() is None]
        found.extend(rng.sample(states, min(len(states), 3)))
    return found[:count]


def test_the_random_games_are_long_and_have_bombs_and_booms():
    states = game_states(1, 40)
    assert sum(s.ply > 0 and s.history[-1] == BOOM for s in states) > 100
    assert sum(bool(s.bombs[0] and s.bombs[1]) for s in states) > 500
    assert max(s.ply for s in states) > 60


def test_play_and_boom_equal_the_rules():
    kinds = Counter()
    for state in game_states(2, 30):
        position = kernel.kernel_position(state)
        if state.outcome() is not None:
            continue
        legal = state.moves()
        for move in range(8):
            assert kernel.legal(position[0], position[1], position[2], move) == \
                (move in legal), (GAME.format_position(state), move)
        for move in legal:
            child = state.play(move)
            assert kernel.play(*position, move) == kernel.kernel_position(child), \
                (GAME.format_position(state), move)
            kinds["boom" if move == BOOM else "put"] += 1
            kinds["bomb put"] += move != BOOM and child.bombs != state.bombs
    assert kinds["boom"] > 500 and kinds["bomb put"] > 100


def test_end_detection_equals_the_rules():
    ends = Counter()
    # With every child, so that the ends a careful side avoids appear (a BOOM dropping
    # the opponent into a line, both lines at once).
    for state in with_children(game_states(3, 60)):
        outcome = state.outcome()
        over, value = kernel.end_value(*kernel.kernel_position(state)[:2], state.ply)
        assert over == (outcome is not None), GAME.format_position(state)
        if outcome is not None:
            assert value == terminal_value(outcome, state.ply, state.to_move)
            if outcome.winner is None:
                ends["draw"] += 1
            else:
                boomed = state.history[-1] == BOOM
                actor_lost = outcome.winner == state.to_move
                ends[("boom " if boomed else "")
                     + ("actor loses" if actor_lost else "actor wins")] += 1
                ends["both lines"] += all(BOARD.has_four(p) for p in state.pieces)
    assert ends["actor loses"] > 100 and ends["boom actor wins"] > 0, ends
    assert ends["boom actor loses"] > 0 and ends["both lines"] > 0, ends


def test_a_full_board_draws():
    # Pairs of rows alternate by column: no line longer than two anywhere.
    green = sum(BOARD.bit(c, r) for c in range(7) for r in range(7) if (c + r // 2) % 2 == 0)
    state = BoomState((green, BOARD.full_board & ~green), (0, 0), (0,) * 49)
    assert state.outcome().winner is None
    assert kernel.end_value(*kernel.kernel_position(state)[:2], 49) == (True, 0)
    assert kernel.evaluate(*kernel.kernel_position(state)) == GAME.evaluate(state) == 0


def test_the_ply_cap_draws():
    state = positions(4, 1)[0]
    capped = BoomState(state.pieces, state.bombs, (0,) * MAX_PLIES)
    assert kernel.end_value(*kernel.kernel_position(capped)[:2], MAX_PLIES) == (True, 0)
    assert kernel.evaluate(*kernel.kernel_position(capped)) == GAME.evaluate(capped) == 0
    before = BoomState(state.pieces, state.bombs, (0,) * (MAX_PLIES - 1))
    assert kernel.end_value(*kernel.kernel_position(before)[:2], MAX_PLIES - 1)[0] is False


def test_evaluate_equals_the_heuristic():
    states = with_children(game_states(5, 40))
    lost = sum(abs(GAME.evaluate(s)) >= WIN - 400 and s.outcome() is None for s in states)
    assert lost >= 10  # the "only self-losing columns and no bomb" rule
    for state in states:
        assert kernel.evaluate(*kernel.kernel_position(state)) == GAME.evaluate(state), \
            GAME.format_position(state)


def test_the_table_key_is_exact():
    """Different positions never share (key, check); the same one always does."""
    seen: dict = {}
    for state in with_children(game_states(6, 30)):
        key = tuple(int(x) for x in kernel.table_key(*kernel.kernel_position(state)))
        assert key[0] < 1 << kernel.KEY_BITS
        assert seen.setdefault(key, state.key()) == state.key()
    assert len(seen) > 10_000


def windows(rng: random.Random):
    """Search windows of every kind: full, null, narrow, and around decisive values."""
    low = rng.randrange(-300, 300)
    return rng.choice([
        (-INFINITY, INFINITY), (low, low + 1), (low, low + rng.randrange(2, 200)),
        (-INFINITY, low), (low, INFINITY), (WIN - 400, INFINITY), (-INFINITY, -(WIN - 400)),
    ])


def test_kernel_negamax_equals_python_negamax_node_for_node():
    """The same value and the same node count, for any node, depth and window."""
    rng = random.Random(7)
    fast = backend()
    for state in positions(7, 200):
        depth = rng.randrange(1, 5)
        alpha, beta = windows(rng)
        reference = AlphaBeta(GAME, SearchControl(Budget()))
        value = reference.negamax(state, depth, alpha, beta, path=(0, 0))  # below the root
        fast.reset()
        assert fast.negamax(state, depth, alpha, beta, SearchControl(Budget()), 0) == \
            (value, reference.nodes), (GAME.format_position(state), depth, alpha, beta)


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_search_values_equal_the_python_search(depth):
    """The kernel from the root, and alpha-beta through the backend, against plain
    alpha-beta: the same value, and through the backend the same decisions and work."""
    for state in positions(10 + depth, 40 if depth <= 4 else 10):
        plain = alphabeta_search(GAME, state, Budget(depth=depth))
        fast = backend()
        fast.reset()
        value, _ = fast.negamax(state, depth, -INFINITY, INFINITY,
                                SearchControl(Budget()), 0)
        assert value == plain.value, (GAME.format_position(state), depth)
        through = alphabeta_search(GAME, state, Budget(depth=depth), backend=fast)
        assert (through.value, through.best_move, through.pv, through.move_values,
                through.work) == (plain.value, plain.best_move, plain.pv,
                                  plain.move_values, plain.work), \
            (GAME.format_position(state), depth)


def test_a_fresh_backend_through_alphabeta_search():
    state = positions(20, 1)[0]
    plain = alphabeta_search(GAME, state, Budget(depth=5))
    fast = alphabeta_search(GAME, state, Budget(depth=5), backend=BoomBackend())
    assert (fast.value, fast.best_move, fast.pv, fast.work) == \
        (plain.value, plain.best_move, plain.pv, plain.work)


def test_a_node_budget_stops_the_search_where_python_stops():
    for budget in (Budget(nodes=3000), Budget(nodes=8000, depth=9)):
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
        return kernel.search(*kernel.kernel_position(state), 30, -INFINITY, INFINITY,
                             fast.keys, fast.checks, fast.values, fast.depths, fast.flags,
                             fast.moves, fast.stamp, fast.seen, 0, stop, limit)[1:]

    assert run(np.zeros(1, np.int64), 12_345) == (12_345, True)
    assert run(np.ones(1, np.int64), 10**9) == (1024, True)
    stop = StopFlag()
    stop.set()
    with pytest.raises(SearchStopped):
        fast.negamax(state, 30, -INFINITY, INFINITY, SearchControl(Budget(), stop), 0)


def test_best_move_reads_the_table_and_reset_forgets_it():
    state = positions(23, 1)[0]
    fast = backend()
    done = alphabeta_search(GAME, state, Budget(depth=6), backend=fast)
    deeper = state.play(done.pv[0]).play(done.pv[1])
    assert fast.best_move(deeper) in deeper.moves()
    fast.reset()
    assert fast.best_move(deeper) is None


def test_returns_to_earlier_positions_score_as_in_python():
    """Below a root late in a game that goes round a cycle, the kernel scores returns
    as the Python search does: the same values and node counts, child by child, and
    the same decisions through the backend."""
    root, _ = first_return(CYCLING_BOOM_GAME)
    roots = [GAME.parse_position(CYCLING_BOOM_GAME[:ply]) for ply in range(root.ply - 12,
                                                                      root.ply + 12)]
    fast = backend()
    returns = 0
    for state in roots:
        for move in state.moves():
            child = state.play(move)
            reference = AlphaBeta(GAME, SearchControl(Budget()), avoid_repeats=True)
            reference.set_root(state)
            returns += GAME.repetition_key(child) in reference.seen
            value = reference.negamax(child, 4, -INFINITY, INFINITY, path=(move,))
            fast.reset()
            fast.avoid(GAME.states_so_far(state))
            assert fast.negamax(child, 4, -INFINITY, INFINITY, SearchControl(Budget()),
                                0) == (value, reference.nodes), \
                (GAME.format_position(state), move)
        plain = alphabeta_search(GAME, state, Budget(depth=5))
        through = alphabeta_search(GAME, state, Budget(depth=5), backend=fast)
        assert (through.value, through.best_move, through.move_values, through.work) == \
            (plain.value, plain.best_move, plain.move_values, plain.work)
    assert returns > 0
