"""The genetic algorithm that tunes the Connect 4 strategy agent's genes.

A generation is a population of gene sets (`Profile.genes`: four probabilities). Each
generation:

1. Fitness: a round robin in which every pair plays two games, one with each colour;
   a profile's fitness is its score in its games (a win 1, a draw 1/2) over the games.
2. The `survivors` fittest go on (ties: the earlier in the population).
3. Crossing: pairs of survivors, the fittest pairs first (every pair when the
   population has room for all their children), each give one child by the seed's
   "intelligent crossover": the child takes each gene from one parent, and the
   combinations are tried in a seeded order until one beats both parents (more points
   than its parent in two games with each colour against it); if none does, the child
   that scored best against them is kept.
4. Mutation: one random gene of each child moves up or down by the mutation step, kept
   in [0, 1].

The next population is the survivors and their children. Every random draw comes
from the training seed through `derive_seed`, per game and per crossing, so the same
settings give the same result whatever plays the games: this machine's worker
processes or a Dask cluster (core/play/cluster.py).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from ..errors import PlygroundError
from ..games.connect4 import GAME as CONNECT4
from .strategies import GENE_NAMES, choose_column
from ..rng import SplitMix64, derive_seed
from ..play.cluster import open_pool
from ..play.spawn import interrupts_deferred
from ..play.tournament import round_robin

Genes = tuple[float, ...]
GENE_DIGITS = 6  # genes are rounded so that a saved profile reads back the same


class TrainingError(PlygroundError):
    """Training settings that cannot work."""


# a round robin plays twice each pair: a thousand profiles are a million games a
# generation, more than a person would wait for
LARGEST_POPULATION = 1000


@dataclass(frozen=True)
class TrainingSettings:
    population: int = 12
    generations: int = 20
    survivors: int = 6
    mutation: float = 0.1
    seed: int = 1

    def check(self) -> None:
        if not 3 <= self.population <= LARGEST_POPULATION:
            raise TrainingError(f"the population needs 3 to {LARGEST_POPULATION} "
                                f"profiles, not {self.population}")
        if not 2 <= self.survivors < self.population:
            raise TrainingError(f"survivors must be at least 2 and fewer than the "
                                f"population ({self.population}), not {self.survivors}")
        if self.generations < 1:
            raise TrainingError("train for at least 1 generation")
        if not 0 <= self.mutation <= 1:
            raise TrainingError(f"the mutation step must be in [0, 1], not {self.mutation}")


@dataclass(frozen=True)
class Generation:
    """One generation's outcome: its population ranked, fittest first."""

    number: int  # 1, 2, ...
    ranked: tuple[Genes, ...]
    fitness: tuple[float, ...]  # of `ranked`, in the same order

    @property
    def best(self) -> Genes:
        return self.ranked[0]

    @property
    def best_fitness(self) -> float:
        return self.fitness[0]

    @property
    def mean_fitness(self) -> float:
        return sum(self.fitness) / len(self.fitness)


# --- one game, and the work units the pool runs ------------------------------------

def play(first: Genes, second: Genes, seed: int) -> int | None:
    """One Connect 4 game between two gene sets, `first` moving first: the winner (0 or
    1), or None for a draw."""
    state = CONNECT4.start()
    genes = (first, second)
    rngs = (SplitMix64(derive_seed(seed, 0)), SplitMix64(derive_seed(seed, 1)))
    while state.outcome() is None:
        side = state.to_move
        state = state.play(choose_column(state, genes[side], rngs[side]))
    return state.outcome().winner


def points(a: Genes, b: Genes, seed: int) -> float:
    """`a`'s points in two games against `b`, one with each colour."""
    total = 0.0
    for colour in (0, 1):
        players = (a, b) if colour == 0 else (b, a)
        winner = play(*players, derive_seed(seed, colour))
        total += 0.5 if winner is None else float(winner == colour)
    return total


