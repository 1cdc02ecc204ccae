"""The numpy policy/value network's speed on a Connect 4 shaped input (3 planes x 6 x 7,
7 policy logits): inference positions per second at batch 1, 8, 32 and 256, and the
milliseconds a batch of 8 takes (the `az` agent evaluates its leaves 8 at a time:
target well under 1 ms for the default net), in wall time and in processor time. For
the default config (32 channels, 2 blocks), a smaller one and two larger ones, with
BLAS on one thread (what a net sets, core/agents/learned/blas.py) and on every core
(numpy's default). Training's speed is bench_trainer.py's.

`python -m tests.bench.bench_net [--threads N ...]`

Each figure is the best of three rounds of at least 0.2 s: the machine is shared, and
the best round is the one least disturbed.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

from plyground.core.agents.learned.blas import set_blas_threads
from plyground.core.agents.learned.net import Net, NetConfig

SHAPE, POLICY = (3, 6, 7), 7
DEFAULT = NetConfig(SHAPE, POLICY)
CONFIGS = (NetConfig(SHAPE, POLICY, channels=16, blocks=2), DEFAULT,
           NetConfig(SHAPE, POLICY, channels=32, blocks=3),
           NetConfig(SHAPE, POLICY, channels=64, blocks=4))
BATCHES = (1, 8, 32, 256)


def best_rate(run, items: int, rounds: int = 3, seconds: float = 0.2) -> float:
    """`items` per second of `run()`, the best of `rounds` rounds of at least
    `seconds` each (after one call off the clock)."""
    run()
    best = 0.0
    for _ in range(rounds):
        calls, started = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - started) < seconds:
            run()
            calls += 1
        best = max(best, calls * items / elapsed)
    return best


def cpu_ms(run, seconds: float = 0.5) -> float:
    """The processor time one `run()` takes, in ms: on a shared machine, near what it
    takes in wall time on an idle core when BLAS has one thread (every thread's time
    counts, spinning included, when it has more)."""
    run()
    calls, started, wall = 0, time.process_time(), time.perf_counter()
    while time.perf_counter() - wall < seconds:
        run()
        calls += 1
    return 1000 * (time.process_time() - started) / calls


def positions(size: int, seed: int) -> np.ndarray:
    """Connect 4 like planes: the side to move's discs, the other side's, ones."""
    rng = np.random.default_rng(seed)
    mine = rng.random((size, *SHAPE[1:])) < 0.25
    theirs = ~mine & (rng.random((size, *SHAPE[1:])) < 0.33)
    return np.stack([mine, theirs, np.ones_like(mine)], axis=1).astype(np.float32)


def measure(config: NetConfig) -> None:
    net = Net.new(config, seed=0)
    count = sum(array.size for array in net.params.values())
    rates = {size: best_rate(lambda x=positions(size, size): net.forward(x), size)
             for size in BATCHES}
    eight = cpu_ms(lambda x=positions(8, 8): net.forward(x))
    name = f"{config.channels} ch x {config.blocks} blocks"
    if config == DEFAULT:
        name += " (default)"
    print(f"  {name:<26}{count:>8,} " + "".join(f"{rates[s]:>9,.0f}" for s in BATCHES)
          + f"{1000 * 8 / rates[8]:>9.3f}{eight:>9.3f}", flush=True)


def run(threads: int) -> None:
    Net.new(DEFAULT, seed=0)  # a net sets one thread, once per process: before ours
    if not set_blas_threads(threads):
        print("(no OpenBLAS found: BLAS threads as numpy has them)")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"Network speed, Connect 4 input {'x'.join(map(str, SHAPE))}, {POLICY} moves; "
          f"BLAS threads: {threads}; {os.cpu_count()} cores, load {load}")
    print(f"  {'config':<26}{'params':>8} " + "".join(f"{f'b={s} /s':>9}" for s in BATCHES)
          + f"{'b=8 ms':>9}{'cpu ms':>9}")
    for config in CONFIGS:
        measure(config)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, nargs="*", default=[1, os.cpu_count()])
    args = parser.parse_args(argv if argv is not None else [])
    for threads in args.threads:
        run(threads)
    set_blas_threads(1)


if __name__ == "__main__":
    main(sys.argv[1:])
