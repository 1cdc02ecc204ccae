"""Elo ratings from the games of many players against each other.

The model is Bradley–Terry on the Elo scale: a player rated d points above another
scores 1 / (1 + 10^(-d/400)) against it on average, and a draw counts as half a win.
The ratings are its maximum-likelihood estimate (Newton's method), shifted so that
their mean is 1500.

A weak prior keeps every rating finite, even an unbeaten player's or one that has not
played: `prior` virtual draws of each player against a reference rated 1500. With
`prior=0` the estimate is the plain maximum likelihood, which exists only when no
player (nor group of players) won or lost all its games against the others.

A rating's ± is its standard error relative to the pool's mean, from the inverse of
the observed information matrix at the estimate (no bootstrap): about 2 in 3 times
the player's true rating lies within it. Pure functions; nothing here prints.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

import numpy as np

MEAN = 1500.0
ELO = 400 / math.log(10)  # Elo points per natural unit of strength


@dataclass(frozen=True)
class Rating:
    elo: float
    error: float  # the standard error (±), in Elo points


def elo_ratings(players: int, games: Iterable[tuple[int, int, float]],
                prior: float = 1.0) -> list[Rating]:
    """Players 0..players-1 rated from `games`, each (a, b, a's score: 1, 1/2 or 0).

    Raises ValueError when no finite maximum exists (only possible with prior=0; then
    every player must have played, too)."""
    played = np.zeros((players, players))  # games between a and b
    scored = np.zeros((players, players))  # a's points against b
    for a, b, score in games:
        played[a, b] += 1
        played[b, a] += 1
        scored[a, b] += score
        scored[b, a] += 1 - score
    if prior == 0 and not _strongly_connected(scored > 0):
        raise ValueError("the ratings have no finite maximum likelihood: some players "
                         "scored nothing against the others")
    points = scored.sum(axis=1) + prior / 2  # the prior's half points included

    def log_likelihood(strength: np.ndarray) -> float:
        pairs = np.logaddexp(strength[:, None], strength[None, :])
        return float(points @ strength - np.sum(played * pairs) / 2
                     - prior * np.sum(np.logaddexp(strength, 0)))

    strength = np.zeros(players)  # natural units; the reference is 0
    for _ in range(200):
        versus, reference, information = _expectation(strength, played, prior)
        gradient = points - (played * versus).sum(axis=1) - prior * reference
        # least squares: with no prior, the information is singular along a shift of
        # every rating, which the likelihood ignores
        step = np.linalg.lstsq(information, gradient, rcond=None)[0]
        before = log_likelihood(strength)
        while log_likelihood(strength + step) < before and np.abs(step).max() > 1e-12:
            step /= 2  # a full Newton step can overshoot from far away
        strength += step
        if np.abs(step).max() < 1e-9:
            break
    centre = np.eye(players) - 1 / players  # errors relative to the pool's mean
    covariance = centre @ np.linalg.pinv(_expectation(strength, played, prior)[2]) @ centre
    errors = ELO * np.sqrt(np.clip(np.diag(covariance), 0, None))
    elos = MEAN + ELO * (strength - strength.mean())
    return [Rating(float(elo), float(error)) for elo, error in zip(elos, errors)]


def _expectation(strength: np.ndarray, played: np.ndarray, prior: float
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """P(a beats b) for every a, b; P(a beats the reference); the observed information
    (minus the log-likelihood's Hessian)."""
    versus = 0.5 + 0.5 * np.tanh((strength[:, None] - strength[None, :]) / 2)
    reference = 0.5 + 0.5 * np.tanh(strength / 2)
    weights = played * versus * (1 - versus)
    information = np.diag(weights.sum(axis=1) + prior * reference * (1 - reference))
    return versus, reference, information - weights


def _strongly_connected(edges: np.ndarray) -> bool:
    """Whether every node reaches every other along the edges a -> b where edges[a, b]."""
    for graph in (edges, edges.T):
        reached = np.eye(len(graph), dtype=bool)[0]
        for _ in range(len(graph)):
            reached = reached | graph[reached].any(axis=0)
        if not reached.all():
            return False
    return True
