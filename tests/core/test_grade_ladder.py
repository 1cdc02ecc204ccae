"""The class ladder: Bradley–Terry Elo with 95% intervals, and its pairings."""
from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from plyground.core.errors import PlygroundError
from plyground.core.grade.ladder import ladder
from plyground.core.grade.pairings import round_robin, swiss, swiss_round

ELO = 400 / math.log(10)
Z95 = 1.959963984540054


def by_name(ratings):
    return {rating.name: rating for rating in ratings}


def games(first, second, wins, draws, losses):
    return ([(first, second, 1)] * wins + [(first, second, 0.5)] * draws
            + [(first, second, 0)] * losses)


# three players who beat each other around, with draws and both colours
THREE = (games("a", "b", 5, 2, 1) + games("b", "c", 3, 1, 2) + games("c", "a", 1, 2, 4)
         + games("b", "a", 0, 1, 1))


def log_likelihood(strength, results, index):
    """Bradley–Terry with draws as half a win each way, written out game by game."""
    total = 0.0
    for first, second, points in results:
        d = strength[index[first]] - strength[index[second]]
        total += points * -np.logaddexp(0, -d) + (1 - points) * -np.logaddexp(0, d)
    return total


def reference_fit(results, names, anchor):
    """The maximum likelihood with `anchor` held at 0, by Newton's method on a
    finite-difference gradient and Hessian of the likelihood above; and the anchored
    covariance, the inverse of minus that Hessian. Independent of the module's code."""
    index = {name: i for i, name in enumerate(names)}
    free = [i for i, name in enumerate(names) if name != anchor]
    h = 1e-4

    def f(x):
        full = np.zeros(len(names))
        full[free] = x
        return log_likelihood(full, results, index)

    def grad_hess(x):
        n = len(x)
        g, hess = np.zeros(n), np.zeros((n, n))
        for i in range(n):
            e = np.eye(n)[i] * h
            g[i] = (f(x + e) - f(x - e)) / (2 * h)
            for j in range(n):
                u = np.eye(n)[j] * h
                hess[i, j] = (f(x + e + u) - f(x + e - u) - f(x - e + u) + f(x - e - u)) / (4 * h * h)
        return g, hess

    x = np.zeros(len(free))
    for _ in range(30):
        g, hess = grad_hess(x)
        x = x - np.linalg.solve(hess, g)
    _, hess = grad_hess(x)
    full = np.zeros(len(names))
    full[free] = x
    covariance = np.zeros((len(names), len(names)))
    covariance[np.ix_(free, free)] = np.linalg.inv(-hess)
    return full, covariance


def test_two_players_match_the_closed_form():
    # a scores p = 7/10 over 10 games: d = 400 log10(p / (1 - p)), var d = 1 / (n p (1-p))
    ratings = by_name(ladder(games("a", "b", 6, 2, 2)))
    p, n = 0.7, 10
    gap = 400 * math.log10(p / (1 - p))
    assert ratings["a"].elo == pytest.approx(gap / 2, abs=1e-6)
    assert ratings["b"].elo == pytest.approx(-gap / 2, abs=1e-6)
    half_width = Z95 * ELO / math.sqrt(n * p * (1 - p)) / 2  # each is half the gap
    assert ratings["a"].high - ratings["a"].elo == pytest.approx(half_width, rel=1e-6)
    assert ratings["a"].elo - ratings["a"].low == pytest.approx(half_width, rel=1e-6)


def test_three_players_match_an_independent_maximum_likelihood():
    names = ["a", "b", "c"]
    strength, covariance = reference_fit(THREE, names, "b")
    ratings = by_name(ladder(THREE, anchor="b"))
    for i, name in enumerate(names):
        assert ratings[name].elo == pytest.approx(ELO * strength[i], abs=1e-3)
        width = Z95 * ELO * math.sqrt(covariance[i, i])
        assert ratings[name].high - ratings[name].low == pytest.approx(2 * width, rel=1e-3)
    assert ratings["b"].elo == 0 and ratings["b"].low == ratings["b"].high == 0
    assert "reference" in ratings["b"].describe() and "95%" in ratings["a"].describe()
    # anchored on the mean: the same gaps, shifted so that they sum to 0
    mean = by_name(ladder(THREE))
    assert sum(mean[name].elo for name in names) == pytest.approx(0, abs=1e-6)
    assert mean["a"].elo - mean["c"].elo == pytest.approx(ELO * (strength[0] - strength[2]),
                                                          abs=1e-3)


