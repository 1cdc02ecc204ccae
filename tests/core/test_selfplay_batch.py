"""Self-play and evaluation games played together through the batched PUCT
(core/agents/learned/selfplay_batch.py): each game is the one selfplay.play plays
alone, sample for sample; a batch repeats itself for its seeds; a game without
kernels falls back to one game at a time."""
from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from plyground.core.agents.learned import selfplay_batch
from plyground.core.agents.learned.net import Net, NetConfig
from plyground.core.agents.learned.selfplay import EvalJob, SelfPlayJob, play
from plyground.core.agents.learned.selfplay_batch import JobBatch, batches, play_all, play_batch
from plyground.core.agents.learned.settings import PlaySettings
from plyground.core.game import get_game
from plyground.core.play.spawn import spawn_context
from tests.core.test_puct_batch import RowByRow

SETTINGS = PlaySettings(sims=12, batch=4, sample_plies=6)


def model(game, seed=3):
    encoding = game.encoding()
    return Net.new(NetConfig(encoding.shape, encoding.policy_size, channels=8, blocks=1),
                   seed)


def selfplay_jobs(game, net, count, seed=11):
    return [SelfPlayJob(game.spec, net, SETTINGS, seed * 1000 + k, k) for k in range(count)]


def same_samples(a, b):
    return (a.number == b.number and a.record == b.record
            and np.array_equal(a.planes, b.planes) and np.array_equal(a.policies, b.policies)
            and np.array_equal(a.results, b.results))


def test_games_played_together_are_the_games_played_alone():
    game = get_game("connect4")
    net = RowByRow(model(game))
    jobs = selfplay_jobs(game, net, 5)
    together = play_batch(JobBatch(tuple(jobs)))
    alone = [play(job) for job in jobs]
    assert len({sample.record for sample in together}) > 1  # the noise and draws differ
    for a, b in zip(together, alone):
        assert same_samples(a, b), (a.record, b.record)


def test_evaluation_games_played_together_are_the_games_played_alone():
    game = get_game("connect4")
    nets = (RowByRow(model(game, 3)), RowByRow(model(game, 4)))
    jobs = [EvalJob(game.spec, nets, SETTINGS, 77 + k, k, opening)
            for k, opening in enumerate(["", "", "4", "4", "32", "32"], 1)]
    assert play_batch(JobBatch(tuple(jobs))) == [play(job) for job in jobs]


def test_a_batch_gives_the_same_samples_every_time_and_others_for_other_seeds():
    game = get_game("connect4")
    net = model(game)  # the real net, whole batches at a time
    first = play_batch(JobBatch(tuple(selfplay_jobs(game, net, 6))))
    again = play_batch(JobBatch(tuple(selfplay_jobs(game, net, 6))))
    other = play_batch(JobBatch(tuple(selfplay_jobs(game, net, 6, seed=12))))
    assert all(same_samples(a, b) for a, b in zip(first, again))
    assert [s.record for s in first] != [s.record for s in other]


def test_a_game_without_kernels_is_played_one_game_at_a_time(monkeypatch):
    game = get_game("tictactoe")
    jobs = selfplay_jobs(game, model(game), 3)
    monkeypatch.setattr(selfplay_batch, "play_many", None)  # never reached
    together = play_batch(JobBatch(tuple(jobs)))
    assert all(same_samples(a, b) for a, b in zip(together, [play(job) for job in jobs]))


def test_jobs_are_split_evenly_by_their_number_alone_and_come_back_in_order():
    assert [len(b.jobs) for b in batches(list(range(40)))] == [20, 20]
    assert [len(b.jobs) for b in batches(list(range(200)))] == [50, 50, 50, 50]
    assert [len(b.jobs) for b in batches([7])] == [1]
    assert batches([]) == []
    game = get_game("connect4")
    jobs = selfplay_jobs(game, model(game), 3)
    assert [s.number for s in play_all(map, jobs)] == [0, 1, 2]


def test_batches_give_the_same_samples_in_worker_processes():
    """What a training's pool does: the batches on two worker processes (the net
    pickled once a batch, the kernels loaded there) give the samples of this one."""
    game = get_game("connect4")
    jobs = selfplay_jobs(game, model(game), 4) + [
        EvalJob(game.spec, (model(game, 3), model(game, 4)), SETTINGS, 5, 1)]
    here = list(play_all(map, jobs))
    with ProcessPoolExecutor(2, spawn_context()) as pool:
        there = list(play_all(pool.map, jobs))
    assert all(same_samples(a, b) for a, b in zip(here[:4], there[:4]))
    assert here[4] == there[4]


def test_a_stopped_batch_ends_with_search_stopped():
    """A training being stopped: the games end within a round, no samples."""
    import pytest

    from plyground.core.search.control import SearchStopped, StopFlag

    game = get_game("connect4")
    stop = StopFlag()
    stop.set()
    with pytest.raises(SearchStopped):
        play_batch(JobBatch(tuple(selfplay_jobs(game, model(game), 3))), stop)


def blas_threads_after(batch):
    """In a worker: play the batch, then say how many threads BLAS uses (and how many
    it used before)."""
    from plyground.core.agents.learned.blas import blas_threads

    before = blas_threads()
    play_batch(batch)
    return before, blas_threads()


def test_a_worker_plays_its_batch_with_one_blas_thread():
    """A net reaches a worker pickled (its constructor, which sets BLAS to one thread,
    does not run there): two workers' BLAS threads on every core would fight."""
    game = get_game("connect4")
    batch = JobBatch(tuple(selfplay_jobs(game, model(game), 1)))
    with ProcessPoolExecutor(1, spawn_context()) as pool:
        before, after = pool.submit(blas_threads_after, batch).result()
    if before is None:  # no OpenBLAS (macOS's Accelerate): nothing to set
        assert after is None
    else:
        assert after == 1 and (before > 1 or os.cpu_count() == 1)
