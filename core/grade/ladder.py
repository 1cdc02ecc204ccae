"""A class ladder: Bradley–Terry Elo of submissions from their games against each other.

The model and its estimate are the arena's (`core.play.ratings`): a player d Elo above
another scores 1 / (1 + 10^(-d/400)) against it on average, a draw counts half a win
each way, and the ratings are the plain maximum likelihood (no prior: a grade should
rest on the games alone). Here they are anchored on 0 (the mean of the rated players,
or a named anchor), and each carries a 95% interval from the Fisher information: the
inverse of minus the log-likelihood's Hessian at the estimate, taken for the anchored
differences, times ±1.96.

A finite estimate exists only among players who beat each other around in a cycle
(a strongly connected "scored against" graph; a draw links both ways). A player that
won every game it played against the rated group (or a group of such players) has no
finite estimate: its Elo is +∞ and its interval is open upwards, [low, +∞), where low
is the likelihood-ratio bound: the rating at which the chance of all those wins falls
to exp(-3.84/2) of its supremum, the opponents held at their estimates. A winless
player is the mirror image, (-∞, high]. A player never linked to the rated group
either way has no rating at all (nan, interval (-∞, +∞)). Never a huge number.
Pure functions; nothing here prints.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from plyground.core.errors import PlygroundError
from plyground.core.play.ratings import ELO, MEAN, _expectation, elo_ratings

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution
HALF_CHI2_95 = 3.841458820694124 / 2  # the likelihood-ratio drop for 95%, one parameter
GROUP_ORDER = {"above": 3, "rated": 2, "below": 1, "unlinked": 0}


@dataclass(frozen=True)
class LadderRating:
    """One player's place: Elo and its 95% interval [low, high] (±inf where open),
    the rank (1 is best; tied players share one), games played and points scored.

    `group` says which statement holds: "rated" (a finite estimate), "above" (won
    every game against the rated group: +inf), "below" (lost every one: -inf), or
    "unlinked" (no games linking it to the rated group: nan)."""
    name: str
    elo: float
    low: float
    high: float
    rank: int
    games: int
    points: float
    group: str

    def describe(self) -> str:
        """The rating in words, as a report shows it."""
        if self.group == "unlinked":
            return "unrated (no games linking it to the others)"
        if self.group == "above":
            bound = "" if math.isinf(self.low) else f", 95%: at least {self.low:+.0f}"
            return f"+∞ (won every game against the rated players{bound})"
        if self.group == "below":
            bound = "" if math.isinf(self.high) else f", 95%: at most {self.high:+.0f}"
            return f"−∞ (lost every game against the rated players{bound})"
        if self.low == self.high:  # the anchor, or the one player of a rated group
            return f"{self.elo:+.0f} (the reference the others are measured from)"
        return f"{self.elo:+.0f} (95%: {self.low:+.0f} to {self.high:+.0f})"


def ladder(results: Iterable[tuple[str, str, float]], anchor: str | None = None,
           names: Sequence[str] = ()) -> list[LadderRating]:
    """The ladder from `results`, each (first, second, first's points: 1, 0.5 or 0),
    best first. `anchor` names the player rated 0 (else the rated players' mean is
    0); `names` adds players who may have played no game, and fixes the order of ties.
    """
    games = list(results)
    order = _names(games, names)
    index = {name: i for i, name in enumerate(order)}
    played = np.zeros((len(order), len(order)))
    scored = np.zeros((len(order), len(order)))
    for first, second, points in games:
        a, b = index[first], index[second]
        played[a, b] += 1
        played[b, a] += 1
        scored[a, b] += points
        scored[b, a] += 1 - points
    if not order:
        return []
    reach = _reach(scored > 0)
    core = _core(reach, played, index, anchor)
    elo = np.full(len(order), math.nan)
    low, high = np.full(len(order), -math.inf), np.full(len(order), math.inf)
    strength = _fit_core(core, played, scored, index.get(anchor), elo, low, high)
    groups = []
    for i in range(len(order)):
        group = _group(i, core, reach)
        groups.append(group)
        opponents = [j for j in core if played[i, j]]
        counts = played[i, opponents]
        where = strength[opponents] if opponents else np.zeros(0)
        if group == "above":
            elo[i] = math.inf
            low[i] = _one_sided_bound(where, counts, +1)
        elif group == "below":
            elo[i] = -math.inf
            high[i] = _one_sided_bound(where, counts, -1)
    points = scored.sum(axis=1)
    keys = [_rank_key(groups[i], elo[i], low[i], high[i], points[i])
            for i in range(len(order))]
    ratings = [LadderRating(order[i], float(elo[i]), float(low[i]), float(high[i]),
                            1 + sum(1 for other in keys if other > keys[i]),
                            int(played[i].sum()), float(points[i]), groups[i])
               for i in range(len(order))]
    return sorted(ratings, key=lambda rating: rating.rank)


def _names(games: list[tuple[str, str, float]], names: Sequence[str]) -> list[str]:
    """Every player, those of `names` first; each game checked."""
    order = list(dict.fromkeys(names))
    for first, second, points in games:
        if first == second:
            raise PlygroundError(f"A ladder game pairs {first} with itself.")
        if points not in (0, 0.5, 1):
            raise PlygroundError(f"A ladder game of {first} against {second} scored "
                                 f"{points}: a game scores 1, 0.5 or 0.")
        for name in (first, second):
            if name not in order:
                order.append(name)
    return order


def _reach(edges: np.ndarray) -> np.ndarray:
    """reach[a, b]: whether a path of "scored against" links a to b (a reaches itself)."""
    reach = edges | np.eye(len(edges), dtype=bool)
    while True:
        wider = reach | ((reach.astype(np.int64) @ reach.astype(np.int64)) > 0)
        if (wider == reach).all():
            return reach
        reach = wider


def _core(reach: np.ndarray, played: np.ndarray, index: dict[str, int],
          anchor: str | None) -> list[int]:
    """The rated group: the largest set of players who all reach each other (ties: the
    most games, then the earliest player), or the anchor's own set."""
    mutual = reach & reach.T
    if anchor is not None:
        if anchor not in index:
            raise PlygroundError(f"The ladder's anchor {anchor} played no game.")
        core = list(np.flatnonzero(mutual[index[anchor]]))
        if len(core) < max(2, _largest(mutual)):
            raise PlygroundError(f"The ladder's anchor {anchor} has no finite rating "
                                 "relative to the class: it won or lost all its games "
                                 "against the others.")
        return core
    best = max(range(len(mutual)), key=lambda i: (mutual[i].sum(),
                                                  played[mutual[i]].sum(), -i))
    return list(np.flatnonzero(mutual[best]))


def _largest(mutual: np.ndarray) -> int:
    return int(mutual.sum(axis=1).max())


def _fit_core(core: list[int], played: np.ndarray, scored: np.ndarray,
              anchor: int | None, elo: np.ndarray, low: np.ndarray,
              high: np.ndarray) -> np.ndarray:
    """Fit the rated group, filling its elo, low and high (anchored); returns every
    player's anchored strength in natural units (only the group's entries are set)."""
    strength = np.zeros(len(played))
    if len(core) < 2:  # one player, rated against itself
        elo[core], low[core], high[core] = 0.0, 0.0, 0.0
        return strength
    position = {player: k for k, player in enumerate(core)}
    games = []
    for a in core:
        for b in core:
            if a < b and played[a, b]:
                # the arena's estimate reads single games; a pair's record is
                # equivalent to its wins, draws and losses in any order
                games += _as_games(position[a], position[b], played[a, b], scored[a, b])
    fitted = elo_ratings(len(core), games, prior=0)
    raw = np.array([(rating.elo - MEAN) / ELO for rating in fitted])
    inner = played[np.ix_(core, core)]
    information = _expectation(raw, inner, 0)[2]
    if anchor is None:
        contrast = np.eye(len(core)) - 1 / len(core)  # each minus the mean
    else:
        contrast = np.eye(len(core))
        contrast[:, position[anchor]] -= 1  # each minus the anchor
    # any generalised inverse gives the same covariance of contrasts; the information
    # is singular only along a shift of every strength, which contrasts ignore
    covariance = contrast @ np.linalg.pinv(information) @ contrast.T
    anchored = contrast @ raw
    error = np.sqrt(np.clip(np.diag(covariance), 0, None))
    strength[core] = anchored
    elo[core] = ELO * anchored
    low[core] = ELO * (anchored - Z95 * error)
    high[core] = ELO * (anchored + Z95 * error)
    return strength


def _as_games(a: int, b: int, played: float, scored: float) -> list[tuple[int, int, float]]:
    """A pair's record as single games: whole points won, a half point drawn."""
    wins = int(scored)
    draws = int(round((scored - wins) * 2))
    return ([(a, b, 1.0)] * wins + [(a, b, 0.5)] * draws
            + [(a, b, 0.0)] * int(round(played - wins - draws)))


def _group(i: int, core: list[int], reach: np.ndarray) -> str:
    if i in core:
        return "rated"
    to_core, from_core = reach[i, core].any(), reach[core, i].any()
    if to_core and not from_core:
        return "above"
    if from_core and not to_core:
        return "below"
    return "unlinked"


def _one_sided_bound(opponents: np.ndarray, counts: np.ndarray, sign: int) -> float:
    """The 95% likelihood-ratio bound, in Elo, of a player who won (sign +1) or lost
    (sign -1) all its `counts` games against opponents of these strengths: where the
    log-likelihood of that record falls to -3.84/2 (its supremum, at ±inf, is 0).
    ±inf when it played none of them."""
    if not len(opponents):
        return -sign * math.inf

    def log_likelihood(rating: float) -> float:
        return float(-np.sum(counts * np.logaddexp(0, -sign * (rating - opponents))))

    # the log-likelihood rises monotonically towards 0 in the direction of `sign`:
    # bracket the crossing, then bisect
    near, far = float(opponents.mean()), float(opponents.mean())
    while log_likelihood(near) > -HALF_CHI2_95:
        near -= sign * 8
    while log_likelihood(far) < -HALF_CHI2_95:
        far += sign * 8
    for _ in range(100):
        middle = (near + far) / 2
        if log_likelihood(middle) < -HALF_CHI2_95:
            near = middle
        else:
            far = middle
    return ELO * (near + far) / 2


def _rank_key(group: str, elo: float, low: float, high: float,
              points: float) -> tuple[float, float, float]:
    """Higher is better: the group first, then the finite figure that orders it (the
    Elo rounded, so that equal strengths tie), then, outside the rated group, the
    points (inside it the Elo already weighs them by the opponents)."""
    if group == "rated":
        return (GROUP_ORDER[group], round(elo, 3), 0.0)
    if group == "above":
        figure = low
    elif group == "below":
        figure = high
    else:
        figure = 0.0
    return (GROUP_ORDER[group], figure, points)
