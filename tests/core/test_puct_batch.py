"""The batched, compiled PUCT (core/fast/puct_batch.py, connect4_puct.py) held to the
Python reference (search/puct.py): the same planes as the encoding, and the same root
visits, simulation for simulation, for the same net, position and settings."""
from __future__ import annotations

import numpy as np
import pytest

from plyground.core.agents.learned.net import Net, NetConfig
from plyground.core.agents.learned.selfplay import evaluator
from plyground.core.fast import connect4_puct
from plyground.core.fast.puct_batch import BatchPuct, kernels_for
from plyground.core.game import get_game
from plyground.core.rng import SplitMix64
from plyground.core.search.control import Budget
from plyground.core.search.puct import puct_search, puct_visits

GAME = get_game("connect4")
LINES = ["", "4", "4453", "44444433", "3344554", "445566", "4444443333332",
         "12345671234567214365712345671234567"]


def net(seed=3, scale=4.0, game=GAME):
    """A small random net for `game`, its weights scaled up so that its priors and
    values are far from uniform and from zero (scale 0: every prior equal, every value
    0, so that moves tie)."""
    encoding = game.encoding()
    made = Net.new(NetConfig(encoding.shape, encoding.policy_size, channels=8, blocks=1),
                   seed)
    for array in made.params.values():
        array *= scale
    return made


class RowByRow:
    """A net evaluated a position at a time, so that a position's result does not hang
    on which others share its batch (BLAS may sum a batch differently)."""

    def __init__(self, net):
        self.net = net

    def forward(self, planes):
        out = [self.net.forward(planes[i:i + 1]) for i in range(len(planes))]
        return (np.concatenate([logits for logits, _ in out]),
                np.concatenate([values for _, values in out]))


def position(line):
    state = GAME.start()
    for move in GAME.parse_line(state, line):
        state = state.play(move)
    return state


def random_positions(count, seed=5):
    rng, found = SplitMix64(seed), []
    while len(found) < count:
        state = GAME.start()
        for _ in range(rng.below(30)):
            if state.outcome() is not None:
                break
            state = state.play(state.moves()[rng.below(len(state.moves()))])
        found.append(state)
    return found


def test_the_planes_are_the_encodings():
    encoding = GAME.encoding()
    out = np.zeros(encoding.shape, np.float32)
    for state in random_positions(40) + [position(line) for line in LINES]:
        connect4_puct.write_planes(connect4_puct.to_words(state), out)
        assert np.array_equal(out, encoding.planes(state)), GAME.format_line(state.history)


def reference(state, evaluate, sims, batch, c=1.5):
    done = puct_search(GAME, state, Budget(iterations=sims), evaluate, c, batch=batch)
    visits = puct_visits(done)
    return [visits.get(move, 0) for move in state.moves()]


def batched(states, model, sims, batch, c=1.5, capacity=None):
    search = BatchPuct(connect4_puct, len(states), capacity or sims + 1, batch, c,
                       GAME.encoding().policy_size, GAME.encoding().shape)
    for game, state in enumerate(states):
        search.start(game, state, sims)
    while search.busy():
        search.round([model.forward])
    for game, state in enumerate(states):
        moves, visits = search.root_moves(game)
        assert moves.tolist() == state.moves()
        assert search.done(game)
    return [search.root_moves(game)[1].tolist() for game in range(len(states))]


@pytest.mark.parametrize("sims", [1, 2, 7, 40, 150])
@pytest.mark.parametrize("scale", [4.0, 0.0])
def test_one_leaf_a_round_is_the_reference(sims, scale):
    model = net(scale=scale)
    for line in LINES:
        state = position(line)
        [visits] = batched([state], model, sims, 1)
        assert visits == reference(state, evaluator(model, GAME), sims, 1), line


@pytest.mark.parametrize("batch, capacity", [(3, None), (8, None), (8, 9)])
def test_many_games_with_virtual_loss_are_the_reference_each(batch, capacity):
    """Many games in one search, several leaves each a round: each game's visits are
    its own search by the reference with the same batch (also where the trees start
    too small and grow)."""
    model = RowByRow(net(seed=7))
    states = [position(line) for line in LINES] + random_positions(6, seed=9)
    states = [state for state in states if state.moves()]
    got = batched(states, model, 60, batch, capacity=capacity)
    for state, visits in zip(states, got):
        assert visits == reference(state, evaluator(model, GAME), 60, batch), \
            GAME.format_line(state.history)


