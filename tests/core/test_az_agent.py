"""The `az` agent (core/agents/learned/agent.py) with freshly initialised networks
saved to temporary files: it plays, repeats itself for a seed, and refuses in one line
what it cannot play."""
from __future__ import annotations

import os

import numpy as np
import pytest

from plyground.core.agents.base import check_plays
from plyground.core.agents.learned import agent as az, net as netmodule
from plyground.core.agents.learned.net import Net, NetConfig, save_net
from plyground.core.catalogue import parse_agent
from plyground.core.errors import PlygroundError
from plyground.core.game import get_game
from plyground.core.search.events import PuctSnapshot, Recorder


def fresh_net(game, path, seed=1, trained_on=None):
    encoding = game.encoding()
    net = Net.new(NetConfig(encoding.shape, encoding.policy_size, channels=8, blocks=1),
                  seed)
    save_net(net, path, {"game": trained_on or game.spec})
    return net


@pytest.mark.parametrize("game_id", ["tictactoe", "connect4"])
def test_it_plays_a_legal_move_and_repeats_itself(game_id, tmp_path):
    game = get_game(game_id)
    path = tmp_path / "net.npz"
    fresh_net(game, path)
    state = game.start()
    for move in game.start().moves()[:2]:
        state = state.play(move)
    agent = parse_agent(f"az:sims=50,net={path},seed=1")
    check_plays(agent, game)
    recorders = [Recorder(), Recorder()]
    decisions = [agent.decide(state, observer=recorder) for recorder in recorders]
    assert decisions[0].best_move in state.moves()
    assert decisions[0].work == 50
    assert decisions[0].best_move == decisions[1].best_move
    finals = [[e for e in r.events if isinstance(e, PuctSnapshot)][-1] for r in recorders]
    assert finals[0].stats == finals[1].stats


def test_no_search_plays_the_policy_top_move(tmp_path):
    game = get_game("connect4")
    path = tmp_path / "net.npz"
    net = fresh_net(game, path, seed=5)
    state = game.start().play(3)
    encoding = game.encoding()
    logits, values = net.forward(encoding.planes(state)[None].astype(np.float32))
    legal = {move: logits[0, encoding.index(state, move)] for move in state.moves()}
    done = parse_agent(f"az:sims=0,net={path}").decide(state)
    assert done.best_move == max(legal, key=legal.get)
    assert done.work == 0
    assert done.value == pytest.approx((float(values[0]) + 1) / 2, abs=1e-6)


def test_a_net_file_is_read_once_and_again_when_it_changes(tmp_path, monkeypatch):
    game = get_game("tictactoe")
    path = tmp_path / "net.npz"
    fresh_net(game, path)
    reads = []
    load = netmodule.load_net
    monkeypatch.setattr(netmodule, "load_net", lambda *a, **k: reads.append(1) or load(*a, **k))
    agent = parse_agent(f"az:sims=4,net={path}")
    for _ in range(3):
        agent.decide(game.start())
    assert len(reads) == 1
    fresh_net(game, path, seed=2)
    later = os.stat(path).st_mtime_ns + 10**9  # a clock too coarse to tell otherwise
    os.utime(path, ns=(later, later))
    agent.decide(game.start())
    assert len(reads) == 2


def refusal(spec, game) -> str:
    with pytest.raises(PlygroundError) as error:
        check_plays(parse_agent(spec), game)
    message = str(error.value)
    assert "\n" not in message
    return message


def test_without_a_shipped_net_it_says_how_to_make_one(tmp_path, monkeypatch):
    monkeypatch.setattr(az, "shipped_net", lambda game: tmp_path / f"{game.id}.npz")
    game = get_game("connect4")
    assert not az.AzAgent.plays(game)
    message = refusal("az", game)
    assert "plyground train az connect4" in message and "net=connect4.npz" in message
    fresh_net(game, tmp_path / "connect4.npz")
    assert az.AzAgent.plays(game)
    check_plays(parse_agent("az:sims=2"), game)


def test_the_kind_asks_only_whether_the_shipped_file_is_there(tmp_path, monkeypatch):
    monkeypatch.setattr(az, "shipped_net", lambda game: tmp_path / f"{game.id}.npz")
    game = get_game("tictactoe")
    (tmp_path / "tictactoe.npz").write_text("not a network")
    assert az.AzAgent.plays(game)  # the menus' question reads no file
    assert "not a network file" in refusal("az", game)


def test_a_net_for_another_game_or_none_at_all_is_one_line(tmp_path, monkeypatch):
    ttt, c4 = get_game("tictactoe"), get_game("connect4")
    path = tmp_path / "ttt.npz"
    fresh_net(ttt, path)
    assert "input planes" in refusal(f"az:net={path}", c4)
    other = tmp_path / "other.npz"
    fresh_net(ttt, other, trained_on="cephalopod:rows=3,cols=3")
    assert "a network for cephalopod:rows=3,cols=3, not tictactoe" in \
        refusal(f"az:net={other}", ttt)
    assert "No such file" in refusal(f"az:net={tmp_path / 'none.npz'}", ttt)
    monkeypatch.setattr(type(ttt), "encoding", lambda self: None)
    assert "declares no network encoding" in refusal(f"az:net={path}", ttt)


@pytest.mark.parametrize("spec", ["az:sims=-1", "az:c=x", "az:sims=2,sims=3", "az:nets=a",
                                  "az:time=0"])
def test_bad_settings_are_one_line(spec):
    with pytest.raises(PlygroundError) as error:
        parse_agent(spec)
    assert "\n" not in str(error.value) and str(error.value).startswith("az")


def test_its_budget_and_label():
    assert parse_agent("az").budget().iterations == az.DEFAULT_SIMS
    timed = parse_agent("az:time=0.2").budget()
    assert (timed.time, timed.iterations) == (0.2, None)
    both = parse_agent("az:time=0.2,sims=100").budget()
    assert (both.time, both.iterations) == (0.2, 100)
    assert parse_agent("az:sims=0").label == "AlphaZero (policy only)"
    assert parse_agent("az:sims=30").label == "AlphaZero (30 simulations)"
