"""The pentanomial GSPRT: its LLR against an independent maximisation of the same
likelihoods and against values fishtest and fastchess publish, its bounds, the Elo
estimates, pair classes and the errors on bad input."""
from __future__ import annotations

import math

import numpy as np
import pytest

from plyground.core import PlygroundError
from plyground.core.play import sprt as sprt_module
from plyground.core.play.sprt import SPRT, estimates, llr, pair_class

POINTS = np.array([0, 0.25, 0.5, 0.75, 1])  # a pair's points on a 0-1 scale
NELO_PER_T = 800 / math.log(10)


def regularised(counts):
    """fishtest's regularisation: a class with no pairs counts 0.001 of a pair."""
    counts = np.array([c if c else 1e-3 for c in counts], dtype=float)
    return counts.sum(), counts / counts.sum()


def constrained_mle(observed, rows, targets):
    """The distribution p maximising Σ p̂ log p subject to rows @ p = targets (the
    first row all ones), by Newton's method on the convex dual: minimise
    y·targets − Σ p̂ log (rowsᵀy), whose minimiser gives p = p̂ / rowsᵀy."""
    rows, targets = np.asarray(rows, float), np.asarray(targets, float)
    y = np.zeros(len(rows))
    y[0] = 1.0

    def dual(y):
        weights = rows.T @ y
        return math.inf if (weights <= 0).any() else (
            y @ targets - observed @ np.log(weights))

    for _ in range(100):
        weights = rows.T @ y
        gradient = targets - rows @ (observed / weights)
        hessian = (rows * (observed / weights ** 2)) @ rows.T
        step = np.linalg.solve(hessian, -gradient)
        if -(gradient @ step) < 1e-28:  # Newton's decrement: at the minimum
            break
        size = 1.0
        while dual(y + size * step) > dual(y) + 1e-4 * size * (gradient @ step):
            size /= 2
            if size < 1e-20:
                raise np.linalg.LinAlgError("no descent: the targets are not feasible")
        y = y + size * step
    return observed / (rows.T @ y)


def mle_of_score(observed, score):
    return constrained_mle(observed, [np.ones(5), POINTS], [1, score])


def mle_of_t(observed, t):
    """The likeliest distribution with (μ − ½)/σ = t: for each mean m the constraint
    fixes σ, so the mean and the second moment are linear constraints; the best m
    is found by a grid over the feasible means, then golden-section search."""
    if t == 0:
        return mle_of_score(observed, 0.5)
    sign, t = (1, t) if t > 0 else (-1, -t)
    # m − ½ = u: feasible while σ² = u²/t² lies between the least variance of a
    # distribution on the five points with that mean and the most, m(1 − m)
    low = 0.25 * t * t / (1 + t * t)
    high = t / (2 * math.sqrt(1 + t * t))

    def distribution(u):
        mean = 0.5 + sign * u
        return constrained_mle(observed, [np.ones(5), POINTS, POINTS ** 2],
                               [1, mean, (u / t) ** 2 + mean ** 2])

    def likelihood(u):
        try:
            return observed @ np.log(distribution(u))
        except np.linalg.LinAlgError:  # too near the edge of the feasible means
            return -math.inf

    grid = np.linspace(low, high, 41)
    best = int(np.argmax([likelihood(u) for u in grid]))
    a, b = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    golden = (math.sqrt(5) - 1) / 2
    c, d = b - golden * (b - a), a + golden * (b - a)
    at_c, at_d = likelihood(c), likelihood(d)
    while b - a > 1e-12 * (high - low):
        if at_c > at_d:
            b, d, at_d = d, c, at_c
            c = b - golden * (b - a)
            at_c = likelihood(c)
        else:
            a, c, at_c = c, d, at_d
            d = a + golden * (b - a)
            at_d = likelihood(d)
    return distribution((a + b) / 2)


def independent_llr(counts, elo0, elo1, model):
    total, observed = regularised(counts)
    if model == "logistic":
        p0, p1 = (mle_of_score(observed, 1 / (1 + 10 ** (-elo / 400)))
                  for elo in (elo0, elo1))
    else:
        p0, p1 = (mle_of_t(observed, math.sqrt(2) * elo / NELO_PER_T)
                  for elo in (elo0, elo1))
    return total * observed @ (np.log(p1) - np.log(p0))


CASES = [
    ([3, 20, 50, 35, 12], 0, 5),
    ([12, 35, 50, 20, 3], 0, 5),
    ([40, 0, 21, 0, 55], -3, 10),
    ([0, 0, 0, 0, 104], 0, 5),
    ([7, 0, 0, 0, 0], 0, 30),
    ([0, 0, 0, 0, 0], 0, 5),
    ([0, 1, 9, 2, 0], 10, 40),
    ([291, 10353, 21899, 10175, 306], 0, 2),
]