def cross(a: Genes, b: Genes, mutation: float, seed: int) -> Genes:
    """A child of `a` and `b` by intelligent crossover, then mutated (see the module's
    doc)."""
    rng = SplitMix64(seed)
    masks = list(range(1, (1 << len(a)) - 1))  # every mix that is neither parent
    for i in range(len(masks) - 1, 0, -1):  # a seeded shuffle
        j = rng.below(i + 1)
        masks[i], masks[j] = masks[j], masks[i]
    best, best_points = None, -1.0
    for number, mask in enumerate(masks):
        child = tuple(b[g] if mask >> g & 1 else a[g] for g in range(len(a)))
        against = [points(child, parent, derive_seed(seed, 2 * number + side))
                   for side, parent in enumerate((a, b))]
        if min(against) > 1:  # more than half of two games against each parent
            best = child
            break
        if sum(against) > best_points:
            best, best_points = child, sum(against)
    return mutate(best, mutation, rng)


def mutate(genes: Genes, step: float, rng: SplitMix64) -> Genes:
    gene = rng.below(len(genes))
    moved = genes[gene] + (step if rng.below(2) else -step)
    moved = round(min(1.0, max(0.0, moved)), GENE_DIGITS)
    return genes[:gene] + (moved,) + genes[gene + 1:]


# --- the algorithm ----------------------------------------------------------------

def first_population(settings: TrainingSettings) -> list[Genes]:
    rng = SplitMix64(derive_seed(settings.seed, 0))
    return [tuple(round(rng.random(), GENE_DIGITS) for _ in GENE_NAMES)
            for _ in range(settings.population)]


def crossing_pairs(survivors: int, children: int) -> list[tuple[int, int]]:
    """Which ranked survivors to cross for `children` children: the pairs in order of
    their ranks' sum (the fittest pairs first), again from the start if there are too
    few pairs."""
    pairs = sorted(itertools.combinations(range(survivors), 2), key=lambda p: (sum(p), p))
    return [pairs[k % len(pairs)] for k in range(children)]


def train(settings: TrainingSettings, jobs: int | None,
          progress: Callable[[int], None] = lambda done: None,
          cluster: str | None = None) -> Iterator[Generation]:
    """Run the algorithm, yielding each generation as it ends, its games played by
    `jobs` worker processes (one per core by default), or on the Dask cluster whose
    scheduler is at `cluster`. `progress(n)` is called as every n work units (games
    pairs, crossings) finish; `units_per_generation` tells how many a generation has.
    Closing the generator early, or Ctrl-C, stops the workers."""
    settings.check()
    population = first_population(settings)
    with open_pool(CONNECT4, jobs, cluster) as pool:
        for number in range(1, settings.generations + 1):
            generation = rank(population, number, settings, pool.executor, progress)
            yield generation
            if number == settings.generations:
                return
            population = list(generation.ranked[:settings.survivors]) + breed(
                generation, number, settings, pool.executor, progress)


def units_per_generation(settings: TrainingSettings) -> int:
    return (len(round_robin(settings.population))
            + settings.population - settings.survivors)


def rank(population: Sequence[Genes], number: int, settings: TrainingSettings, pool,
         progress: Callable[[int], None]) -> Generation:
    pairs = round_robin(len(population))
    seeds = [derive_seed(settings.seed, (number << 32) | (i << 16) | j) for i, j in pairs]
    scores = [0.0] * len(population)
    with interrupts_deferred():  # the pool may start its workers here
        jobs = pool.map(points, [population[i] for i, _ in pairs],
                        [population[j] for _, j in pairs], seeds)
    for (i, j), won in zip(pairs, jobs):
        scores[i] += won
        scores[j] += 2 - won
        progress(1)
    games = 2 * (len(population) - 1)
    order = sorted(range(len(population)), key=lambda k: (-scores[k], k))
    return Generation(number, tuple(population[k] for k in order),
                      tuple(scores[k] / games for k in order))


def breed(generation: Generation, number: int, settings: TrainingSettings, pool,
          progress: Callable[[int], None]) -> list[Genes]:
    pairs = crossing_pairs(settings.survivors, settings.population - settings.survivors)
    seeds = [derive_seed(settings.seed, (1 << 60) | (number << 32) | k)
             for k in range(len(pairs))]
    with interrupts_deferred():  # the pool may start its workers here
        crossed = pool.map(cross, [generation.ranked[i] for i, _ in pairs],
                           [generation.ranked[j] for _, j in pairs],
                           [settings.mutation] * len(pairs), seeds)
    children = []
    for child in crossed:
        children.append(child)
        progress(1)
    return children