def test_ranks_follow_the_strengths():
    ranked = ladder(THREE)
    assert [rating.name for rating in ranked] == ["a", "b", "c"]
    assert [rating.rank for rating in ranked] == [1, 2, 3]
    assert ranked[0].elo > ranked[1].elo > ranked[2].elo
    assert all(isinstance(rating.rank, int) for rating in ranked)
    assert by_name(ranked)["a"].games == 17 and by_name(ranked)["a"].points == 12.5


def test_symmetric_results_give_equal_ratings_and_ranks():
    results = (games("a", "b", 2, 1, 2) + games("b", "c", 2, 1, 2) + games("c", "a", 2, 1, 2)
               + games("a", "c", 1, 0, 1))
    ranked = ladder(results)
    for rating in ranked:
        assert rating.elo == pytest.approx(0, abs=1e-6)
        assert rating.rank == 1


def test_intervals_shrink_with_more_games():
    few = by_name(ladder(games("a", "b", 3, 1, 2) + games("b", "c", 2, 0, 1)
                         + games("c", "a", 1, 1, 1)))
    many = by_name(ladder(games("a", "b", 30, 10, 20) + games("b", "c", 20, 0, 10)
                          + games("c", "a", 10, 10, 10)))
    for name in "abc":
        assert many[name].high - many[name].low < (few[name].high - few[name].low) / 2
        assert many[name].elo == pytest.approx(few[name].elo, abs=1e-6)


def test_an_undefeated_and_a_winless_player_get_open_intervals():
    results = THREE + games("d", "a", 3, 0, 0) + games("b", "d", 0, 0, 2) \
        + games("e", "c", 0, 0, 4) + games("a", "e", 1, 0, 0)
    ratings = by_name(ladder(results))
    top, bottom = ratings["d"], ratings["e"]
    assert top.group == "above" and top.elo == math.inf and top.high == math.inf
    assert math.isfinite(top.low) and abs(top.low) < 1000
    assert bottom.group == "below" and bottom.elo == -math.inf and bottom.low == -math.inf
    assert math.isfinite(bottom.high) and abs(bottom.high) < 1000
    assert top.rank == 1 and bottom.rank == 5
    assert "+∞" in top.describe() and "at least" in top.describe()
    assert "−∞" in bottom.describe() and "at most" in bottom.describe()
    # the rated players are fitted on their own games: the extremes do not move them
    alone = by_name(ladder(THREE))
    for name in "abc":
        assert ratings[name].elo == pytest.approx(alone[name].elo, abs=1e-6)
    # the bound: where the chance of d's five wins falls to exp(-3.84 / 2)
    s = {name: ratings[name].elo / ELO for name in "abc"}
    r = top.low / ELO
    chance = (1 / (1 + math.exp(-(r - s["a"])))) ** 3 * (1 / (1 + math.exp(-(r - s["b"])))) ** 2
    assert math.log(chance) == pytest.approx(-3.841458820694124 / 2, abs=1e-6)


def test_a_player_linked_to_nobody_is_unrated_and_an_unrated_anchor_is_refused():
    ratings = by_name(ladder(THREE + games("x", "y", 1, 0, 0), names=["z"]))
    assert ratings["z"].group == "unlinked" and math.isnan(ratings["z"].elo)
    assert ratings["z"].games == 0
    # a pair that only played each other is linked to nobody else either: below the
    # rated players, ordered by points
    assert ratings["x"].group == ratings["y"].group == "unlinked"
    assert (ratings["x"].rank, ratings["y"].rank, ratings["z"].rank) == (4, 5, 5)
    with pytest.raises(PlygroundError, match="no finite rating"):
        ladder(THREE + games("d", "a", 2, 0, 0), anchor="d")