@pytest.mark.parametrize("model", ["logistic", "normalized"])
@pytest.mark.parametrize("counts, elo0, elo1", CASES)
def test_the_llr_agrees_with_an_independent_maximisation(counts, elo0, elo1, model):
    expected = independent_llr(counts, elo0, elo1, model)
    assert llr(counts, elo0, elo1, model) == pytest.approx(expected, abs=1e-6)


# fastchess's app/tests/sprt_test.cpp (Disservin/fastchess): its Stats(ll, ld, wl, dd,
# wd, ww) summed into five classes, and the LLRs it checks to 1%
FASTCHESS = [
    ([365, 16618, 36229, 16974, 390], 0, 2, "normalized", 2.25),
    ([127, 4883, 10712, 5150, 104], -1.75, 0.25, "normalized", 3.01),
    ([223, 9863, 21279, 10037, 246], 0.5, 2.5, "logistic", -3.07),
    ([871, 26175, 55983, 26678, 821], 0, 2, "logistic", -4.98),
]
# fishtest's live LLRs (normalised Elo) for finished Stockfish tests, as ShogiHome's
# src/tests/renderer/game/sprt.spec.ts (sunfish-shogi/shogihome) quotes them, to 0.01
FISHTEST = [
    ([19, 4020, 10316, 4215, 24], -1.75, 0.25, 2.94),  # tests/live_elo/69675ab9…
    ([103, 3851, 8316, 3728, 98], 0, 2, -2.03),  # tests/live_elo/6984bbe6…
    ([291, 10353, 21899, 10175, 306], 0, 2, -3.08),  # tests/view/6983867b…
    ([99, 3323, 8399, 3606, 109], 0, 2, 2.98),  # tests/view/698432f5…
    ([2, 40, 72, 14, 0], 0, 2, -0.36),  # tests/view/6984bb68…
    ([326, 12015, 26044, 12357, 362], 0, 2, 2.93),  # tests/view/69839ed7…
    ([10, 6, 4, 2, 0], -1.75, 0.25, -0.13),
]


@pytest.mark.parametrize("counts, elo0, elo1, model, published", FASTCHESS)
def test_the_llr_matches_fastchess(counts, elo0, elo1, model, published):
    assert llr(counts, elo0, elo1, model) == pytest.approx(published, rel=0.01)


@pytest.mark.parametrize("counts, elo0, elo1, published", FISHTEST)
def test_the_llr_matches_fishtest(counts, elo0, elo1, published):
    assert round(llr(counts, elo0, elo1, "normalized"), 2) == published


def test_many_count_vectors_at_once_give_each_ones_llr():
    counts = np.array([case[0] for case in CASES])
    for model in ("logistic", "normalized"):
        together = llr(counts, -2, 7, model)
        assert together.shape == (len(CASES),)
        assert together == pytest.approx([llr(c, -2, 7, model) for c in counts],
                                         abs=1e-9)


def test_the_bounds_are_walds():
    test = SPRT(elo0=0, elo1=5, alpha=0.05, beta=0.1)
    assert test.lower == pytest.approx(math.log(0.1 / 0.95))
    assert test.upper == pytest.approx(math.log(0.9 / 0.05))


def test_the_result_is_the_bound_reached():
    test = SPRT(elo0=0, elo1=5)
    strong, weak, even = [10, 30, 60, 40, 20], [20, 40, 60, 30, 10], [1, 2, 3, 2, 1]
    strong = [n * 40 for n in strong]
    weak = [n * 40 for n in weak]
    assert test.llr(strong) >= test.upper and test.status(strong).result == "H1"
    assert test.llr(weak) <= test.lower and test.status(weak).result == "H0"
    assert test.lower < test.llr(even) < test.upper
    assert test.status(even).result is None
    assert test.status(even).to_json()["result"] == "none"


def test_the_llr_grows_with_a_stronger_a():
    # moving pairs from LD to WD can only make H1 likelier
    llrs = [llr([5, 30 - k, 40, 20 + k, 5], 0, 10) for k in range(0, 30, 5)]
    assert llrs == sorted(llrs) and llrs[0] < 0 < llrs[-1]


def test_degenerate_counts_give_finite_llrs_and_no_invented_estimates():
    """Counts in one class show no spread: no interval, nElo or LOS (the
    regularisation of empty classes would invent them), and all won or all lost
    games no finite Elo; two classes are enough for every figure."""
    one_class = {(0,) * 5: None, (9, 0, 0, 0, 0): None, (0, 0, 0, 0, 9): None,
                 (0, 0, 5, 0, 0): 0.0, (0, 0, 0, 4, 0): logistic_elo_of(0.75)}
    for counts, elo in one_class.items():
        for model in ("logistic", "normalized"):
            status = SPRT(model=model).status(counts)
            assert math.isfinite(status.llr)
            found = status.estimates
            assert (found.elo_interval, found.nelo, found.nelo_interval, found.los) \
                == (None,) * 4, counts
            assert found.elo == (None if elo is None else pytest.approx(elo)), counts
            json = status.to_json()
            assert json["elo_95"] is None and json["los"] is None
    for model in ("logistic", "normalized"):
        status = SPRT(model=model).status([0, 4, 0, 4, 0])
        values = [status.llr, status.elo, *status.interval, status.los,
                  status.estimates.nelo, *status.estimates.nelo_interval]
        assert all(math.isfinite(value) for value in values), model
    assert llr([0] * 5, 0, 5) == pytest.approx(0, abs=0.01)


