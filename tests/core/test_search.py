"""Tree search and MCTS on Connect 4: tactics, equivalences, budgets, events."""
from __future__ import annotations

import random
import threading
import time

import pytest

from plyground.core.search.control import Budget
from plyground.core import get_game
from plyground.core.catalogue import make_agent
from plyground.core.search.alphabeta import alphabeta_search
from plyground.core.search.control import SearchControl, StopFlag
from plyground.core.search.events import (IterationDone, MctsBackedUp, MctsExpanded,
                                          MctsRolledOut, MctsSelected, MctsSnapshot,
                                          NodeEntered, NodeLeft, NodeResult, Recorder)
from plyground.core.search.mcts import PythonTree, mcts_search
from plyground.core.search.minimax import minimax_search
from plyground.core.values import WIN
from tests.core.positions import (positions_needing_a_block, positions_with_a_win_in_one,
                                  random_position)
from tests.reference import read_scored_positions

GAME = get_game("connect4")
TACTICAL_AGENTS = ["greedy", "minimax", "alphabeta"]


def agent(kind):
    return make_agent(kind, depth=4) if kind == "alphabeta" else make_agent(kind)


@pytest.mark.parametrize("kind", TACTICAL_AGENTS)
def test_agents_take_a_win_in_one(kind):
    for state in positions_with_a_win_in_one(25):
        assert agent(kind).choose(state) in state.winning_moves(), GAME.format_position(state)


@pytest.mark.parametrize("kind", TACTICAL_AGENTS)
def test_agents_block_the_opponents_win_in_one(kind):
    for state, block in positions_needing_a_block(25):
        assert agent(kind).choose(state) == block, GAME.format_position(state)


def test_mcts_takes_a_win_in_one_with_enough_playouts():
    mcts = make_agent("mcts", iterations=3000, seed=1)
    for state in positions_with_a_win_in_one(10):
        assert mcts.choose(state) in state.winning_moves(), GAME.format_position(state)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_alphabeta_value_equals_minimax_value_at_equal_depth(depth):
    rng = random.Random(depth)
    for _ in range(15):
        state = random_position(rng, rng.randrange(0, 30))
        plain = minimax_search(GAME, state, Budget(depth=depth))
        pruned = alphabeta_search(GAME, state, Budget(depth=depth))
        assert pruned.value == plain.value, GAME.format_position(state)
        assert pruned.work <= plain.work * 2  # iterative deepening costs at most ~2x here
        best = {mv.move: mv.value for mv in plain.move_values}
        assert best[pruned.best_move] == plain.value


def test_exact_root_gives_every_root_move_its_minimax_value():
    rng = random.Random(7)
    for _ in range(5):
        state = random_position(rng, 12)
        exact = alphabeta_search(GAME, state, Budget(depth=3), exact_root=True)
        # a found win ends the deepening early: compare at the depth it reached
        plain = minimax_search(GAME, state, Budget(depth=exact.depth))
        assert {mv.move: mv.value for mv in exact.move_values} == \
            {mv.move: mv.value for mv in plain.move_values}


def solver_value(score: int, state) -> int:
    """The published solver score of a position in our value scale (see values.py).

    A score s > 0 means the side to move wins with its (22 - s)-th stone; s < 0 that the
    opponent wins with its (22 + s)-th stone; a side's k-th stone lands at ply 2k - 1
    for the first player and 2k for the second.
    """
    if score == 0:
        return 0
    winner = state.to_move if score > 0 else 1 - state.to_move
    stone = 22 - abs(score)
    ply = 2 * stone - 1 + winner
    return WIN - ply if score > 0 else -(WIN - ply)


def test_alphabeta_solves_endgames_to_the_published_scores():
    rows = read_scored_positions("connect4/Test_L3_R1")
    rows.sort(key=lambda row: -len(row[0]))  # the most advanced endgames: quick to solve
    for moves, score in rows[:40]:
        state = GAME.parse_position(moves)
        done = alphabeta_search(GAME, state, Budget(depth=42 - state.ply))
        assert done.value == solver_value(score, state), moves