def test_bad_results_are_refused_in_one_sentence():
    with pytest.raises(PlygroundError, match="scores 1, 0.5 or 0"):
        ladder([("a", "b", 2)])
    with pytest.raises(PlygroundError, match="itself"):
        ladder([("a", "a", 1)])


@pytest.mark.parametrize("players", [2, 5, 8])
@pytest.mark.parametrize("games_per_pair", [1, 2, 4])
def test_round_robin_meets_each_pair_as_often_as_asked_colours_balanced(players,
                                                                        games_per_pair):
    names = [f"s{i}" for i in range(players)]
    jobs = round_robin(names, games_per_pair)
    pairs = Counter(frozenset((job.first, job.second)) for job in jobs)
    assert len(pairs) == players * (players - 1) // 2
    assert set(pairs.values()) == {games_per_pair}
    for pair in pairs:  # colours alternate within a pair
        order = [job.first for job in jobs if {job.first, job.second} == pair]
        assert all(order[k] != order[k + 1] for k in range(len(order) - 1))
    firsts = Counter(job.first for job in jobs)
    assert max(firsts[n] for n in names) - min(firsts[n] for n in names) <= 1
    assert [job.game for job in jobs] == list(range(len(jobs)))
    for number in {job.round for job in jobs}:
        seated = [p for job in jobs if job.round == number for p in (job.first, job.second)]
        assert len(seated) == len(set(seated))


def test_swiss_repeats_no_pairing_and_is_the_same_for_the_same_seed():
    names = [f"s{i}" for i in range(8)]
    ratings = {name: 100 * i for i, name in enumerate(names)}
    stronger = {name: i for i, name in enumerate(names)}

    def play(job):  # the higher seed always wins
        return 1.0 if stronger[job.first] > stronger[job.second] else 0.0

    for kwargs in ({}, {"ratings": ratings}, {"ratings": ratings, "play": play}):
        jobs = swiss(names, 3, seed=7, **kwargs)
        assert len(jobs) == 12
        pairs = [frozenset((job.first, job.second)) for job in jobs]
        assert len(set(pairs)) == len(pairs)
        for number in range(3):
            seated = [p for job in jobs if job.round == number for p in (job.first, job.second)]
            assert sorted(seated) == sorted(names)
        assert swiss(names, 3, seed=7, **kwargs) == jobs
        firsts = Counter()  # of a pair, the one with fewer first moves so far moves first
        for job in jobs:
            assert firsts[job.first] <= firsts[job.second]
            firsts[job.first] += 1
    assert swiss(names, 3, seed=7) != swiss(names, 3, seed=8)
    # by score: after round 0 of a seeded Swiss, the winners meet each other
    first_round = swiss(names, 1, seed=7, ratings=ratings, play=play)
    history = [(job, play(job)) for job in first_round]
    winners = {job.first if play(job) else job.second for job in first_round}
    second_round, bye = swiss_round(names, 1, 7, ratings, history)
    assert bye is None
    assert {frozenset((j.first, j.second)) <= winners or not ({j.first, j.second} & winners)
            for j in second_round} == {True}


@pytest.mark.parametrize("scored", [False, True])
def test_swiss_gives_an_odd_class_one_bye_a_player(scored):
    names = [f"s{i}" for i in range(7)]
    strength = {name: i for i, name in enumerate(names)}

    def play(job):  # s0 loses every game, so it stays at the bottom after its bye
        return 1.0 if strength[job.first] > strength[job.second] else 0.0

    jobs = swiss(names, 5, seed=1, play=play if scored else None)
    sat_out = Counter()
    for number in range(5):
        seated = {p for job in jobs if job.round == number for p in (job.first, job.second)}
        assert len(seated) == 6
        sat_out.update(set(names) - seated)
    assert max(sat_out.values()) == 1 and sum(sat_out.values()) == 5
    pairs = [frozenset((job.first, job.second)) for job in jobs]
    assert len(set(pairs)) == len(pairs)


def test_a_sweep_of_two_has_no_finite_gap():
    winner, loser = ladder([("a", "b", 1), ("b", "a", 0)])
    assert (winner.name, winner.rank, loser.rank) == ("a", 1, 2)
    assert loser.elo == -math.inf and math.isfinite(loser.high)
    assert ladder([]) == []
