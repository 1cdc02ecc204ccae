"""The network's PUCT evaluator (core/agents/learned/selfplay.py `evaluator`): each
state's prior is the softmax of its legal moves' logits and its value the value
head's, as one state at a time through the network computes them; a position met
again (the same state twice, a transposition, a later batch) is not put through the
network again."""
from __future__ import annotations

import numpy as np

from plyground.core.agents.learned.net import Net, NetConfig
from plyground.core.agents.learned.selfplay import evaluator
from plyground.core.game import get_game
from plyground.core.rng import SplitMix64


class Counting:
    """A net's forward that counts the positions it is given."""

    def __init__(self, net: Net) -> None:
        self.net, self.rows = net, 0

    def forward(self, x):
        self.rows += len(x)
        return self.net.forward(x)


def random_states(game, count: int, seed: int) -> list:
    rng, states = SplitMix64(seed), []
    while len(states) < count:
        state = game.start()
        for _ in range(rng.below(12)):
            if state.outcome() is not None:
                break
            moves = state.moves()
            state = state.play(moves[rng.below(len(moves))])
        if state.outcome() is None:
            states.append(state)
    return states


def one_by_one(net: Net, encoding, state) -> tuple[np.ndarray, float]:
    """The reference: one state through the network, its legal logits' softmax."""
    logits, values = net.forward(encoding.planes(state)[None])
    legal = np.array([logits[0, encoding.index(state, m)] for m in state.moves()],
                     np.float64)
    exps = np.exp(legal - legal.max())
    return exps / exps.sum(), float(values[0])


def transposed(game):
    """Two move orders to one Connect 4 position, and that position."""
    first = game.play_moves(game.start(), list("1234"))
    second = game.play_moves(game.start(), list("3214"))
    assert first == second and first.history != second.history
    return first, second


def test_priors_and_values_are_the_networks_for_each_state():
    for game_id in ("tictactoe", "connect4"):
        game = get_game(game_id)
        encoding = game.encoding()
        net = Net.new(NetConfig(encoding.shape, encoding.policy_size, 8, 1), 3)
        states = random_states(game, 20, 5)
        results = evaluator(net, game)(states)
        assert len(results) == len(states)
        for state, (prior, value) in zip(states, results):
            want_prior, want_value = one_by_one(net, encoding, state)
            assert len(prior) == len(state.moves())
            np.testing.assert_allclose(prior, want_prior, rtol=1e-5, atol=1e-6)
            assert abs(value - want_value) < 1e-5


def test_a_position_met_again_is_not_put_through_the_network_again():
    game = get_game("connect4")
    encoding = game.encoding()
    net = Counting(Net.new(NetConfig(encoding.shape, encoding.policy_size, 8, 1), 3))
    evaluate = evaluator(net, game)
    first, second = transposed(game)
    other = game.play_moves(game.start(), list("44"))
    results = evaluate([first, other, second, first])
    assert net.rows == 2
    assert results[0] == results[2] == results[3] != results[1]
    assert evaluate([other, second]) == [results[1], results[0]]
    assert net.rows == 2
    evaluate([game.play_moves(game.start(), list("45"))])
    assert net.rows == 3


def test_a_batch_with_repeated_positions_puts_each_through_once():
    game = get_game("tictactoe")
    encoding = game.encoding()
    net = Counting(Net.new(NetConfig(encoding.shape, encoding.policy_size, 8, 1), 3))
    states = random_states(game, 60, 9)
    distinct = set(states)
    assert len(distinct) < len(states)
    evaluator(net, game)(states)
    assert net.rows == len(distinct)
