"""PUCT search (core/search/puct.py) with evaluators of our own: a perfect one (the
exact minimax value, uniform priors) on tic-tac-toe, and fakes that count their calls."""
from __future__ import annotations

import math
from functools import lru_cache

import pytest

from plyground.core.game import get_game
from plyground.core.rng import SplitMix64
from plyground.core.search.control import Budget
from plyground.core.search.events import (PuctBackedUp, PuctEvaluated, PuctSelected,
                                          PuctSnapshot, Recorder)
from plyground.core.search.puct import exact_value, puct_search, puct_visits

GAME = get_game("tictactoe")


@lru_cache(maxsize=None)
def minimax(state) -> float:
    """The exact value of `state` for its side to move: 1, 0 or -1."""
    end = exact_value(state)
    if end is not None:
        return end
    return max(-minimax(state.play(move)) for move in state.moves())


class Perfect:
    """Uniform priors, the exact value; counts its calls and the states it saw."""

    def __init__(self) -> None:
        self.calls = 0
        self.states = []

    def __call__(self, states):
        self.calls += 1
        self.states.extend(states)
        return [([1 / len(s.moves())] * len(s.moves()), minimax(s)) for s in states]


def skewed(states):
    """Priors of a fixed pseudo-random shape per position, value 0.25."""
    out = []
    for state in states:
        rng = SplitMix64(state.key())
        weights = [1 + rng.below(100) for _ in state.moves()]
        out.append(([w / sum(weights) for w in weights], 0.25))
    return out


def positions(plies=range(1, 7)):
    """Running tic-tac-toe positions where some move is worse than the best, every
    third of them in a fixed order (a few dozen)."""
    found, frontier = [], [GAME.start()]
    seen = set()
    for _ in range(max(plies) + 1):
        nxt = []
        for state in frontier:
            if state.outcome() is not None or state in seen:
                continue
            seen.add(state)
            values = {-minimax(state.play(m)) for m in state.moves()}
            if state.ply in plies and len(values) > 1:
                found.append(state)
            nxt.extend(state.play(m) for m in state.moves())
        frontier = nxt
    return found[::3]


def search(state, evaluate, sims=200, **options):
    recorder = Recorder(trace=True)
    done = puct_search(GAME, state, Budget(iterations=sims), evaluate,
                       observer=recorder, **options)
    snapshots = [e for e in recorder.events if isinstance(e, PuctSnapshot)]
    return done, snapshots[-1], recorder.events


@pytest.mark.parametrize("batch", [1, 8])
def test_a_perfect_evaluator_finds_the_best_moves(batch):
    states = positions()
    assert len(states) > 20
    for state in states:
        done = puct_search(GAME, state, Budget(iterations=100), Perfect(), batch=batch)
        best = max(-minimax(state.play(m)) for m in state.moves())
        assert -minimax(state.play(done.best_move)) == best, GAME.format_position(state)


@pytest.mark.parametrize("batch", [1, 8])
def test_visits_sum_to_the_simulations(batch):
    evaluate = Perfect()
    done, final, _ = search(GAME.start(), evaluate, sims=150, batch=batch)
    assert done.work == final.iterations == 150
    assert sum(s.visits for s in final.stats) == 150
    assert final.root_visits == 151  # the root's own evaluation and every simulation
    assert sum(puct_visits(done).values()) == 150
    assert puct_visits(done) == {s.move: s.visits for s in final.stats if s.visits}
    # batching: one call per round, so fewer calls than leaves with a batch of 8
    leaves = len(evaluate.states)
    assert evaluate.calls == leaves if batch == 1 else evaluate.calls < leaves / 3


def test_no_simulations_plays_the_highest_prior_with_the_network_value():
    for state in positions():
        done, final, _ = search(state, skewed, sims=0)
        [(prior, value)] = skewed([state])
        assert done.best_move == state.moves()[prior.index(max(prior))]
        assert done.work == 0 and done.value == (value + 1) / 2
        assert final.network_value == value


def test_the_same_seed_gives_the_same_search_and_noise_only_when_asked():
    state = GAME.start()
    runs = [search(state, skewed, noise=(0.3, 0.25), seed=seed)[1] for seed in (7, 7, 8)]
    assert runs[0].stats == runs[1].stats and runs[0].pv == runs[1].pv
    assert [s.prior for s in runs[0].stats] != [s.prior for s in runs[2].stats]
    [(prior, _)] = skewed([state])
    plain = search(state, skewed, seed=7)[1]
    assert [s.prior for s in plain.stats] == prior
    noisy = [s.prior for s in runs[0].stats]
    assert noisy != prior and math.isclose(sum(noisy), 1.0)


def test_a_finished_game_is_never_given_to_the_network():
    # X to move can win at once or lose: many walks end in finished games
    state = GAME.parse_position("a1 b1 a2 b2")
    evaluate = Perfect()
    done, final, events = search(state, evaluate, sims=300)
    assert all(exact_value(s) is None for s in evaluate.states)
    ends = sum(1 for e in events if isinstance(e, PuctEvaluated) and e.terminal)
    assert ends > 0
    assert len(evaluate.states) - 1 == done.work - ends  # the root, then each new leaf
    assert done.best_move == GAME.parse_move("a3", state)


def test_the_snapshot_says_p_q_u_as_the_formula_and_the_trace_give_them():
    c = 1.3
    done, final, events = search(GAME.parse_position("b2"), skewed, sims=120, c=c)
    backed = [e for e in events if isinstance(e, PuctBackedUp)]
    assert len(backed) == 120 == len([e for e in events if isinstance(e, PuctSelected)])
    root_value = final.network_value + sum(e.value for e in backed)
    for stat in final.stats:
        assert math.isclose(stat.u, c * stat.prior * math.sqrt(final.root_visits)
                            / (1 + stat.visits))
        through = [e.value for e in backed if e.path[0] == stat.move]
        assert len(through) == stat.visits
        q = sum(through) / stat.visits if stat.visits else root_value / final.root_visits
        assert math.isclose(stat.q, q, abs_tol=1e-12)
        assert math.isclose(stat.uct, stat.q + stat.u)
        assert math.isclose(stat.mean, (stat.q + 1) / 2)


def test_each_selection_step_takes_the_highest_q_plus_u():
    _, _, events = search(GAME.start(), skewed, sims=60, batch=1)
    selected = [e for e in events if isinstance(e, PuctSelected)]
    assert all(len(e.steps) == len(e.path) for e in selected)
    assert [step.move for step in selected[-1].steps] == list(selected[-1].path)
    # the first walk from a fresh root: the highest prior (all Q equal)
    [(prior, _)] = skewed([GAME.start()])
    assert selected[0].steps[0].move == GAME.start().moves()[prior.index(max(prior))]
