"""The reference node count of a `nodes` check (core/grade/nodes.py): held to
plyground's own minimax agent, to counts worked out by hand, and to what alpha-beta
and the move order must change and must not."""
from pathlib import Path

import pytest

from plyground.core import get_game, parse_game
from plyground.core.catalogue import parse_agent
from plyground.core.errors import PlygroundError
from plyground.core.grade.nodes import (reference_counts, reference_nodes,
                                        reference_search)

CONNECT4 = get_game("connect4")
ORDERS = ("generated", "centre-first")
NODES_FILE = Path(__file__).parents[2] / "examples" / "class" / "nodes.txt"
# positions of three games, some with wins within reach of the search
POSITIONS = [("connect4", ""), ("connect4", "4453"), ("connect4", "121212"),
             ("connect4", "4444332"), ("cephalopod:rows=3,cols=3", ""),
             ("boom", "1234567")]


def state_of(game_spec: str, text: str):
    game = parse_game(game_spec)
    return game.parse_position(text) if text else game.start()


@pytest.mark.parametrize("game_spec,text", POSITIONS)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_minimax_count_is_what_the_minimax_agent_reports(game_spec, text, depth):
    """plyground's minimax agent counts every node it enters, the root included
    (core/search/tree.py), in its decision's `work`, searching in the game's
    centre-first order: the same count, and the same value, whichever order the
    reference tries."""
    state = state_of(game_spec, text)
    done = parse_agent(f"minimax:depth={depth}").decide(state)
    for order in ORDERS:
        nodes, value = reference_search(state, "minimax", depth, order)
        assert (nodes, value) == (done.work, done.value)


@pytest.mark.parametrize("order", ORDERS)
def test_counts_from_the_start_of_connect4_are_powers_of_seven(order):
    start = CONNECT4.start()
    counts = [reference_nodes(start, "minimax", depth, order) for depth in range(4)]
    assert counts == [1, 1 + 7, 1 + 7 + 49, 1 + 7 + 49 + 343]
    # alpha-beta cannot cut below one ply: the root's first child is searched whole
    assert reference_nodes(start, "alphabeta", 1, order) == 1 + 7


def test_a_finished_game_is_one_node_at_any_depth():
    won = CONNECT4.parse_position("121212").play(0)  # X has four in column 1
    assert won.outcome() is not None
    for kind in ("minimax", "alphabeta"):
        assert [reference_nodes(won, kind, depth, "generated")
                for depth in (0, 1, 3)] == [1, 1, 1]


def test_the_search_stops_where_the_game_ends():
    """X to move can win in column 1: that child is a leaf however deep the search
    goes, so depth 2 enters the root, 7 children and 7 replies under each of the
    other 6: 1 + 7 + 6 * 7."""
    state = CONNECT4.parse_position("121212")
    assert reference_nodes(state, "minimax", 2, "generated") == 1 + 7 + 6 * 7
    nodes, value = reference_search(state, "minimax", 1, "generated")
    assert nodes == 8 and value == 1_000_000 - 7  # won at ply 7


@pytest.mark.parametrize("text", ["", "4", "4453", "3461", "252627"])
@pytest.mark.parametrize("order", ORDERS)
def test_alphabeta_enters_fewer_nodes_and_finds_the_same_value(text, order):
    state = CONNECT4.parse_position(text) if text else CONNECT4.start()
    for depth in (3, 4):
        ab_nodes, ab_value = reference_search(state, "alphabeta", depth, order)
        mm_nodes, mm_value = reference_search(state, "minimax", depth, order)
        assert ab_nodes < mm_nodes
        assert ab_value == mm_value


def test_the_order_changes_alphabeta_count_only():
    start = CONNECT4.start()
    minimax = {reference_nodes(start, "minimax", 3, order) for order in ORDERS}
    alphabeta = {order: reference_nodes(start, "alphabeta", 3, order)
                 for order in ORDERS}
    assert minimax == {400}
    # the centre is Connect 4's best first move: tried first, it cuts the most
    assert alphabeta == {"generated": 215, "centre-first": 82}


def test_the_example_class_counts():
    """The positions of examples/class/nodes.txt, as the example spec counts them
    (minimax to depth 3): 7 + 49 + 343 below the root where no game ends within 3
    plies; fewer on the one where a side can connect four."""
    lines = NODES_FILE.read_text().splitlines()
    positions = [line.strip() for line in lines if line.strip()
                 and not line.startswith("#")]
    assert positions == ["4", "44", "4453", "3461", "252627"]
    assert reference_counts(CONNECT4, positions, "minimax", 3, "generated") == \
        [400, 400, 400, 400, 309]


def test_an_unknown_kind_or_order_is_one_sentence():
    with pytest.raises(PlygroundError, match="minimax or alphabeta"):
        reference_nodes(CONNECT4.start(), "mcts", 3, "generated")
    with pytest.raises(PlygroundError, match="generated, centre-first"):
        reference_nodes(CONNECT4.start(), "minimax", 3, "random")


def test_the_example_students_counts():
    """The example class's bots, asked on the nodes check's positions: every one
    reports the reference count but Frank's, who counts only the leaves."""
    lines = NODES_FILE.read_text().splitlines()
    states = [CONNECT4.parse_position(line.strip()) for line in lines
              if line.strip() and not line.startswith("#")]
    expected = [reference_nodes(state, "minimax", 3, "generated") for state in states]
    submissions = NODES_FILE.parent / "submissions"
    reported = {folder.name: [parse_agent(f"{folder}/bot.py:MyBot").decide(state).work
                              for state in states]
                for folder in sorted(submissions.iterdir())}
    assert reported.pop("frank-wrong-nodes") == [343, 343, 343, 343, 265]
    assert reported == {name: expected for name in
                        ("alice-decent", "bob-strong", "carol-crashes",
                         "dave-illegal-moves", "erin-too-slow")}