def logistic_elo_of(score: float) -> float:
    return 400 * math.log10(score / (1 - score))


@pytest.mark.parametrize("counts", [[3, 20, 50, 35, 12], [30, 10, 5, 10, 2],
                                    [0, 1, 9, 2, 0], [0, 0, 0, 1, 6]])
def test_the_intervals_hold_their_estimates(counts):
    found = estimates(counts)
    low, high = found.elo_interval
    assert low <= found.elo <= high  # equal only where the score is clamped
    low, high = found.nelo_interval
    assert low < found.nelo < high


def test_the_logistic_elo_and_its_interval_come_from_the_pair_score():
    counts = [3, 20, 50, 35, 12]
    total, observed = regularised(counts)
    mean = observed @ POINTS
    spread = 1.959963984540054 * math.sqrt(observed @ (POINTS - mean) ** 2 / total)
    found = estimates(counts)

    def elo(score):
        return 400 * math.log10(score / (1 - score))
    assert found.elo == pytest.approx(elo(mean))
    assert found.elo_interval == pytest.approx((elo(mean - spread), elo(mean + spread)))
    assert found.los == pytest.approx(
        0.5 * (1 + math.erf((mean - 0.5) / spread * 1.959963984540054 / math.sqrt(2))))


def test_symmetric_counts_mean_equal_strength():
    found = estimates([10, 5, 2, 5, 10])
    assert found.elo == pytest.approx(0, abs=1e-9)
    assert found.nelo == pytest.approx(0, abs=1e-9)
    assert found.los == pytest.approx(0.5)
    assert found.elo_interval[0] == pytest.approx(-found.elo_interval[1])


def test_the_json_names_every_figure():
    status = SPRT(elo0=-1, elo1=4, alpha=0.1, beta=0.2, model="normalized").status(
        [3, 20, 50, 35, 12])
    found = status.to_json()
    assert found["pentanomial"] == [3, 20, 50, 35, 12]
    assert found["pairs"] == 120 and found["games"] == 240
    assert found["llr"] == status.llr == llr([3, 20, 50, 35, 12], -1, 4, "normalized")
    assert (found["lower_bound"], found["upper_bound"]) == (status.lower, status.upper)
    assert found["elo_95"] == list(status.interval)
    assert (found["elo0"], found["elo1"], found["alpha"], found["beta"],
            found["model"]) == (-1, 4, 0.1, 0.2, "normalized")
    assert set(found) >= {"result", "elo", "los", "nelo", "nelo_95"}


@pytest.mark.parametrize("first, second, expected", [
    (0, 0, 0), (0, 0.5, 1), (0.5, 0, 1), (0.5, 0.5, 2), (1, 0, 2), (0, 1, 2),
    (1, 0.5, 3), (0.5, 1, 3), (1, 1, 4)])
def test_a_pair_is_classed_by_as_points(first, second, expected):
    assert pair_class(first, second) == expected
    assert sprt_module.PAIR_CLASSES[expected] in ("LL", "LD", "DD+WL", "WD", "WW")


@pytest.mark.parametrize("settings, wording", [
    ({"alpha": 0}, "alpha is a probability"),
    ({"beta": 0.5}, "beta is a probability"),
    ({"elo0": 5, "elo1": 5}, "elo0 must be below elo1"),
    ({"model": "bayes"}, "logistic or normalized"),
    ({"elo1": 5000}, "within ±800"),
])
def test_bad_settings_are_one_clear_line(settings, wording):
    with pytest.raises(PlygroundError, match=wording) as raised:
        SPRT(**settings)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("counts", [[1, 2, 3, 4], [1, 2, 3, 4, -1], [1, 2, 3, 4, 0.5],
                                    [1, 2, 3, 4, 5, 6]])
def test_bad_counts_are_refused(counts):
    with pytest.raises(PlygroundError, match="pentanomial"):
        SPRT().status(counts)


def test_a_score_that_is_not_a_games_is_refused():
    with pytest.raises(PlygroundError, match="0, 0.5 or 1"):
        pair_class(0.25, 1)


def test_an_interval_reaching_a_score_of_0_or_1_has_no_finite_end():
    """Mostly won pairs with a few drawn: the score's interval passes 1, so the Elo
    interval has no upper end (not the clamp's +1199.8)."""
    status = SPRT().status([0, 0, 2, 0, 21])
    low, high = status.interval
    assert math.isfinite(low) and high == math.inf
    assert status.to_json()["elo_95"] == [low, None]
    lost = SPRT().status([21, 0, 2, 0, 0])
    assert lost.interval[0] == -math.inf and math.isfinite(lost.interval[1])
