"""Replaying a decision for step mode: the same agent, seed and a clock-free budget
repeat the decision's move, value and work, tracing every step in Python."""
from __future__ import annotations

import pytest

from plyground.core import get_game
from plyground.core.catalogue import parse_agent
from plyground.core.search.control import Budget, SearchControl, TickClock
from plyground.core.search.events import NodeEntered, NodeLeft, Recorder

# games whose kernels search the Python reference's tree node for node
CASES = [("connect4", "4453"), ("boom", "1234567234535"),
         ("cephalopod", ".r2.../b1r1.../..r3../....b2/..... b")]


def timed_decision(game, state, spec: str):
    """A decision the (fake) clock stopped, as the app's engine makes it."""
    agent = parse_agent(spec)
    agent.prepare()
    budget = agent.budget()
    return agent, agent.decide(state, budget,
                               control=SearchControl(budget, clock=TickClock(0.001)))


@pytest.mark.parametrize("game_id, position", CASES)
def test_a_clock_stopped_alphabeta_decision_is_replayed_node_for_node(game_id, position):
    game = get_game(game_id)
    state = game.parse_position(position)
    agent, decision = timed_decision(game, state, "alphabeta:time=0.05")
    assert decision.stopped
    replayer, budget = agent.replay_plan(decision)
    assert budget.time is None and budget.nodes == decision.work
    recorder = Recorder(trace=True, depth=decision.depth)
    again = replayer.decide(state, budget, observer=recorder)
    assert (again.best_move, again.value, again.work, again.depth) == \
        (decision.best_move, decision.value, decision.work, decision.depth)
    roots = [e for e in recorder.events if isinstance(e, NodeEntered) and not e.path]
    assert [e.depth for e in roots] == [decision.depth]  # only the deciding iteration
    # every node is counted, recorded or not; the node count that stopped the search
    # is reached before that node is entered
    assert recorder.work == decision.work - 1


def test_a_kernel_that_prunes_its_own_way_is_replayed_with_its_subtrees_untraced():
    """Quarto's kernel does not search the Python tree node for node, so its replay
    keeps the kernel where the decision used it: each root move's node, searched whole
    (hundreds of replies a node), is one step that says how many nodes it took."""
    game = get_game("quarto")
    state = game.parse_position("0.../..5./..../.... a")
    agent, decision = timed_decision(game, state, "alphabeta:time=0.05")
    replayer, budget = agent.replay_plan(decision)
    recorder = Recorder(trace=True)
    again = replayer.decide(state, budget, observer=recorder)
    assert (again.best_move, again.value, again.work, again.depth) == \
        (decision.best_move, decision.value, decision.work, decision.depth)
    subtrees = [e for e in recorder.events if isinstance(e, NodeLeft)
                and e.source == "kernel"]
    assert subtrees and all(len(e.path) == 1 for e in subtrees)
    assert sum(e.nodes for e in subtrees) > len(subtrees)


def test_a_completed_search_is_replayed_to_its_depth():
    game = get_game("connect4")
    state = game.parse_position("4453")
    agent = parse_agent("alphabeta:depth=5")
    decision = agent.decide(state)
    replayer, budget = agent.replay_plan(decision)
    assert budget == Budget(depth=5)
    again = replayer.decide(state, budget, observer=Recorder(trace=True))
    assert (again.best_move, again.value, again.work) == \
        (decision.best_move, decision.value, decision.work)


def test_a_timed_mcts_decision_is_replayed_with_its_iteration_count_and_seed():
    game = get_game("quarto")
    state = game.parse_position("8.a./.5c./3..6/.... f")
    agent, decision = timed_decision(game, state, "mcts:time=0.02,seed=5")
    replayer, budget = agent.replay_plan(decision)
    assert budget == Budget(iterations=decision.work)
    again = replayer.decide(state, budget, observer=Recorder(trace=True))
    assert (again.best_move, again.value, again.work) == \
        (decision.best_move, decision.value, decision.work)


def test_agents_that_do_not_search_have_nothing_to_replay():
    state = get_game("connect4").start()
    for spec in ("random", "ga"):
        agent = parse_agent(spec)
        assert agent.replay_plan(agent.decide(state)) is None
