"""The GSPRT keeps its promises: over 2,000 simulated tests whose game pairs are drawn
from a known distribution at elo0, H1 is accepted at most 5.5% of the time (alpha is
5%), and at elo1 at least 94.5% (beta is 5%). All tests advance together, one pair
each per step, their LLRs computed in one call."""
from __future__ import annotations

import math

import numpy as np
import pytest

from plyground.core.play.sprt import SPRT, llr, logistic_score

RUNS = 2000
CAP = 20_000  # pairs; a test still running there has not accepted H1
DRAWS = 0.35  # each game's draw rate
FIRST_MOVE = 0.04  # the score the first mover gains


def game_outcomes(score: float) -> np.ndarray:
    """P(loss), P(draw), P(win) for a game of expected score `score`."""
    return np.array([1 - score - DRAWS / 2, DRAWS, score - DRAWS / 2])


def pair_distribution(score: float) -> np.ndarray:
    """The pentanomial distribution of a pair at expected score `score`: A moves
    first in one game and second in the other, the two games independent."""
    first = game_outcomes(score + FIRST_MOVE)
    second = game_outcomes(score - FIRST_MOVE)
    return np.convolve(first, second)  # a pair's points in halves: 0 … 4


def t_value(pairs: np.ndarray) -> float:
    """The normalised model's strength of a pair distribution: (μ − ½)/σ per game."""
    points = np.linspace(0, 1, 5)
    mean = pairs @ points
    return (mean - 0.5) / math.sqrt(2 * (pairs @ (points - mean) ** 2))


def score_for(elo: float, model: str) -> float:
    """The expected score at which the pairs are `elo` stronger in `model`."""
    if model == "logistic":
        return logistic_score(elo)
    target = elo / (800 / math.log(10))
    low, high = 0.5 - 0.2, 0.5 + 0.2  # t_value rises with the score
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if t_value(pair_distribution(middle)) < target \
            else (low, middle)
    return low


def accepted_h1(test: SPRT, pairs: np.ndarray, seed: int) -> float:
    """The share of RUNS tests, each drawing pairs from `pairs`, that accept H1."""
    rng = np.random.default_rng(seed)
    counts = np.zeros((RUNS, 5), dtype=np.int64)
    running = np.arange(RUNS)
    accepted = np.zeros(RUNS, dtype=bool)
    cumulative = np.cumsum(pairs)
    for _ in range(CAP):
        drawn = np.minimum(np.searchsorted(cumulative, rng.random(len(running))), 4)
        counts[running, drawn] += 1
        ratio = test.llr(counts[running])
        accepted[running[ratio >= test.upper]] = True
        running = running[(ratio > test.lower) & (ratio < test.upper)]
        if not len(running):
            break
    return accepted.mean()


@pytest.mark.parametrize("model, elo0, elo1", [("logistic", 0, 40),
                                               ("normalized", 0, 100)])
def test_the_error_rates_are_at_most_alpha_and_beta(model, elo0, elo1):
    test = SPRT(elo0=elo0, elo1=elo1, alpha=0.05, beta=0.05, model=model)
    at_elo0 = pair_distribution(score_for(elo0, model))
    at_elo1 = pair_distribution(score_for(elo1, model))
    assert accepted_h1(test, at_elo0, seed=1) <= 0.055
    assert accepted_h1(test, at_elo1, seed=2) >= 0.945


def test_the_true_distributions_have_the_elo_asked():
    pairs = pair_distribution(score_for(40, "logistic"))
    assert pairs.sum() == pytest.approx(1) and (pairs > 0).all()
    mean = pairs @ np.linspace(0, 1, 5)
    assert 400 * math.log10(mean / (1 - mean)) == pytest.approx(40)
    nelo = t_value(pair_distribution(score_for(100, "normalized"))) * 800 / math.log(10)
    assert nelo == pytest.approx(100)


def test_the_simulation_s_batched_llr_is_the_single_one():
    rng = np.random.default_rng(5)
    counts = rng.integers(0, 60, size=(50, 5))
    counts[rng.random((50, 5)) < 0.2] = 0
    for model in ("logistic", "normalized"):
        assert SPRT(elo1=40, model=model).llr(counts) == pytest.approx(
            [llr(row, 0, 40, model) for row in counts], abs=1e-9)
