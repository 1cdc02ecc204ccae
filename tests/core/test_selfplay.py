"""Self-play and gate games (core/agents/learned/selfplay.py): what a game's samples hold,
that a seed fixes the game, and that a job gives the same result in a worker process."""
from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import numpy as np

from plyground.core.agents.learned.net import Net, NetConfig
from plyground.core.agents.learned.selfplay import EvalJob, SelfPlayJob, play, play_out
from plyground.core.agents.learned.settings import PlaySettings
from plyground.core.game import get_game
from plyground.core.play.spawn import spawn_context

SETTINGS = PlaySettings(sims=12, batch=4, sample_plies=3)


def tiny_net(game, seed: int = 1) -> Net:
    encoding = game.encoding()
    return Net.new(NetConfig(encoding.shape, encoding.policy_size, 4, 1), seed)


def job(game_id: str, seed: int, net_seed: int = 1) -> SelfPlayJob:
    game = get_game(game_id)
    return SelfPlayJob(game.spec, tiny_net(game, net_seed), SETTINGS, seed, 7)


def replayed(game, record: str):
    state, states = game.start(), []
    for move in game.parse_line(game.start(), record):
        states.append(state)
        state = state.play(move)
    return states, state


def test_a_games_samples_are_its_positions_visits_and_result():
    for game_id in ("tictactoe", "connect4"):
        game = get_game(game_id)
        encoding = game.encoding()
        samples = play(job(game_id, 3))
        states, final = replayed(game, samples.record)
        assert final.outcome() is not None and samples.number == 7
        assert len(samples) == len(states) == len(samples.policies) == len(samples.planes)
        winner = final.outcome().winner
        for state, planes, policy, result in zip(states, samples.planes,
                                                  samples.policies, samples.results):
            assert np.array_equal(planes, encoding.planes(state))
            legal = {encoding.index(state, move) for move in state.moves()}
            assert np.isclose(policy.sum(), 1)
            assert {int(i) for i in np.flatnonzero(policy)} <= legal
            # a visit count over the simulations: a multiple of 1 / sims
            assert np.allclose(policy * SETTINGS.sims, np.round(policy * SETTINGS.sims),
                               atol=1e-4)
            expected = 0 if winner is None else (1 if winner == state.to_move else -1)
            assert result == expected


def test_the_results_alternate_with_the_mover_in_a_decided_game():
    game = get_game("tictactoe")
    decided = next(samples for samples in (play(job("tictactoe", seed))
                                           for seed in range(1, 40))
                   if samples.results.any())
    states, _ = replayed(game, decided.record)
    for (before, after), (r1, r2) in zip(zip(states, states[1:]),
                                         zip(decided.results, decided.results[1:])):
        assert r2 == (-r1 if after.to_move != before.to_move else r1)


def test_one_seed_one_game_another_seed_another():
    first, again = play(job("connect4", 5)), play(job("connect4", 5))
    assert first.record == again.record
    for name in ("planes", "policies", "results"):
        assert np.array_equal(getattr(first, name), getattr(again, name))
    assert len({play(job("connect4", seed)).record for seed in range(5, 10)}) > 1


def test_a_job_gives_the_same_result_in_a_worker_process():
    jobs = [job("tictactoe", 11), EvalJob("tictactoe", (tiny_net(get_game("tictactoe"), 1),
                                                        tiny_net(get_game("tictactoe"), 2)),
                                          SETTINGS, 4, 1)]
    with ProcessPoolExecutor(1, spawn_context()) as pool:
        there = list(pool.map(play, jobs))
    here = [play(item) for item in jobs]
    assert there[0].record == here[0].record
    assert np.array_equal(there[0].policies, here[0].policies)
    assert there[1] == here[1]


def test_a_gate_pair_swaps_the_colours():
    """With one net on both sides and one seed, a pair's two games are the same game:
    the new net has the first mover's points in game 1 and the second's in game 2."""
    game = get_game("tictactoe")
    net = tiny_net(game)
    for seed in range(1, 30):
        winner = play_out(game, game.start(), (net, net), SETTINGS, seed,
                          explore=False).final.outcome().winner
        if winner is not None:
            break
    points = [play(EvalJob(game.spec, (net, net), SETTINGS, seed, number))
              for number in (1, 2)]
    assert points == [float(winner == 0), float(winner == 1)]