def test_alphabeta_prefers_the_fastest_win():
    # X can win at once in column 1, or set up wins elsewhere; the value says "next ply"
    state = GAME.parse_position("121213")
    done = make_agent("alphabeta", depth=6).decide(state)
    assert done.best_move == 0
    assert done.value == WIN - (state.ply + 1)


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:iterations=500"])
def test_same_seed_same_move_and_seeds_matter(spec):
    kind, _, rest = spec.partition(":")
    settings = {"iterations": int(rest.split("=")[1])} if rest else {}
    rng = random.Random(3)
    states = [random_position(rng, rng.randrange(0, 20)) for _ in range(12)]
    first = [make_agent(kind, seed=5, **settings).choose(s) for s in states]
    again = [make_agent(kind, seed=5, **settings).choose(s) for s in states]
    assert first == again
    others = [[make_agent(kind, seed=seed, **settings).choose(s) for s in states]
              for seed in range(6, 10)]
    assert any(other != first for other in others)


def test_alphabeta_stops_within_its_node_budget():
    state = GAME.parse_position("4453")
    done = alphabeta_search(GAME, state, Budget(nodes=5000))
    assert done.work <= 5000
    assert done.best_move in state.moves()


def test_a_cancelled_search_returns_promptly():
    stop = StopFlag()
    control = SearchControl(Budget(time=60), stop)
    threading.Timer(0.2, stop.set).start()
    started = time.perf_counter()
    done = alphabeta_search(GAME, GAME.start(), Budget(time=60), control=control)
    assert time.perf_counter() - started < 30  # far short of its 60 s: it stopped
    assert done.best_move in GAME.start().moves()


def test_trace_events_nest_and_show_cutoffs_only_at_beta():
    recorder = Recorder(trace=True)
    state = GAME.parse_position("4453")
    traced = alphabeta_search(GAME, state, Budget(depth=4), recorder)
    plain = alphabeta_search(GAME, state, Budget(depth=4))
    assert (traced.best_move, traced.value) == (plain.best_move, plain.value)
    stack = []
    cutoffs = 0
    for event in recorder.events:
        if isinstance(event, NodeEntered):
            assert event.path[:-1] == (stack[-1] if stack else ())[:len(event.path) - 1]
            stack.append(event.path)
        elif isinstance(event, NodeLeft):
            assert stack.pop() == event.path
            if event.cutoff:
                cutoffs += 1
                assert event.value >= event.beta and event.pruned > 0
        elif isinstance(event, IterationDone):
            assert not stack
    assert not stack and cutoffs > 0
    entered = sum(isinstance(e, NodeEntered) for e in recorder.events)
    assert entered == traced.work
    depths = [e.depth for e in recorder.events if isinstance(e, IterationDone)]
    assert depths == [1, 2, 3, 4]


def test_live_events_give_root_moves_and_replies():
    recorder = Recorder()
    state = GAME.parse_position("4453")
    alphabeta_search(GAME, state, Budget(depth=3), recorder)
    assert not any(isinstance(e, (NodeEntered, NodeLeft)) for e in recorder.events)
    paths = {e.path for e in recorder.events if isinstance(e, NodeResult)}
    assert {(m,) for m in state.moves()} <= paths
    assert any(len(p) == 2 for p in paths)
    assert all(len(p) <= 2 for p in paths)


def test_the_trace_recorder_stops_at_its_cap():
    recorder = Recorder(trace=True, cap=100)
    alphabeta_search(GAME, GAME.start(), Budget(depth=4), recorder)
    assert recorder.trace_events == 100 and recorder.truncated
    assert any(isinstance(e, IterationDone) for e in recorder.events)


def test_mcts_phases_and_counts_add_up():
    recorder = Recorder(trace=True)
    state = GAME.parse_position("4453")
    done = mcts_search(GAME, state, Budget(iterations=300), seed=1, observer=recorder)
    phases = [type(e) for e in recorder.events
              if isinstance(e, (MctsSelected, MctsExpanded, MctsRolledOut, MctsBackedUp))]
    assert phases.count(MctsSelected) == phases.count(MctsBackedUp) == 300
    assert phases.count(MctsRolledOut) == 300
    final = [e for e in recorder.events if isinstance(e, MctsSnapshot)][-1]
    assert sum(s.visits for s in final.stats) == 300 == done.work
    assert done.best_move == max(final.stats, key=lambda s: s.visits).move
    wins = sum(e.reward for e in recorder.events if isinstance(e, MctsBackedUp))
    by_moves = sum(s.mean * s.visits for s in final.stats)
    assert wins == pytest.approx(by_moves)


def test_mcts_without_a_trace_makes_the_same_decisions():
    state = GAME.parse_position("4453")
    traced = mcts_search(GAME, state, Budget(iterations=400), seed=9,
                         observer=Recorder(trace=True))
    tree = PythonTree(state, seed=9)
    tree.run(400)
    assert traced.pv == tree.principal_variation()
