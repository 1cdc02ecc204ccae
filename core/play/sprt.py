"""Is A stronger than B? A generalised sequential probability ratio test (GSPRT) on game
pairs, as fishtest and fastchess run it, and the Elo estimates that go with it.

Each opening is played twice with colours swapped, and a *pair* is counted in one of
five classes by A's points in it (the pentanomial counts): 0 (LL), ½ (LD), 1 (DD or
WL), 1½ (WD), 2 (WW). Counting pairs rather than games takes the correlation between a
pair's two games into account, which narrows the intervals and shortens tests.

The LLR of H1 (A is elo1 stronger) against H0 (A is elo0 stronger) is

    N · Σ p̂_i · log(p1_i / p0_i)

over the five classes, where p̂ is the observed distribution of N pairs and p_j is the
distribution closest to it (the maximum-likelihood one on the same five classes) whose
strength is elo_j. In the logistic model (the default) strength is the expected score,
1 / (1 + 10^(-elo/400)); in the normalised model it is the t-value (μ − ½)/σ of the
pair score, normalised Elo being 800/ln 10 times the t-value per game (σ per game is
√2 times the pair's σ on the same 0-1 scale), as fishtest defines it. The test stops
with H1 when the LLR reaches log((1−β)/α), with H0 when it falls to log(β/(1−α)).

Like fishtest, a class with no pairs counts as 0.001 of a pair (and N is the sum of
the regularised counts): every class then has some probability, so the LLR and the
estimates stay finite for any counts, no pairs at all included (the LLR is then about
0, the Elo 0 with the widest interval). Scores are clamped to [0.001, 0.999] before
they become Elo, so a logistic Elo lies within ±1200.

Every function here works on one count vector (shape (5,)) or on many at once (shape
(..., 5)): a simulation updates thousands of tests in one call. Pure; nothing prints.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Sequence

import numpy as np

from ..errors import BadOption

PAIR_CLASSES = ("LL", "LD", "DD+WL", "WD", "WW")
MODELS = ("logistic", "normalized")
SCORES = np.linspace(0.0, 1.0, 5)  # a pair's points on a 0-1 scale, per class
REGULARISATION = 1e-3  # the count a class with no pairs gets, as fishtest
NELO_PER_T = 800 / math.log(10)  # normalised Elo per unit of t-value per game
CLAMP = 1e-3  # scores closer than this to 0 or 1 count as this close
Z975 = NormalDist().inv_cdf(0.975)
# Bounds far beyond these leave the maximum-likelihood distributions barely defined
# (a normalised t-value no distribution near the observed one reaches); real tests
# use bounds of a few Elo.
ELO_LIMITS = {"logistic": 800.0, "normalized": 200.0}


def pair_class(first: float, second: float) -> int:
    """The class (0 LL … 4 WW) of a pair in which A scored `first` and `second`
    (each 0, 0.5 or 1)."""
    for score in (first, second):
        if score not in (0, 0.5, 1):
            raise BadOption(f"a game's score is 0, 0.5 or 1, not {score!r}")
    return int(2 * (first + second))


def check_counts(counts: Sequence[int]) -> tuple[int, ...]:
    """`counts` as five non-negative integers, LL to WW, or BadOption."""
    values = tuple(counts)
    if len(values) != 5:
        raise BadOption(f"pentanomial counts are 5 numbers (LL, LD, DD+WL, WD, WW), "
                        f"not {len(values)}")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
                or value < 0:
            raise BadOption(f"a pentanomial count is a whole number 0 or more, "
                            f"not {value!r}")
    return tuple(int(value) for value in values)


def logistic_score(elo: float) -> float:
    """The expected score of a player `elo` stronger, in the logistic model."""
    return 1 / (1 + 10 ** (-elo / 400))


def logistic_elo(score):
    """The logistic Elo difference behind an expected score (clamped, see above)."""
    score = np.clip(score, CLAMP, 1 - CLAMP)
    return -400 * np.log10(1 / score - 1)


def interval_end(score: float) -> float:
    """An end of the Elo interval: a score interval that reaches 0 or 1 has no
    finite end there (±inf), rather than the clamp's ±1200, which no data said."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return float(logistic_elo(score))


def distribution(counts) -> tuple[np.ndarray, np.ndarray]:
    """The regularised number of pairs and their observed distribution p̂."""
    regularised = np.asarray(counts, dtype=float)
    regularised = np.where(regularised == 0, REGULARISATION, regularised)
    total = regularised.sum(axis=-1)
    return total, regularised / total[..., None]


