"""Every game's kernels for the batched, compiled PUCT but Connect 4's (those are in
test_puct_batch.py): Quarto's (core/fast/quarto_puct.py) and Desconecta-4 BOOM's
(boom_puct.py), each held to its rules and to the Python reference (search/puct.py):
the encoding's planes and policy indices, the rules' moves, sides and ends, and the
same root visits, simulation for simulation, for the same net, position and settings;
self-play and the az agent's search through them as through the reference."""
from __future__ import annotations

import numpy as np
import pytest

from plyground.core.agents.learned.selfplay import evaluator
from plyground.core.fast import boom_puct, quarto_puct
from plyground.core.fast.puct_batch import BatchPuct, kernels_for
from plyground.core.game import get_game
from plyground.core.rng import SplitMix64
from plyground.core.search.control import Budget
from plyground.core.search.puct import puct_search, puct_visits
from tests.core.test_puct_batch import RowByRow, net

# game id -> (its kernels, the longest random game a test position comes from)
KERNELS = {"quarto": (quarto_puct, 17), "boom": (boom_puct, 80)}
GAMES = sorted(KERNELS)
# a Quarto board full with no line: a drawn game's end (random games seldom reach one)
QUARTO_DRAWN = (0, 5, 10, 13, 1, 9, 15, 14, 12, 2, 7, 6, 11, 4, 8, 3)


def random_positions(game, count, seed=5):
    """Positions of random games, from the start to the end (finished ones too)."""
    rng, found, longest = SplitMix64(seed), [], KERNELS[game.spec][1]
    while len(found) < count:
        state = game.start()
        for _ in range(rng.below(longest + 1)):
            if state.outcome() is not None:
                break
            state = state.play(state.moves()[rng.below(len(state.moves()))])
        found.append(state)
    return found


def running(game, count, seed):
    """`count` positions of running games (random games of BOOM end soon)."""
    found = [state for state in random_positions(game, 5 * count, seed) if state.moves()]
    assert len(found) >= count
    return found[:count]


def shown(game, state):
    return game.format_line(state.history) if hasattr(state, "history") else \
        (state.board, state.hand)


def node_of(kernels, game, state):
    """A one-game tree with `state` at its root, filled in by the kernels."""
    encoding = game.encoding()
    search = BatchPuct(kernels, 1, 2, 1, 1.5, encoding.policy_size, encoding.shape)
    search.tree[0][0] = kernels.to_words(state)
    kernels.new_node(search.tree, 0)
    return search.tree


@pytest.mark.parametrize("name", GAMES)
def test_the_planes_are_the_encodings(name):
    game, kernels = get_game(name), KERNELS[name][0]
    encoding = game.encoding()
    out = np.zeros(encoding.shape, np.float32)
    for state in random_positions(game, 120):
        kernels.write_planes(kernels.to_words(state), out)
        assert np.array_equal(out, encoding.planes(state)), shown(game, state)


def end_value(state):
    """The reference's value of a finished game for its side to move, else None."""
    outcome = state.outcome()
    if outcome is None:
        return None
    return 0.0 if outcome.winner is None else 1.0 if outcome.winner == state.to_move else -1.0


@pytest.mark.parametrize("name, ends", [("quarto", {None, 0.0, -1.0}),
                                        ("boom", {None, 1.0})])
def test_the_moves_indices_sides_and_ends_are_the_rules(name, ends):
    """`ends`: the kinds of end the positions must hold (a BOOM game's four is the
    misère loss of the side that made it: a win for the side to move)."""
    game, kernels = get_game(name), KERNELS[name][0]
    encoding, seen = game.encoding(), set()
    states = random_positions(game, 150, seed=8)
    if name == "quarto":
        states.append(type(game.start())(game, QUARTO_DRAWN, None))
    for state in states:
        tree = node_of(kernels, game, state)
        count = tree[2][0]
        assert [encoding.move(state, int(code)) for code in tree[3][0, :count]] == \
            state.moves(), shown(game, state)
        assert tree[4][0, :count].tolist() == \
            [encoding.index(state, move) for move in state.moves()]
        assert tree[1][0] == state.to_move
        got = None if np.isnan(tree[9][0]) else float(tree[9][0])
        assert got == end_value(state), shown(game, state)
        seen.add(got)
    assert ends <= seen


@pytest.mark.parametrize("name", GAMES)
def test_a_move_played_by_the_kernels_is_the_rules(name):
    game, kernels = get_game(name), KERNELS[name][0]
    encoding = game.encoding()
    for state in random_positions(game, 60, seed=11):
        for move in state.moves()[:40]:
            words = np.zeros(kernels.WORDS, np.uint64)
            kernels.play_into(kernels.to_words(state), encoding.index(state, move), words)
            assert words.tolist() == kernels.to_words(state.play(move)).tolist()


