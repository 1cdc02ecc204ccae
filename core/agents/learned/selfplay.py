"""Games a network plays by PUCT search: self-play games that make training samples,
and evaluation games between two networks.

A self-play game explores: Dirichlet noise is mixed into the root's prior at every
move (its alpha scaled to the number of legal moves, so a wide position gets a flat
noise and a narrow one a peaked one; fraction 0.25), and for the first
`sample_plies` plies the move is drawn in proportion to the root's visits
(temperature 1), then the most visited is played. Each position gives one sample:
its input planes, the visit distribution over policy indices (what the search found,
the policy head's target) and the game's result from the mover's view (the value
head's target). Samples are stored as seen; the encoding's symmetries are applied
at training time (train.py), so a buffer holds each position once.

A game is a job (SelfPlayJob, EvalJob): picklable, run by `play` in a worker
process or on a Dask worker like a match's games, and its result named by its
number, so the trainer orders results by number, never by arrival. A training plays
its jobs in batches (selfplay_batch.py): where the game has compiled PUCT kernels, a
batch's games are played together, the same games as `play` plays one at a time.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ...game import Game, Move, State, parse_game
from ...rng import SplitMix64, derive_seed
from ...search.control import Budget, SearchControl, SearchStopped, StopFlag
from ...search.puct import puct_search, puct_visits
from .net import Net
from .settings import PlaySettings

NOISE_FRACTION = 0.25
NOISE_SCALE = 10.0  # alpha = NOISE_SCALE / legal moves (0.3 for chess's ~35 moves)


CACHE_LIMIT = 200_000  # positions an evaluator remembers before it starts afresh


def evaluator(net: Net, game: Game) -> Callable[[list[State]], list[tuple[list[float], float]]]:
    """PUCT's `evaluate` for `net`: per state, the softmax of its logits over the legal
    moves' indices (in `state.moves()` order) and the value for the side to move.

    It remembers what it computed, by position (side to move and key): a search meets
    the same position again by transposition, and a game's searches share positions,
    so a position is put through the network once, and once per batch at most."""
    encoding = game.encoding()
    cache: dict[tuple[int, int], tuple[list[float], float]] = {}

    def evaluate(states: list[State]) -> list[tuple[list[float], float]]:
        keys = [(state.to_move, state.key()) for state in states]
        new = {}
        for key, state in zip(keys, states):
            if key not in cache:
                new.setdefault(key, state)
        if new:
            if len(cache) + len(new) > CACHE_LIMIT:
                cache.clear()
            fresh = list(new.values())
            logits, values = net.forward(np.stack([encoding.planes(s) for s in fresh]))
            cache.update(zip(new, legal_softmax(encoding, fresh, logits, values)))
        return [cache[key] for key in keys]

    return evaluate


def legal_softmax(encoding, states: list[State], logits: np.ndarray,
                  values: np.ndarray) -> list[tuple[list[float], float]]:
    """Per state, the softmax of its legal moves' logits (in `state.moves()` order) and
    its value: the illegal moves' logits masked out, one numpy pass for the batch."""
    rows, indices, counts = [], [], []
    for row, state in enumerate(states):
        moves = state.moves()
        rows.extend([row] * len(moves))
        indices.extend(encoding.index(state, move) for move in moves)
        counts.append(len(moves))
    masked = np.full(logits.shape, -np.inf, logits.dtype)
    masked[rows, indices] = logits[rows, indices]
    exps = np.exp(masked - masked.max(axis=1, keepdims=True))
    flat = (exps / exps.sum(axis=1, keepdims=True))[rows, indices].tolist()
    out, start = [], 0
    for count, value in zip(counts, values.tolist()):
        out.append((flat[start:start + count], value))
        start += count
    return out


def visits_of(game: Game, state: State, evaluate, settings: PlaySettings, seed: int,
              noise: bool, stop: StopFlag | None = None) -> list[tuple[Move, int]]:
    """The root's visit count per move it visited, in the order of `state.moves()`.
    SearchStopped once `stop` is set: a search cut short is no sample."""
    alpha = NOISE_SCALE / len(state.moves())
    done = puct_search(game, state, Budget(iterations=settings.sims), evaluate,
                       settings.c, seed, None,
                       SearchControl(Budget(iterations=settings.sims), stop),
                       noise=(alpha, NOISE_FRACTION) if noise else None,
                       batch=settings.batch)
    if stop is not None and stop.is_set():
        raise SearchStopped
    return list(puct_visits(done).items())