def test_a_game_without_kernels_has_none():
    assert kernels_for(get_game("connect4")) is connect4_puct
    assert kernels_for(get_game("tictactoe")) is None


def searches(state, model, budget):
    """(reference, compiled) (SearchDone, last snapshot) for `budget`, the same net."""
    from plyground.core.agents.learned.fast_search import fast_puct_search
    from plyground.core.search.events import Recorder

    seen = Recorder(), Recorder()
    reference_done = puct_search(GAME, state, budget, evaluator(model, GAME), 1.5,
                                 observer=seen[0])
    done = fast_puct_search(GAME, state, budget, model, 1.5, observer=seen[1])
    return [(d, recorder.events[-1]) for d, recorder in zip((reference_done, done), seen)]


def same_decision(a, b):
    (a, last_a), (b, last_b) = a, b
    return ((a.best_move, a.value, a.pv, a.work, a.move_values)
            == (b.best_move, b.value, b.pv, b.work, b.move_values)
            and (last_a.stats, last_a.pv, last_a.root_visits, last_a.network_value,
                 last_a.value)
            == (last_b.stats, last_b.pv, last_b.root_visits, last_b.network_value,
                last_b.value))


@pytest.mark.parametrize("sims", [0, 1, 9, 120])
def test_the_agents_compiled_search_decides_as_the_reference(sims, monkeypatch):
    """The az agent's search on the compiled tree (8 leaves a round, the net's own
    batches, the tree grown from a small start): the reference's decision, value,
    line and visits, with the net as it is (its batches are the reference's)."""
    from plyground.core.agents.learned import fast_search

    monkeypatch.setattr(fast_search, "START_NODES", 16)
    model = net(seed=11)
    for line in LINES:
        assert same_decision(*searches(position(line), model, Budget(iterations=sims))), line


def test_the_agent_uses_the_compiled_search_unless_a_trace_is_asked_for():
    from plyground.core.agents.learned.fast_search import can_search
    from plyground.core.search.events import Recorder

    assert can_search(GAME, Recorder()) and can_search(GAME, None)
    assert not can_search(GAME, Recorder(trace=True))
    assert not can_search(get_game("tictactoe"), None)


def test_the_agent_loads_the_compiled_search_before_a_moves_clock(monkeypatch):
    from plyground.core.catalogue import parse_agent
    from plyground.core.fast import puct_batch

    monkeypatch.setattr(puct_batch, "_warmed", set())
    parse_agent("az").prepare()
    assert puct_batch._warmed == set(puct_batch.puct_modules()) >= {
        "plyground.core.fast.connect4_puct", "plyground.core.fast.quarto_puct",
        "plyground.core.fast.boom_puct"}


@pytest.mark.parametrize("budget", ["sims=300", "time=0.03"])
def test_a_compiled_move_replays_step_by_step_through_the_reference(budget, tmp_path):
    """Step mode: the az agent's move, searched compiled (to a count, or against the
    clock), is run again by its replay plan through the traced Python reference: the
    same move, visits and simulations."""
    from plyground.core.agents.learned.net import save_net
    from plyground.core.catalogue import parse_agent
    from plyground.core.search.events import Recorder

    path = tmp_path / "net.npz"
    save_net(net(seed=5), path, {"game": "connect4"})
    agent = parse_agent(f"az:{budget},net={path}")
    agent.prepare()  # as a game does: the kernels loaded before the clock starts
    state = position("4453")
    done = agent.decide(state)
    again_agent, budget = agent.replay_plan(done)
    recorder = Recorder(trace=True)
    again = again_agent.decide(state, budget, observer=recorder)
    assert recorder.trace_events > 0 and done.work > 0
    assert (again.best_move, again.move_values, again.work, again.pv) == \
        (done.best_move, done.move_values, done.work, done.pv)
