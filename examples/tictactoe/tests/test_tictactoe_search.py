"""plyground's searches on tic-tac-toe: the node counts they report and the values they
prove, from the empty board to the end of the game.

Minimax counts a node once, when it enters it (`TreeSearch.enter`): the root, every
inner node and every finished game, so to depth 9 it counts the whole game tree.
"""
from __future__ import annotations

from plyground.core.search.control import Budget
from plyground.core.catalogue import parse_agent
from plyground.core.search.alphabeta import alphabeta_search
from plyground.core.search.minimax import minimax_search
from plyground.core.values import proven
from plyground_tictactoe.rules import GAME

TREE_NODES = 549_946  # the published size of the game tree, the root included


def test_minimax_to_the_end_visits_the_whole_game_tree():
    done = parse_agent("minimax:depth=9").decide(GAME.start())
    assert done.work == TREE_NODES
    assert done.value == 0 and done.depth == 9  # a draw
    assert {mv.value for mv in done.move_values} == {0}  # every first move draws
    assert len(done.pv) == 9 and GAME.format_move(done.best_move) == "b2"


def test_minimax_counts_the_root_and_each_finished_game():
    last_move = GAME.parse_position("b2 a1 c1 a3 a2 c2 c3 b1")  # one cell left
    assert minimax_search(GAME, last_move, Budget(depth=9)).work == 2
    # two cells left: each reply is a finished game or leads to one
    two_left = GAME.parse_position("b2 a1 c1 a3 a2 c2 c3")
    assert minimax_search(GAME, two_left, Budget(depth=9)).work == 1 + 2 + 2


def test_minimax_at_a_shallower_depth_counts_the_tree_down_to_it():
    # plies 0..4 of the tree: no game ends before ply 5
    assert minimax_search(GAME, GAME.start(), Budget(depth=4)).work == \
        1 + 9 + 72 + 504 + 3024


def test_alphabeta_proves_the_draw_with_far_fewer_nodes():
    done = parse_agent("alphabeta:depth=9").decide(GAME.start())
    assert done.value == 0 and done.depth == 9 and not done.stopped
    assert proven(GAME, GAME.start(), done.value, done.depth) == "proven draw"
    # iterative deepening 1..9 with a transposition table: a few thousand nodes in all
    assert done.work < TREE_NODES // 50


def test_alphabeta_stops_deepening_at_the_end_of_the_game():
    done = alphabeta_search(GAME, GAME.start(), Budget(depth=30))
    assert done.depth == 9 and done.value == 0


def test_alphabeta_and_minimax_agree_on_every_first_reply():
    for cell in range(9):
        state = GAME.start().play(cell)
        assert alphabeta_search(GAME, state, Budget(depth=8)).value == \
            minimax_search(GAME, state, Budget(depth=8)).value == 0


def test_a_win_is_found_and_taken():
    state = GAME.parse_position("a1 b2 b1 c3")  # X to move: c1 wins at once
    for spec in ("greedy", "minimax:depth=3", "alphabeta:depth=9",
                 "mcts:iterations=300,seed=1"):
        assert GAME.format_move(parse_agent(spec).choose(state)) == "c1", spec
