"""A generation's gradient steps run beside its self-play (core/agents/learned/train.py,
`Steps`): generation g's steps, on their own thread, start before g's games end and
see the samples of generations 1 to g-1 only (the first generation's, none before it,
its own); a training stopped part way ends its steps under way and leaves no thread."""
from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from plyground.core import get_game
from plyground.core.agents.learned import train as train_module
from plyground.core.agents.learned.settings import AzSettings, PlaySettings
from plyground.core.rng import derive_seed

TINY = AzSettings(games=2, buffer=1000, steps=2, batch=8, eval_pairs=0, channels=4,
                  blocks=1, play=PlaySettings(sims=4))
WAIT = 30  # seconds, at most: only a failing run waits this long


def test_generation_g_trains_on_the_generations_before_it_while_its_games_run(
        monkeypatch):
    seen = []  # (generation, buffered samples, on the main thread) as each fit starts
    started = {}  # generation -> set as its fit starts
    real_fit = train_module.fit
    seeds = [derive_seed(TINY.seed, (3 << 40) | g) for g in range(1, 4)]
    lock = threading.Lock()
    number = [0]

    def watched_fit(trainer, buffer, settings, symmetries, seed, stop=None):
        generation = seeds.index(seed) + 1  # told by its seed, as train() derives it
        seen.append((generation, len(buffer),
                     threading.current_thread() is threading.main_thread()))
        with lock:
            started.setdefault(generation, threading.Event()).set()
        return real_fit(trainer, buffer, settings, symmetries, seed, stop)

    overlapped = {}

    def progress(phase: str, done: int, total: int) -> None:
        if phase == "self-play" and done == 0:
            number[0] += 1
        if phase == "self-play" and done == total and number[0] > 1:
            # the last game of generation g is in: its steps must have begun already
            with lock:
                event = started.setdefault(number[0], threading.Event())
            overlapped[number[0]] = event.wait(WAIT)

    monkeypatch.setattr(train_module, "fit", watched_fit)
    run = train_module.train(get_game("tictactoe"), TINY, generations=3,
                             progress=progress)
    made = [generation.samples for generation in run]
    assert overlapped == {2: True, 3: True}
    assert seen == [(1, made[0], False), (2, made[0], False), (3, made[1], False)]


class Stopped(Exception):
    pass


def test_a_training_stopped_during_its_games_ends_its_steps_under_way(monkeypatch):
    """Stopped (Ctrl-C; here an exception) while generation 2's games run beside its
    steps, a million of them: the steps end at once, and no thread is left."""
    real_fit = train_module.fit
    second = derive_seed(TINY.seed, (3 << 40) | 2)

    def long_second_fit(trainer, buffer, settings, symmetries, seed, stop=None):
        if seed == second:
            settings = replace(settings, steps=1_000_000)
        return real_fit(trainer, buffer, settings, symmetries, seed, stop)

    def progress(phase: str, done: int, total: int) -> None:
        if phase == "self-play" and done == 1 and generations:
            raise Stopped

    monkeypatch.setattr(train_module, "fit", long_second_fit)
    generations = []
    with pytest.raises(Stopped):
        for generation in train_module.train(get_game("tictactoe"), TINY, generations=3,
                                             progress=progress):
            generations.append(generation)
    assert len(generations) == 1
    assert [t.name for t in threading.enumerate() if t.name.startswith("az-steps")] == []
