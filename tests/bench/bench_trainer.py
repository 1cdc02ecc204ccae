"""The trainer's speed (core/agents/learned/trainer.py, JAX on one XLA thread, as
`train az` runs it): samples a second through a gradient step (forward, backward, an
Adam step) on Connect 4 shaped input (3 planes x 6 x 7, 7 moves), at batch 64 (`train
az`'s default --batch) and 256, for the default net (32 channels, 2 blocks) and a
smaller and a larger one; and for the default net, `fit` as a generation runs it
(batches drawn from a replay buffer and mirrored at random, beside the steps).

`python -m tests.bench.bench_trainer`

Each figure is the best of three rounds of at least 1 s: the machine is shared, and
the best round is the one least disturbed.
"""
from __future__ import annotations

import os
import sys
from types import SimpleNamespace

import numpy as np

from plyground.core import get_game
from plyground.core.agents.learned.net import Net, NetConfig
from plyground.core.agents.learned.settings import AzSettings
from plyground.core.agents.learned.train import ReplayBuffer, fit, load_trainer

from .bench_net import best_rate, positions

SHAPE, POLICY = (3, 6, 7), 7
DEFAULT = NetConfig(SHAPE, POLICY)
CONFIGS = (NetConfig(SHAPE, POLICY, channels=16, blocks=2), DEFAULT,
           NetConfig(SHAPE, POLICY, channels=64, blocks=4))
BATCHES = (64, 256)
BUFFER = 5000


def targets(size: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return (rng.dirichlet(np.ones(POLICY), size).astype(np.float32),
            rng.uniform(-1, 1, size).astype(np.float32))


def step_rate(trainer, config: NetConfig, size: int) -> float:
    training = trainer.Trainer(Net.new(config, seed=0), lr=1e-3)
    x, (policy, value) = positions(size, size), targets(size, size)

    def step() -> None:
        float(training.step(x, policy, value)[0])  # waits for the step to end
    return best_rate(step, size, seconds=1.0)


def fit_rate(trainer, batch: int) -> float:
    settings = AzSettings(steps=20, batch=batch)
    buffer = ReplayBuffer(BUFFER)
    policy, value = targets(BUFFER, 1)
    buffer.add(SimpleNamespace(planes=list(positions(BUFFER, 1)), policies=list(policy),
                               results=list(value)))
    symmetries = tuple(get_game("connect4").encoding().symmetries)
    training = trainer.Trainer(Net.new(DEFAULT, seed=0), lr=1e-3)
    return best_rate(lambda: fit(training, buffer, settings, symmetries, 1),
                     settings.steps * batch, seconds=1.0)


def main(argv: list[str] | None = None) -> None:
    trainer = load_trainer()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"Trainer speed (JAX {trainer.jax.__version__}, one XLA thread), Connect 4 "
          f"input {'x'.join(map(str, SHAPE))}, {POLICY} moves, samples a second; "
          f"{os.cpu_count()} cores, load {load}")
    print(f"  {'config':<26}" + "".join(f"{f'b={s} /s':>10}" for s in BATCHES))
    for config in CONFIGS:
        name = f"{config.channels} ch x {config.blocks} blocks"
        if config == DEFAULT:
            name += " (default)"
        print(f"  {name:<26}" + "".join(f"{step_rate(trainer, config, s):>10,.0f}"
                                        for s in BATCHES), flush=True)
    print(f"  {'fit, buffer and mirrors':<26}" + "".join(
        f"{fit_rate(trainer, s):>10,.0f}" for s in BATCHES))


if __name__ == "__main__":
    main(sys.argv[1:])
