"""Stepping through recorded traces: frames agree with the search that made them."""
from __future__ import annotations

from plyground.core.search.control import Budget
from plyground.core import get_game
from plyground.core.search.alphabeta import alphabeta_search
from plyground.core.search.events import MctsSnapshot, NodeEntered, NodeLeft, Recorder
from plyground.core.search.mcts import mcts_search
from plyground.core.search.replay import MctsReplay, TreeReplay, replay_for

GAME = get_game("connect4")
STATE = GAME.parse_position("4453")


def traced(search, *args, **kwargs):
    recorder = Recorder(trace=True)
    result = search(GAME, STATE, *args, observer=recorder, **kwargs)
    return result, recorder.events


def test_tree_frames_show_the_node_its_ancestors_and_finished_children():
    result, events = traced(alphabeta_search, Budget(depth=3))
    replay = replay_for(events)
    assert isinstance(replay, TreeReplay)
    assert len(replay) == 2 * result.work
    for index in range(len(replay)):
        frame = replay.frame(index)
        paths = [a.path for a in frame.ancestors]
        assert paths[-1] == frame.event.path
        assert all(len(p) == n for n, p in enumerate(paths))
        assert all(p == frame.event.path[:len(p)] for p in paths)
        if isinstance(frame.event, NodeEntered):
            assert (frame.ancestors[-1].alpha, frame.ancestors[-1].beta) == \
                (frame.event.alpha, frame.event.beta)
    # the last event leaves the root with the search's value; every root move finished
    last = replay.frame(len(replay) - 1)
    assert isinstance(last.event, NodeLeft) and last.event.path == ()
    assert last.event.value == result.value
    assert {c.move for c in last.children} == set(STATE.moves())
    assert max(-c.value for c in last.children) == result.value


def test_iteration_jumps_land_on_root_entries_in_order():
    result, events = traced(alphabeta_search, Budget(depth=4))
    replay = TreeReplay(events)
    index, depths = 0, [replay.frame(0).iteration_depth]
    while (following := replay.next_iteration(index)) != len(replay) - 1:
        assert following > index
        assert replay.events[following].path == ()
        index = following
        depths.append(replay.frame(index).iteration_depth)
    assert depths == [1, 2, 3, 4]
    assert replay.previous_iteration(index) < index
    assert replay.previous_iteration(0) == 0


def test_mcts_frames_tally_the_root_as_the_search_did():
    result, events = traced(mcts_search, Budget(iterations=200), seed=3)
    replay = replay_for(events)
    assert isinstance(replay, MctsReplay)
    assert len(replay) == 4 * 200  # every iteration expands: the tree is still shallow
    final = [e for e in events if isinstance(e, MctsSnapshot)][-1]
    last = replay.frame(len(replay) - 1)
    assert {t.move: t.visits for t in last.root} == {s.move: s.visits for s in final.stats}
    for tally in last.root:
        stat = next(s for s in final.stats if s.move == tally.move)
        assert abs(tally.wins / tally.visits - stat.mean) < 1e-9
    phases = [replay.frame(i).phase for i in range(4)]
    assert phases == ["selection", "expansion", "playout", "backup"]
    assert replay.frame(3).iteration == 1 and replay.frame(4).iteration == 2
    assert replay.next_iteration(1) == 4 and replay.previous_iteration(5) == 4


def test_a_trace_without_step_events_has_no_replay():
    assert replay_for([]) is None


def test_mcts_solver_frames_replay_proven_nodes_without_playouts():
    """A solver search reaches proven nodes: those iterations have no expansion and an
    empty playout; the frames still tally the root as the search did."""
    state = GAME.parse_position("1137267")  # O must block at 7
    recorder = Recorder(trace=True)
    result = mcts_search(GAME, state, Budget(iterations=400), seed=2, observer=recorder,
                         solver=True)
    replay = replay_for(recorder.events)
    assert len(replay) < 4 * result.work  # some iterations stopped at a proven node
    final = [e for e in recorder.events if isinstance(e, MctsSnapshot)][-1]
    last = replay.frame(len(replay) - 1)
    assert {t.move: t.visits for t in last.root} == {s.move: s.visits for s in final.stats}
    assert any(s.proven is not None for s in final.stats)
    assert [replay.frame(i).phase for i in range(len(replay))].count("backup") == \
        result.work
