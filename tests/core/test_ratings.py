"""Elo ratings by maximum likelihood: the closed form for two players, symmetry, order,
the prior that keeps an unbeaten player finite, and standard errors."""
from __future__ import annotations

import math

import pytest

from plyground.core.play.ratings import ELO, elo_ratings


def games(a: int, b: int, wins: int, draws: int = 0, losses: int = 0):
    return [(a, b, 1.0)] * wins + [(a, b, 0.5)] * draws + [(a, b, 0.0)] * losses


@pytest.mark.parametrize("wins, draws, losses", [(3, 0, 1), (5, 2, 3), (1, 8, 0)])
def test_two_players_differ_by_the_closed_form_without_the_prior(wins, draws, losses):
    first, second = elo_ratings(2, games(0, 1, wins, draws, losses), prior=0)
    n = wins + draws + losses
    p = (wins + draws / 2) / n
    assert first.elo - second.elo == pytest.approx(400 * math.log10(p / (1 - p)))
    # the difference's standard error is 1/sqrt(n p (1-p)); each rating carries half
    assert first.error == second.error == pytest.approx(ELO / math.sqrt(n * p * (1 - p)) / 2)


def test_symmetric_results_give_equal_ratings_around_1500():
    cycle = games(0, 1, 2, 1, 1) + games(1, 2, 2, 1, 1) + games(2, 0, 2, 1, 1)
    for prior in (0, 1):
        ratings = elo_ratings(3, cycle, prior=prior)
        assert [r.elo for r in ratings] == pytest.approx([1500] * 3)
        assert ratings[0].error == pytest.approx(ratings[1].error)


def test_ratings_follow_strength_and_average_1500():
    results = (games(0, 1, 6, 2, 2) + games(0, 2, 8, 1, 1) + games(1, 2, 6, 2, 2)
               + games(0, 3, 10) + games(1, 3, 7, 2, 1) + games(2, 3, 6, 0, 4))
    ratings = [r.elo for r in elo_ratings(4, results)]
    assert ratings == sorted(ratings, reverse=True)
    assert sum(ratings) / 4 == pytest.approx(1500)


def test_the_prior_keeps_an_unbeaten_player_finite_and_without_it_is_an_error():
    best, worst = elo_ratings(2, games(0, 1, 10))
    assert 1500 < best.elo < 2500 and worst.elo == pytest.approx(3000 - best.elo)
    assert [r.elo for r in elo_ratings(3, [])] == [1500] * 3  # nobody played yet
    with pytest.raises(ValueError):
        elo_ratings(2, games(0, 1, 10), prior=0)


def test_the_uncertainty_shrinks_with_more_games():
    errors = [elo_ratings(2, games(0, 1, 3 * n, n, 2 * n))[0].error for n in (1, 4, 16)]
    assert errors[0] > errors[1] > errors[2]
    assert errors[1] / errors[2] == pytest.approx(2, rel=0.1)  # as 1/sqrt(games)