def choose(visits: Sequence[tuple[Move, int]], sample: bool, rng: SplitMix64) -> Move:
    """The move played: drawn in proportion to visits, or the most visited (the first
    in move order among equals)."""
    if sample:
        draw = rng.below(sum(count for _, count in visits))
        for move, count in visits:
            draw -= count
            if draw < 0:
                return move
    return max(visits, key=lambda item: item[1])[0]


@dataclass(frozen=True)
class Played:
    """A game played out: the positions met with their root visits, the moves played
    in them, and the end."""

    positions: list[tuple[State, list[tuple[Move, int]]]]
    moves: list[Move]
    final: State


def play_out(game: Game, start: State, nets: tuple[Net, Net], settings: PlaySettings,
             seed: int, explore: bool, stop: StopFlag | None = None) -> Played:
    """The game from `start`, `nets[side]` searching for each side; exploring (noise,
    sampled first plies) in self-play, the most visited move otherwise. Setting `stop`
    ends it within a batch of simulations, with SearchStopped (a training being
    stopped: the pool must not wait for a game's end)."""
    evaluators = [evaluator(net, game) for net in nets]
    rng = SplitMix64(derive_seed(seed, 0))
    state, positions, moves = start, [], []
    while state.outcome() is None:
        ply = len(moves)
        visits = visits_of(game, state, evaluators[state.to_move], settings,
                           derive_seed(seed, ply + 1), explore, stop)
        positions.append((state, visits))
        moves.append(choose(visits, explore and ply < settings.sample_plies, rng))
        state = state.play(moves[-1])
    return Played(positions, moves, state)


@dataclass(frozen=True)
class Samples:
    """Game `number`'s training samples, one a position in the order played: input
    planes [n, C, H, W], visit distributions [n, P], results from the mover's view
    [n] (1 won, 0 drawn, -1 lost); `record`, the game's moves."""

    number: int
    planes: np.ndarray
    policies: np.ndarray
    results: np.ndarray
    record: str

    def __len__(self) -> int:
        return len(self.results)


def samples_of(game: Game, played: Played, number: int) -> Samples:
    encoding = game.encoding()
    winner = played.final.outcome().winner
    planes, policies, results = [], [], []
    for state, visits in played.positions:
        policy = np.zeros(encoding.policy_size, np.float32)
        total = sum(count for _, count in visits)
        for move, count in visits:
            policy[encoding.index(state, move)] = count / total
        planes.append(encoding.planes(state))
        policies.append(policy)
        results.append(0.0 if winner is None else 1.0 if winner == state.to_move else -1.0)
    return Samples(number, np.stack(planes).astype(np.float32), np.stack(policies),
                   np.array(results, np.float32),
                   game.format_line(played.moves))


@dataclass(frozen=True)
class SelfPlayJob:
    """Self-play game `number` of a generation: `net` against itself from the start,
    its random draws from `seed`."""

    game_spec: str
    net: Net
    settings: PlaySettings
    seed: int
    number: int


@dataclass(frozen=True)
class EvalJob:
    """Evaluation game `number` (1, 2, ...) between `nets` (new, old) from `opening`
    (a line of moves; "" the start): the new net moves first in odd games, second in
    even ones, so games 2r-1 and 2r are a pair with colours swapped."""

    game_spec: str
    nets: tuple[Net, Net]
    settings: PlaySettings
    seed: int
    number: int
    opening: str = ""


def play(job: SelfPlayJob | EvalJob, stop: StopFlag | None = None) -> Samples | float:
    """Run a job: a self-play game's samples, or the new net's points (1, 1/2, 0) in
    an evaluation game. Module-level, so a worker process can run it. Setting `stop`
    cuts the game short with SearchStopped."""
    game = parse_game(job.game_spec)
    if isinstance(job, SelfPlayJob):
        played = play_out(game, game.start(), (job.net, job.net), job.settings, job.seed,
                          explore=True, stop=stop)
        return samples_of(game, played, job.number)
    start, new_side = opening_of(game, job)
    new, old = job.nets
    nets = (new, old) if new_side == 0 else (old, new)
    winner = play_out(game, start, nets, job.settings, job.seed, explore=False,
                      stop=stop).final.outcome().winner
    return 0.5 if winner is None else float(winner == new_side)


def opening_of(game: Game, job: EvalJob) -> tuple[State, int]:
    """An evaluation game's start (its opening played) and the new net's side in it:
    the side to move in odd games, the other in even ones."""
    start = game.start()
    for move in game.parse_line(start, job.opening):
        start = start.play(move)
    return start, start.to_move if job.number % 2 else 1 - start.to_move
