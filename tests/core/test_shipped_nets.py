"""Every network a game's registration ships: a file for that game, made by the command
its info records, quoted with its hash in docs/az.md; `az` plays it when given no net
and repeats its moves for a seed."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from plyground.core.agents.learned.agent import shipped_net
from plyground.core.agents.learned.net import file_hash, load_net
from plyground.core.catalogue import parse_agent
from plyground.core.game import game_entries, get_game

DOCS = Path(__file__).resolve().parents[2] / "docs" / "az.md"
SHIPPING = [entry.id for entry in game_entries() if entry.network]


def without_out(text: str) -> str:
    """A command with its --out path left out: the docs say where to run it."""
    return re.sub(r"--out \S+", "--out", text)


def test_connect4_and_tictactoe_ship_a_network():
    assert {"connect4", "tictactoe"} <= set(SHIPPING)


@pytest.mark.parametrize("game_id", SHIPPING)
def test_the_docs_quote_each_networks_command_and_hash(game_id):
    game = get_game(game_id)
    path = shipped_net(game)
    _, info = load_net(path, encoding=game.encoding())
    assert info["game"] == game.spec
    docs = DOCS.read_text(encoding="utf-8")
    assert without_out(info["command"]) in without_out(docs), info["command"]
    assert file_hash(path) in docs


@pytest.mark.parametrize("game_id", SHIPPING)
def test_az_plays_the_shipped_network_with_the_same_moves_for_a_seed(game_id):
    game = get_game(game_id)
    games = []
    for _ in range(2):
        agents, state, moves = (parse_agent("az:sims=40,seed=4"),
                                parse_agent("random:seed=9")), game.start(), []
        while state.outcome() is None and len(moves) < 12:
            move = agents[state.to_move].choose(state)
            moves.append(move)
            state = state.play(move)
        games.append(moves)
    assert games[0] == games[1] and len(games[0]) >= 5
