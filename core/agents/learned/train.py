"""AlphaZero's training loop: self-play, a replay buffer, gradient steps, and a gate.

A generation:
1. Self-play: `games` games of the accepted net against itself (selfplay.py); their
   samples, in game order, go into the replay buffer, which keeps the last `buffer`.
2. Training: `steps` Adam steps on the candidate net (which carries on from its own
   weights whether or not it was accepted), each on `batch` samples drawn from the
   buffer, every one seen through one of the encoding's symmetries drawn at random
   (the identity among them): augmentation at training time, so the buffer holds each
   position once and a sample meets a different mirror each time it is drawn. The
   steps run beside the self-play, on the samples of the generations before (`Steps`;
   the first generation's after its games); JAX takes them (trainer.py, the `learn`
   extra), imported only when a training starts (`load_trainer`).
3. The gate: `eval_pairs` pairs of games between the candidate and the accepted net,
   each pair from one opening with colours swapped (the game's opening suite where it
   has one, else the start after `OPENING_PLIES` seeded random moves). The candidate
   is accepted if it scores at least `ACCEPT` (50%: kept unless it loses the gate;
   AlphaGo Zero's 55% stalls a game that good play draws, where two good nets draw
   every gate game while the candidate learns on). A fixed number of pairs rather than
   an SPRT: the gate must cost the same every generation (an SPRT between two nearly
   equal nets runs for hundreds of pairs), and a count-based generation is what makes
   one seed give one training.

Every random draw comes from the seed through `derive_seed`, and every generation's
work is counted, not timed: only whether to start another generation looks at the
clock. So one seed gives the same nets on one process or many (`map_jobs` runs the
games anywhere, its results in the jobs' order). Nothing here prints or imports the
play layer: the caller hands in how to run jobs and which openings to use.
"""
from __future__ import annotations

import copy
import threading
import time
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np

from ...game import Game
from ...rng import SplitMix64, derive_seed
from ...ranges import machine_memory
from .net import MAX_NET_BYTES, Net, NetConfig
from .selfplay import EvalJob, Samples, SelfPlayJob
from .selfplay_batch import play_all
from .settings import AzSettings, TrainingError

ACCEPT = 0.5  # the candidate's score that replaces the accepted net
OPENING_PLIES = 2  # seeded random moves opening an evaluation pair without a suite

MapJobs = Callable[[Callable, list], Iterable]


@dataclass(frozen=True)
class Generation:
    """One generation's figures; `net` is the accepted net after it."""

    number: int
    games: int
    samples: int  # self-play samples made so far, this generation's included
    buffered: int
    policy_loss: float
    value_loss: float
    score: float | None  # the candidate's score in the gate (None without one)
    accepted: bool
    accepted_generation: int  # the generation whose net is the accepted one
    seconds: float  # since the training started
    net: Net


def selfplay_jobs(game: Game, net: Net, settings: AzSettings, number: int
                  ) -> list[SelfPlayJob]:
    return [SelfPlayJob(game.spec, net, settings.play,
                        derive_seed(settings.seed, (1 << 40) | (number << 20) | k), k)
            for k in range(1, settings.games + 1)]


def random_opening(game: Game, seed: int) -> str:
    """`OPENING_PLIES` random moves from the start (fewer if the game ends sooner)."""
    rng, state, moves = SplitMix64(seed), game.start(), []
    while len(moves) < OPENING_PLIES and state.outcome() is None:
        move = rng.choice(list(state.moves()))
        moves.append(move)
        state = state.play(move)
        if state.outcome() is not None:  # an opening must leave the game running
            return game.format_line(moves[:-1])
    return game.format_line(moves)


def eval_jobs(game: Game, nets: tuple[Net, Net], settings: AzSettings, number: int,
              openings: Sequence[str] | None) -> list[EvalJob]:
    """The gate's games: pair r (games 2r+1, 2r+2) from opening r."""
    base = derive_seed(settings.seed, (2 << 40) | (number << 20))
    offset = SplitMix64(base).below(len(openings)) if openings else 0
    jobs = []
    for r in range(settings.eval_pairs):
        opening = (openings[(offset + r) % len(openings)] if openings
                   else random_opening(game, derive_seed(base, r)))
        for number_in_pair in (1, 2):
            jobs.append(EvalJob(game.spec, nets, settings.play, derive_seed(base, 1 << 30 | r),
                                2 * r + number_in_pair, opening))
    return jobs


