"""The genetic trainer: crossing, mutation, ranking, and the same result from the same
seed whatever the number of workers."""
from __future__ import annotations

import pytest

from plyground.core.ga.trainer import (TrainingError, TrainingSettings, cross,
                                       crossing_pairs, first_population, mutate, points,
                                       train)
from plyground.core.rng import SplitMix64

A = (0.1, 0.2, 0.3, 0.4)
B = (0.9, 0.8, 0.7, 0.6)


def test_a_mutation_moves_one_gene_by_the_step_within_0_and_1():
    rng = SplitMix64(5)
    moved_down = moved_up = 0
    for _ in range(200):
        genes = mutate(A, 0.25, rng)
        changed = [g for g in range(4) if genes[g] != A[g]]
        assert len(changed) == 1
        g = changed[0]
        assert genes[g] == pytest.approx(max(0.0, A[g] - 0.25)) or \
            genes[g] == pytest.approx(A[g] + 0.25)
        moved_up += genes[g] > A[g]
        moved_down += genes[g] < A[g]
    assert moved_up and moved_down
    assert mutate((1.0, 1.0, 1.0, 1.0), 0.5, SplitMix64(1)).count(1.0) >= 3
    assert all(0 <= g <= 1 for g in mutate((1.0, 0.0, 1.0, 0.0), 0.5, SplitMix64(2)))


def test_a_child_takes_each_gene_from_a_parent_but_one_mutated():
    for seed in range(6):
        child = cross(A, B, 0.05, seed)
        from_parents = [g for g in range(4) if child[g] in (A[g], B[g])]
        assert len(from_parents) >= 3
        assert child not in (A, B)  # a mix of both, or a parent's genes mutated
        assert cross(A, B, 0.05, seed) == child  # the same seed, the same child


def test_points_count_two_games():
    for seed in range(5):
        mine = points(A, B, seed)
        assert mine in (0.0, 0.5, 1.0, 1.5, 2.0)
    # against itself with the same seeds, each colour's game is the same game
    assert points(A, A, 3) == pytest.approx(1.0)


def test_the_fittest_pairs_are_crossed_first():
    assert crossing_pairs(3, 3) == [(0, 1), (0, 2), (1, 2)]
    assert crossing_pairs(4, 4) == [(0, 1), (0, 2), (0, 3), (1, 2)]
    assert crossing_pairs(2, 3) == [(0, 1), (0, 1), (0, 1)]


def test_bad_settings_are_refused_with_a_reason():
    for settings, words in ((TrainingSettings(population=5, survivors=5), "survivors"),
                            (TrainingSettings(population=2, survivors=1), "population"),
                            (TrainingSettings(mutation=1.5), "mutation"),
                            (TrainingSettings(generations=0), "generation")):
        with pytest.raises(TrainingError, match=words):
            settings.check()


def run(settings: TrainingSettings, jobs: int):
    return list(train(settings, jobs))


def test_training_is_the_same_from_the_same_seed_with_any_number_of_workers():
    settings = TrainingSettings(population=5, generations=3, survivors=3, mutation=0.2,
                                seed=11)
    one, two = run(settings, 1), run(settings, 2)
    assert one == two
    assert len(one) == 3 and all(len(g.ranked) == 5 for g in one)
    assert sorted(one[0].ranked) == sorted(first_population(settings))
    for generation in one:
        assert list(generation.fitness) == sorted(generation.fitness, reverse=True)
        # every game hands out one point, so the mean score is a half
        assert generation.mean_fitness == pytest.approx(0.5)
    # the survivors of one generation are in the next
    for before, after in zip(one, one[1:]):
        assert set(before.ranked[:3]) <= set(after.ranked)
    other = run(TrainingSettings(population=5, generations=3, survivors=3, mutation=0.2,
                                 seed=12), 1)
    assert other != one
