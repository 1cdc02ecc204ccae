"""The network tic-tac-toe ships for the `az` agent: the file its registration names, made
by the command its info records, quoted with its hash in the README; `az` plays it
without being told, draws against perfect play, and repeats its games for a seed."""
from __future__ import annotations

import re
from pathlib import Path

from plyground.core.agents.learned.agent import shipped_net
from plyground.core.agents.learned.net import file_hash, load_net
from plyground.core.catalogue import parse_agent
from plyground_tictactoe.rules import GAME

README = Path(__file__).resolve().parents[1] / "README.md"


def play(first, second) -> tuple[list, object]:
    agents, state, moves = (first, second), GAME.start(), []
    while state.outcome() is None:
        move = agents[state.to_move].choose(state)
        moves.append(move)
        state = state.play(move)
    return moves, state.outcome()


def test_the_registration_names_a_net_for_the_game_made_by_the_quoted_command():
    path = shipped_net(GAME)
    net, info = load_net(path, encoding=GAME.encoding())
    assert info["game"] == GAME.spec
    readme = README.read_text(encoding="utf-8")
    # the README quotes the command the file's own info records, and the file's hash
    command = re.sub(r"--out \S+", "--out", info["command"])
    assert command in re.sub(r"--out \S+", "--out", readme), info["command"]
    assert file_hash(path) in readme


def test_az_with_the_shipped_net_draws_against_perfect_play_with_either_colour():
    az, perfect = parse_agent("az:sims=100,seed=1"), parse_agent("ttt-perfect")
    for agents in ((az, perfect), (perfect, az)):
        _, outcome = play(*agents)
        assert outcome.winner is None, outcome.reason


def test_one_seed_gives_the_same_moves():
    games = [play(parse_agent("az:sims=30,seed=4"), parse_agent("random:seed=9"))[0]
             for _ in range(2)]
    assert games[0] == games[1]