@pytest.mark.parametrize("name", GAMES)
def test_keys_tell_positions_apart(name):
    game, kernels = get_game(name), KERNELS[name][0]
    states = random_positions(game, 400, seed=13)
    by_key = {}
    for state in states:
        by_key.setdefault(int(kernels.key(kernels.to_words(state))), set()).add(state.key())
    assert all(len(keys) == 1 for keys in by_key.values())
    assert len(by_key) == len({state.key() for state in states})


def reference(game, state, evaluate, sims, batch, c=1.5):
    done = puct_search(game, state, Budget(iterations=sims), evaluate, c, batch=batch)
    visits = puct_visits(done)
    return [visits.get(move, 0) for move in state.moves()]


def batched(game, states, model, sims, batch, c=1.5, capacity=None):
    encoding, kernels = game.encoding(), KERNELS[game.spec][0]
    search = BatchPuct(kernels, len(states), capacity or sims + 1, batch, c,
                       encoding.policy_size, encoding.shape)
    for number, state in enumerate(states):
        search.start(number, state, sims)
    while search.busy():
        search.round([model.forward])
    for number, state in enumerate(states):
        moves, _ = search.root_moves(number)
        assert [encoding.move(state, int(code)) for code in moves] == state.moves()
        assert search.done(number)
    return [search.root_moves(number)[1].tolist() for number in range(len(states))]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("sims", [1, 2, 7, 40, 150])
@pytest.mark.parametrize("scale", [4.0, 0.0])
def test_one_leaf_a_round_is_the_reference(name, sims, scale):
    game = get_game(name)
    model = net(scale=scale, game=game)
    for state in [game.start()] + running(game, 7, seed=17):
        [visits] = batched(game, [state], model, sims, 1)
        assert visits == reference(game, state, evaluator(model, game), sims, 1), \
            shown(game, state)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("batch, capacity", [(3, None), (8, None), (8, 9)])
def test_many_games_with_virtual_loss_are_the_reference_each(name, batch, capacity):
    """Many games in one search, several leaves each a round: each game's visits are
    its own search by the reference with the same batch (also where the trees start
    too small and grow)."""
    game = get_game(name)
    model = RowByRow(net(seed=7, game=game))
    states = running(game, 10, seed=19)
    got = batched(game, states, model, 60, batch, capacity=capacity)
    for state, visits in zip(states, got):
        assert visits == reference(game, state, evaluator(model, game), 60, batch), \
            shown(game, state)


def test_the_games_have_kernels_and_a_variant_none():
    assert kernels_for(get_game("quarto")) is quarto_puct
    assert kernels_for(get_game("boom")) is boom_puct
    assert kernels_for(get_game("quarto", squares=True)) is None


@pytest.mark.parametrize("name", GAMES)
def test_self_play_games_played_together_are_the_games_played_alone(name):
    """Self-play through the batched search (selfplay_batch.py, which finds the game's
    kernels) gives the samples of selfplay.play's games one at a time."""
    from plyground.core.agents.learned.selfplay import SelfPlayJob, play
    from plyground.core.agents.learned.selfplay_batch import JobBatch, play_batch
    from plyground.core.agents.learned.settings import PlaySettings

    game = get_game(name)
    model = RowByRow(net(seed=5, scale=1.0, game=game))
    settings = PlaySettings(sims=12, batch=4, sample_plies=4)
    jobs = [SelfPlayJob(game.spec, model, settings, 31_000 + k, k) for k in range(3)]
    together = play_batch(JobBatch(tuple(jobs)))
    alone = [play(job) for job in jobs]
    assert len({sample.record for sample in together}) > 1
    for a, b in zip(together, alone):
        assert (a.record, a.number) == (b.record, b.number)
        assert np.array_equal(a.planes, b.planes) and np.array_equal(a.policies, b.policies)
        assert np.array_equal(a.results, b.results)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("sims", [0, 1, 9, 120])
def test_the_agents_compiled_search_decides_as_the_reference(name, sims, monkeypatch):
    """The az agent's search on the compiled tree (its own leaves a round, the tree
    grown from a small start): the reference's decision, value, line and visits."""
    from plyground.core.agents.learned import fast_search
    from plyground.core.agents.learned.fast_search import can_search, fast_puct_search
    from plyground.core.search.events import Recorder

    monkeypatch.setattr(fast_search, "START_NODES", 16)
    game = get_game(name)
    assert can_search(game, None)
    model = net(seed=11, game=game)
    for state in [game.start()] + running(game, 4, seed=23):
        seen = Recorder(), Recorder()
        a = puct_search(game, state, Budget(iterations=sims), evaluator(model, game), 1.5,
                        observer=seen[0])
        b = fast_puct_search(game, state, Budget(iterations=sims), model, 1.5,
                             observer=seen[1])
        assert (a.best_move, a.value, a.pv, a.work, a.move_values) == \
            (b.best_move, b.value, b.pv, b.work, b.move_values), shown(game, state)
        last_a, last_b = seen[0].events[-1], seen[1].events[-1]
        assert (last_a.stats, last_a.pv, last_a.root_visits, last_a.network_value) == \
            (last_b.stats, last_b.pv, last_b.root_visits, last_b.network_value)
