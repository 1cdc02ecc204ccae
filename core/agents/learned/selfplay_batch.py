"""Many self-play and evaluation games at once, through the compiled, batched PUCT
(fast/puct_batch.py): every game's search walks its tree in numba, and each round the
new leaves of all the games go through the network in one call, so that the network,
not the search, sets the pace.

A game played here is the game `selfplay.play_out` plays: the same searches (one leaf
a round per game and batch as settings.batch, the same virtual loss and arithmetic),
the same noise drawn from the same seeds (Dirichlet at the root, from
derive_seed(seed, ply + 1)), the same moves drawn from the same SplitMix64 stream, so
the same samples; only the network's batches are larger. A game whose rules have no
kernels (its registration's `kernels.puct`) is played by `selfplay.play`, one at a time.

Jobs travel in batches (JobBatch): `batches` splits a generation's jobs into a fixed
number of parts that depends on the number of jobs alone (not on the workers), so a
training gives the same samples on one process or many.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

from ...fast.puct_batch import BatchPuct, kernels_for
from ...game import Game, State, parse_game
from ...rng import SplitMix64, derive_seed
from ...search.control import SearchStopped, StopFlag
from .net import Net, one_blas_thread
from .selfplay import (NOISE_FRACTION, NOISE_SCALE, EvalJob, Played, Samples, SelfPlayJob,
                       choose, opening_of, play, samples_of)
from .settings import PlaySettings

MIN_PARTS = 2  # a generation's batches at least (the two cores of a small machine)
MOST_GAMES = 64  # games in a batch at most: more adds little and delays the first result
START_NODES = 4096  # a game's first room in the tree (a search of more grows it)


@dataclass(frozen=True)
class Seat:
    """One game to play: from `start`, `nets[side]` searching for each side, its draws
    from `seed`, exploring (self-play) or not (evaluation)."""

    start: State
    nets: tuple[Net, Net]
    seed: int
    explore: bool


def play_many(game: Game, seats: Sequence[Seat], settings: PlaySettings,
              stop: StopFlag | None = None) -> list[Played]:
    """Play every seat's game out together, as selfplay.play_out plays each. Setting
    `stop` ends them within a round, with SearchStopped."""
    kernels = kernels_for(game)
    encoding = game.encoding()
    search = BatchPuct(kernels, len(seats), min(settings.sims + 1, START_NODES),
                       settings.batch, settings.c, encoding.policy_size, encoding.shape)
    nets: list[Net] = []  # each distinct net once: one network call a net a round
    seat_nets = [[_number(nets, net) for net in seat.nets] for seat in seats]
    forwards = [net.forward for net in nets]
    states = [seat.start for seat in seats]
    rngs = [SplitMix64(derive_seed(seat.seed, 0)) for seat in seats]
    positions: list[list] = [[] for _ in seats]
    moves: list[list] = [[] for _ in seats]
    for number, state in enumerate(states):
        if state.outcome() is None:
            search.start(number, state, settings.sims, seat_nets[number][state.to_move])
    while search.busy():
        if stop is not None and stop.is_set():
            raise SearchStopped
        for number in search.round(forwards):
            if seats[number].explore:
                state = states[number]
                search.add_noise(number, NOISE_SCALE / len(state.moves()),
                                 NOISE_FRACTION, derive_seed(seats[number].seed,
                                                             len(moves[number]) + 1))
        for number, seat in enumerate(seats):
            if not search.done(number):
                continue
            state, ply = states[number], len(moves[number])
            counts = search.root_moves(number)[1].tolist()
            visits = [(move, count) for move, count in zip(state.moves(), counts)
                      if count]
            positions[number].append((state, visits))
            moves[number].append(choose(visits, seat.explore and ply < settings.sample_plies,
                                        rngs[number]))
            state = states[number] = state.play(moves[number][-1])
            if state.outcome() is None:
                search.start(number, state, settings.sims,
                             seat_nets[number][state.to_move])
            else:
                search.stop(number)
    return [Played(positions[n], moves[n], states[n]) for n in range(len(seats))]


def _number(nets: list[Net], net: Net) -> int:
    """`net`'s place in `nets`, added if it is new (by identity)."""
    for number, known in enumerate(nets):
        if known is net:
            return number
    nets.append(net)
    return len(nets) - 1


@dataclass(frozen=True)
class JobBatch:
    """Jobs (self-play or evaluation games of one game and settings) played together."""

    jobs: tuple[SelfPlayJob | EvalJob, ...]


def play_batch(batch: JobBatch, stop: StopFlag | None = None) -> list[Samples | float]:
    """Each job's result, as selfplay.play gives it, the games played together where
    the game has kernels. Module-level, so a worker process can run it."""
    if not batch.jobs:
        return []
    one_blas_thread()  # an unpickled net set none: a worker's BLAS would use every core
    first = batch.jobs[0]
    game = parse_game(first.game_spec)
    if kernels_for(game) is None or any(job.game_spec != first.game_spec
                                        or job.settings != first.settings
                                        for job in batch.jobs):
        return [play(job, stop) for job in batch.jobs]
    seats = []
    for job in batch.jobs:
        if isinstance(job, SelfPlayJob):
            seats.append(Seat(game.start(), (job.net, job.net), job.seed, True))
        else:
            start, new_side = opening_of(game, job)
            new, old = job.nets
            seats.append(Seat(start, (new, old) if new_side == 0 else (old, new),
                              job.seed, False))
    results: list[Samples | float] = []
    for job, played in zip(batch.jobs, play_many(game, seats, first.settings, stop)):
        if isinstance(job, SelfPlayJob):
            results.append(samples_of(game, played, job.number))
        else:
            winner = played.final.outcome().winner
            new_side = opening_of(game, job)[1]
            results.append(0.5 if winner is None else float(winner == new_side))
    return results


def batches(jobs: Sequence, most: int = MOST_GAMES) -> list[JobBatch]:
    """`jobs` in consecutive batches: at least MIN_PARTS (if there are as many jobs),
    at most `most` jobs each, as even as can be."""
    parts = min(len(jobs), max(MIN_PARTS, math.ceil(len(jobs) / most)))
    bounds = [round(k * len(jobs) / parts) for k in range(parts + 1)] if parts else [0]
    return [JobBatch(tuple(jobs[a:b])) for a, b in zip(bounds, bounds[1:])]


MapJobs = Callable[[Callable, list], Iterable]


def play_all(map_jobs: MapJobs, jobs: Sequence) -> Iterator[Samples | float]:
    """Every job's result in the jobs' order, the jobs played in batches by
    `map_jobs` (map, or a pool's)."""
    for results in map_jobs(play_batch, batches(jobs)):
        yield from results