def augmented(planes: np.ndarray, policies: np.ndarray, symmetries: Sequence,
              rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Each sample seen through a symmetry drawn at random (or as it is)."""
    if not symmetries:
        return planes, policies
    planes, policies = planes.copy(), policies.copy()
    for i, pick in enumerate(rng.integers(0, len(symmetries) + 1, len(planes))):
        if pick:
            planes[i], policies[i] = symmetries[pick - 1](planes[i], policies[i])
    return planes, policies


class ReplayBuffer:
    """The last `size` samples."""

    def __init__(self, size: int) -> None:
        self.planes: deque = deque(maxlen=size)
        self.policies: deque = deque(maxlen=size)
        self.results: deque = deque(maxlen=size)

    def add(self, samples: Samples) -> None:
        self.planes.extend(samples.planes)
        self.policies.extend(samples.policies)
        self.results.extend(samples.results)

    def __len__(self) -> int:
        return len(self.results)

    def batch(self, rng: np.random.Generator, size: int):
        rows = rng.integers(0, len(self), size)
        return (np.stack([self.planes[i] for i in rows]),
                np.stack([self.policies[i] for i in rows]),
                np.array([self.results[i] for i in rows], np.float32))


def load_trainer():
    """The JAX trainer (trainer.py), imported only now: playing a net needs numpy
    alone, and training needs the `learn` extra; without it, a TrainingError saying in
    one line how to install it."""
    try:
        from . import trainer
    except ImportError as error:
        if (error.name or "").split(".")[0] not in ("jax", "jaxlib", "optax"):
            raise
        raise TrainingError("training needs the learn extra (JAX and optax): pip "
                            "install 'plyground[learn]'") from None
    return trainer


def fit(trainer, buffer: ReplayBuffer, settings: AzSettings, symmetries: Sequence,
        seed: int, stop: threading.Event | None = None) -> tuple[float, float]:
    """`settings.steps` Adam steps of `trainer` (trainer.Trainer): its mean policy and
    value losses. Each batch is drawn while JAX runs the step before it; `stop`, once
    set, ends the steps early."""
    rng = np.random.default_rng(seed)
    losses = []
    for _ in range(settings.steps):
        if stop is not None and stop.is_set():  # a training cut short: its result unused
            break
        planes, policies, results = buffer.batch(rng, settings.batch)
        planes, policies = augmented(planes, policies, symmetries, rng)
        losses.append(trainer.step(planes, policies, results))
    policy_total, value_total = np.asarray(losses, np.float64).sum(axis=0)
    return float(policy_total) / settings.steps, float(value_total) / settings.steps


def new_net(game: Game, settings: AzSettings) -> Net:
    encoding = game.encoding()
    if encoding is None:
        raise TrainingError(f"{game.title} has no encoding for a network: its "
                            "registration declares none")
    config = NetConfig(encoding.shape, encoding.policy_size, settings.channels,
                       settings.blocks)
    check_sizes(config, settings)
    return Net.new(config, derive_seed(settings.seed, 0))


def check_sizes(config: NetConfig, settings: AzSettings) -> None:
    """TrainingError, before anything is allocated, for a net too large to be saved
    and played (MAX_NET_BYTES), or a training whose arrays would not fit this machine's
    memory: the nets, Adam's moments and gradients (six copies of the parameters), a
    step's activations (each convolution keeps its 3x3 columns and its output) and the
    replay buffer, all in float32, estimated from above."""
    shapes = config.param_shapes().values()
    params = sum(np.prod(shape, dtype=np.int64) for shape in shapes)
    if 4 * params > MAX_NET_BYTES:
        raise TrainingError(f"a net of {config.channels} channels and {config.blocks} "
                            f"blocks is {4 * params / 2**20:,.0f} MB, over the "
                            f"{MAX_NET_BYTES / 2**20:.0f} MB a network file may hold: "
                            "give fewer --channels or --blocks")
    planes, rows, cols = config.shape
    convolutions = 1 + 2 * config.blocks
    step = settings.batch * rows * cols * config.channels * 10 * convolutions
    sample = planes * rows * cols + config.policy_size + 1
    needed = 4 * (6 * params + 2 * step + settings.buffer * sample)
    if needed > machine_memory():
        raise TrainingError(f"this training would take about {needed / 2**30:,.1f} GiB, "
                            f"more than this machine's {machine_memory() / 2**30:.1f} "
                            "GiB: give a smaller --batch, --buffer, --channels or "
                            "--blocks")


def train(game: Game, settings: AzSettings, map_jobs: MapJobs = map,
          openings: Sequence[str] | None = None, minutes: float | None = None,
          generations: int | None = None,
          progress: Callable[[str, int, int], None] = lambda phase, done, total: None,
          clock: Callable[[], float] = time.monotonic,
          device: str = "cpu") -> Iterator[Generation]:
    """Train, yielding each generation as it ends, until `generations` have run or the
    next would not end within `minutes` (judged by the last one's length). The first
    accepted net is the untrained one (generation 0). `progress(phase, done, total)`
    is called as each phase starts and as its self-play games and gate games end
    (phases "self-play", "training", "evaluation")."""
    settings.check()
    started = clock()
    candidate = new_net(game, settings)
    accepted, accepted_number = copy.deepcopy(candidate), 0
    trainer = load_trainer().Trainer(candidate, settings.lr, device)
    buffer = ReplayBuffer(settings.buffer)
    symmetries = tuple(game.encoding().symmetries)
    samples = 0
    number = 0
    with Steps(trainer, buffer, settings, symmetries) as steps:
        while generations is None or number < generations:
            begun = clock()
            number += 1
            if len(buffer):  # the first generation, with no samples yet, after its games
                steps.start(number)
            jobs = selfplay_jobs(game, accepted, settings, number)
            progress("self-play", 0, len(jobs))  # said at once: a game may take a while
            played = []
            for done, result in enumerate(play_all(map_jobs, jobs), 1):
                played.append(result)
                samples += len(result)
                progress("self-play", done, len(jobs))
            progress("training", 0, settings.steps)
            policy_loss, value_loss = steps.finish(number, played)
            candidate = trainer.net()
            score = gate(game, candidate, accepted, settings, number, openings, map_jobs,
                         progress)
            kept = score is None or score >= ACCEPT
            if kept:
                accepted, accepted_number = candidate, number  # trainer.net() is a copy
            yield Generation(number, settings.games, samples, len(buffer), policy_loss,
                             value_loss, score, kept, accepted_number, clock() - started,
                             accepted)
            if minutes is not None and (clock() - started + clock() - begun
                                        > 60 * minutes):
                return


class Steps:
    """Each generation's gradient steps, on a thread of their own beside its self-play:
    generation g's steps run on the samples of generations 1 to g-1 while g's games
    are played, so the steps no longer leave the workers idle (JAX runs a step with
    the GIL released: the games go on, on the worker processes or, with --jobs 1, on
    this thread). The buffer takes g's samples only once g's steps have ended, so
    what the steps see is fixed by the generation's number: one seed, one training."""

    def __init__(self, trainer, buffer: ReplayBuffer, settings: AzSettings,
                 symmetries: Sequence) -> None:
        self.trainer, self.buffer = trainer, buffer
        self.settings, self.symmetries = settings, symmetries
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="az-steps")
        self.stop = threading.Event()
        self.running: Future | None = None

    def start(self, number: int) -> None:
        """Generation `number`'s steps, on the buffer as it is now, in the background."""
        self.running = self.pool.submit(
            fit, self.trainer, self.buffer, self.settings, self.symmetries,
            derive_seed(self.settings.seed, (3 << 40) | number), self.stop)

    def finish(self, number: int, played: list[Samples]) -> tuple[float, float]:
        """Generation `number`'s mean (policy, value) losses once its steps have
        ended, and its games' samples in the buffer; where none were started, the
        steps run now, on the buffer with them."""
        if self.running is None:
            self.add(played)
            self.start(number)
        try:
            return self.running.result()
        finally:
            self.running = None
            self.add(played)

    def add(self, played: list[Samples]) -> None:
        for samples in played:
            self.buffer.add(samples)
        played.clear()

    def __enter__(self) -> Steps:
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()  # a training cut short: the steps under way end at the next
        self.pool.shutdown(wait=True)


def gate(game: Game, candidate: Net, accepted: Net, settings: AzSettings, number: int,
         openings: Sequence[str] | None, map_jobs: MapJobs,
         progress: Callable[[str, int, int], None]) -> float | None:
    """The candidate's score against the accepted net (None when there is no gate)."""
    if not settings.eval_pairs:
        return None
    jobs = eval_jobs(game, (candidate, accepted), settings, number, openings)
    progress("evaluation", 0, len(jobs))
    points = 0.0
    for done, result in enumerate(play_all(map_jobs, jobs), 1):
        points += result
        progress("evaluation", done, len(jobs))
    return points / len(jobs)

