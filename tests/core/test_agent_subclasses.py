"""A student's subclass of plyground's searches with a heuristic (or an MCTS playout
policy) of its own: the search uses it, in Python (the compiled kernels know only the
game's own), and the inspector's data is the same as for plyground's searches."""
from __future__ import annotations

import sys
from pathlib import Path

from plyground.core import get_game
from plyground.core.catalogue import parse_agent
from plyground.core.agents.kinds import AlphaBetaAgent, MctsAgent, MinimaxAgent
from plyground.core.search.events import NodeLeft, Recorder

GAME = get_game("connect4")
LEFT_AB = Path(__file__).resolve().parents[1] / "plugins" / "bots" / "subclass_ab.py"


def left_edge(state) -> int:
    """10 a piece of the side to move in the leftmost column, -10 one of the other's."""
    return 10 * sum(1 if state.cell(0, row) == state.to_move else -1
                    for row in range(6) if state.cell(0, row) is not None)


def test_an_alphabeta_subclass_searches_with_its_own_evaluate():
    agent = parse_agent(f"{LEFT_AB}:LeftAB:depth=2")
    plugin = sys.modules[type(agent).__module__]
    plugin.calls = 0
    done = agent.decide(GAME.start())
    assert plugin.calls > 0
    # it loves the left edge: column 1, where the reply's best is to follow it (0)
    assert (done.best_move, done.value, done.depth) == (0, 0, 2)
    assert AlphaBetaAgent(depth=2).decide(GAME.start()).best_move == 3
    assert len(done.move_values) == 7  # every root move with its value, as ever


def test_a_traced_search_of_the_subclass_is_the_same_search():
    """Step mode replays the decision with a trace: the subclass's own heuristic at
    every leaf."""
    agent = parse_agent(f"{LEFT_AB}:LeftAB:depth=2")
    recorder = Recorder(trace=True)
    done = agent.decide(GAME.start(), observer=recorder)
    assert (done.best_move, done.value, done.work) == \
        (agent.decide(GAME.start()).best_move, 0, recorder.work)
    leaves = [event for event in recorder.events
              if isinstance(event, NodeLeft) and event.source == "leaf"]
    assert leaves and all(event.value % 10 == 0 for event in leaves)


def test_a_minimax_subclass_searches_with_its_own_evaluate():
    class LeftMinimax(MinimaxAgent):
        def evaluate(self, state):
            return left_edge(state)

    assert LeftMinimax(depth=1).decide(GAME.start()).best_move == 0
    assert MinimaxAgent(depth=1).decide(GAME.start()).best_move == 3


def test_an_mcts_subclass_plays_out_with_its_own_policy():
    played = []

    class LeftmostMcts(MctsAgent):
        def playout(self, state, rng):
            played.append(state)
            return state.moves()[0]  # always the leftmost open column

    position = GAME.parse_position("4444")
    done = LeftmostMcts(iterations=300, seed=1).decide(position)
    default = MctsAgent(iterations=300, seed=1).decide(position)
    assert played and all(state.ply > position.ply for state in played)
    assert done.work == default.work == 300
    assert done.move_values != default.move_values