def secular_root(observed: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The x with f(x) = Σ p̂_i d_i / (1 + x d_i) = 0 and every 1 + x d_i > 0 (the
    Lagrange multiplier of a maximum-likelihood distribution p_i = p̂_i / (1 + x d_i)
    whose Σ p_i d_i is 0), for offsets d of both signs.

    f falls from +∞ to −∞ across that interval, so the root is unique. Newton's
    method runs on f·(1 + x d_max)(1 + x d_min), which has the same root and no
    poles at the interval's ends (a class seen rarely puts the root close to one),
    kept inside the shrinking bracket by bisection where it would leave it."""
    most, least = offsets.max(axis=-1), offsets.min(axis=-1)
    low, high = -1 / most, -1 / least
    x = np.zeros(low.shape)
    for _ in range(200):
        ratio = offsets / (1 + x[..., None] * offsets)
        value = (observed * ratio).sum(axis=-1)
        slope = -(observed * ratio * ratio).sum(axis=-1)
        low = np.where(value > 0, x, low)
        high = np.where(value < 0, x, high)
        ends = (1 + x * most) * (1 + x * least)
        smooth_slope = slope * ends + value * (most * (1 + x * least)
                                               + least * (1 + x * most))
        step = value * ends / smooth_slope
        settled = np.abs(step) <= 1e-14 * np.maximum(1, np.abs(x))  # rounding noise
        newton = x - step
        inside = (newton > low) & (newton < high)
        x = np.where(settled, x, np.where(inside, newton, (low + high) / 2))
        if settled.all():
            break
    return x


def mle_score(observed: np.ndarray, score) -> np.ndarray:
    """The distribution on the five classes with expected score `score` that makes
    the observed distribution likeliest (fishtest's MLE_expected)."""
    offsets = SCORES - np.asarray(score, dtype=float)[..., None]
    offsets = np.broadcast_to(offsets, observed.shape)
    x = secular_root(observed, offsets)
    return observed / (1 + x[..., None] * offsets)


def mle_t_value(observed: np.ndarray, t) -> np.ndarray:
    """The distribution on the five classes with t-value (μ − ½)/σ = `t` that makes
    the observed distribution likeliest (fishtest's MLE_t_value): a fixed point of
    p_i = p̂_i / (1 + x φ_i), φ_i = a_i − ½ − tσ(1 + ((a_i − μ)/σ)²)/2 with μ, σ
    those of p, started from the uniform distribution."""
    t = np.asarray(t, dtype=float)[..., None]
    if not t.any():  # no σ in the constraint: the distribution of mean ½
        return mle_score(observed, np.full(t.shape[:-1], 0.5))
    estimate = np.full(observed.shape, 1 / 5)
    active = np.ones(observed.shape[:-1], dtype=bool)  # not yet at the fixed point
    for _ in range(100):
        sure, current, level = observed[active], estimate[active], t[active]
        mean = (current * SCORES).sum(axis=-1, keepdims=True)
        sigma = np.sqrt((current * (SCORES - mean) ** 2).sum(axis=-1, keepdims=True))
        offsets = SCORES - 0.5 - level * sigma * (1 + ((SCORES - mean) / sigma) ** 2) / 2
        x = secular_root(sure, offsets)
        following = sure / (1 + x[..., None] * offsets)
        estimate[active] = following
        # relative: a class seen rarely has a tiny probability, known less exactly
        active[active] = np.abs(following / current - 1).max(axis=-1) >= 1e-9
        if not active.any():
            break
    return estimate


def llr(counts, elo0: float, elo1: float, model: str = "logistic"):
    """The log-likelihood ratio of H1 (elo1) against H0 (elo0) for the pentanomial
    `counts` (shape (5,) or (..., 5)): a float, or an array of one per count vector."""
    total, observed = distribution(counts)
    if model == "logistic":
        p0, p1 = (mle_score(observed, np.full(total.shape, logistic_score(elo)))
                  for elo in (elo0, elo1))
    else:
        # t-value per pair on the 0-1 scale: √2 times the per-game one
        p0, p1 = (mle_t_value(observed, np.full(total.shape,
                                                 math.sqrt(2) * elo / NELO_PER_T))
                  for elo in (elo0, elo1))
    ratio = total * (observed * (np.log(p1) - np.log(p0))).sum(axis=-1)
    return float(ratio) if np.ndim(ratio) == 0 else ratio


@dataclass(frozen=True)
class Estimates:
    """What the counts say about A's strength, whatever the test: the logistic Elo
    and the normalised Elo, each with its 95% interval, and the likelihood of
    superiority (the probability that A is the stronger). While every pair counted
    fell in one class (all won, all drawn...), the counts show no spread: then there
    is no interval, no normalised Elo and no LOS (None), and no Elo either when that
    class is LL or WW (A lost or won every game: no finite estimate). A figure the
    regularisation of empty classes made up would claim a certainty nobody has."""
    elo: float | None
    elo_interval: tuple[float, float] | None
    nelo: float | None
    nelo_interval: tuple[float, float] | None
    los: float | None


def estimates(counts: Sequence[int]) -> Estimates:
    """Estimates from the mean and the moments of the pair score, as fishtest's
    statistics pages compute them: the score's interval from its pentanomial
    variance (mapped to Elo, so it is not symmetric around the estimate), the
    t-value's from its asymptotic variance 1 − t·skewness + t²(kurtosis excess + 2)/4."""
    raw = np.asarray(counts, dtype=float)
    if np.count_nonzero(raw) <= 1:
        score = float(raw @ SCORES / raw.sum()) if raw.sum() else 0.0
        elo = float(logistic_elo(score)) if 0 < score < 1 else None
        return Estimates(elo, None, None, None, None)
    total, observed = distribution(counts)
    total = float(total)
    mean = float(observed @ SCORES)
    centred = SCORES - mean
    variance = float(observed @ centred ** 2)
    spread = Z975 * math.sqrt(variance / total)
    elo = float(logistic_elo(mean))
    elo_interval = (interval_end(mean - spread), interval_end(mean + spread))
    t = (mean - 0.5) / math.sqrt(variance)
    skewness = float(observed @ centred ** 3) / variance ** 1.5
    excess = float(observed @ centred ** 4) / variance ** 2 - 3
    t_variance = max(0.0, 1 - t * skewness + t * t * (excess + 2) / 4)
    t_spread = Z975 * math.sqrt(t_variance / total)
    per_game = NELO_PER_T / math.sqrt(2)
    nelo_interval = ((t - t_spread) * per_game, (t + t_spread) * per_game)
    los = NormalDist().cdf((mean - 0.5) / math.sqrt(variance / total))
    return Estimates(elo, elo_interval, t * per_game, nelo_interval, los)


@dataclass(frozen=True)
class SPRT:
    """A test of H0 (A is elo0 stronger than B) against H1 (elo1 stronger), with error
    rates alpha (accepting H1 when H0 holds) and beta (H0 when H1 holds)."""
    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"

    def __post_init__(self) -> None:
        if self.model not in MODELS:
            raise BadOption(f"the Elo model is logistic or normalized, not {self.model!r}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise BadOption(f"{name} is a probability above 0 and below 0.5, "
                                f"not {value:g}")
        if not self.elo0 < self.elo1:
            raise BadOption(f"elo0 must be below elo1 (they are {self.elo0:g} and "
                            f"{self.elo1:g})")
        limit = ELO_LIMITS[self.model]
        if max(abs(self.elo0), abs(self.elo1)) > limit:
            raise BadOption(f"elo0 and elo1 are within ±{limit:g} in the {self.model} "
                            f"model (they are {self.elo0:g} and {self.elo1:g})")

    @property
    def lower(self) -> float:
        """The LLR at or below which the test accepts H0."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which the test accepts H1."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, counts):
        """The LLR for one count vector or many (shape (..., 5))."""
        return llr(counts, self.elo0, self.elo1, self.model)

    def status(self, counts: Sequence[int]) -> SprtStatus:
        counts = check_counts(counts)
        ratio = self.llr(counts)
        result = "H1" if ratio >= self.upper else "H0" if ratio <= self.lower else None
        return SprtStatus(self, counts, ratio, result, estimates(counts))


@dataclass(frozen=True)
class SprtStatus:
    """Where a test stands after some pairs: its LLR, the hypothesis it accepts
    ("H0", "H1", or None while the LLR is between the bounds), the estimates."""
    sprt: SPRT
    counts: tuple[int, ...]
    llr: float
    result: str | None
    estimates: Estimates

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def games(self) -> int:
        return 2 * self.pairs

    @property
    def lower(self) -> float:
        return self.sprt.lower

    @property
    def upper(self) -> float:
        return self.sprt.upper

    @property
    def model(self) -> str:
        return self.sprt.model

    @property
    def elo(self) -> float | None:
        return self.estimates.elo

    @property
    def interval(self) -> tuple[float, float] | None:
        return self.estimates.elo_interval

    @property
    def los(self) -> float | None:
        return self.estimates.los

    def to_json(self) -> dict:
        return {
            "result": self.result or "none",
            "llr": self.llr,
            "lower_bound": self.lower,
            "upper_bound": self.upper,
            "pentanomial": list(self.counts),
            "pairs": self.pairs,
            "games": self.games,
            "elo": self.elo,
            # an end with no finite value is null
            "elo_95": self.interval and [end if math.isfinite(end) else None
                                         for end in self.interval],
            "nelo": self.estimates.nelo,
            "nelo_95": self.estimates.nelo_interval and list(self.estimates.nelo_interval),
            "los": self.los,
            "elo0": self.sprt.elo0,
            "elo1": self.sprt.elo1,
            "alpha": self.sprt.alpha,
            "beta": self.sprt.beta,
            "model": self.model,
        }
