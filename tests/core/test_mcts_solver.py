"""MCTS-Solver with decisive playouts (search/mcts.py): its kernels make the reference's
decisions, what it proves agrees with the exact searches, and the agent offers it and
plain UCT."""
from __future__ import annotations

import random

import numpy as np
import pytest

from plyground.core.search.control import Budget
from plyground.core import get_game
from plyground.core.catalogue import parse_agent
from plyground.core.errors import BadSetting
from plyground.core.connect4.book import default_book
from plyground.core.fast.c4solver import Solver
from plyground.core.fast.connect4_mcts import Connect4Tree
from plyground.core.fast.quarto import kernel_position
from plyground.core.fast.quarto_mcts import QuartoTree, decisive_pick, decode, lines_through
from plyground.core.game import Game
from plyground.core.games.connect4 import GAME
from plyground.core.games.quarto import Quarto
from plyground.core.rng import SplitMix64
from plyground.core.search.mcts import (PythonTree, decisive_move, describe_proven,
                                        mcts_search)
from plyground.core.values import WIN, is_decisive
from tests.core.positions import (assert_kernel_search_is_the_reference,
                                  assert_same_decisions, connect4_endgames,
                                  positions_needing_a_block, positions_with_a_win_in_one,
                                  quarto_endgames, random_position)

QUARTOS = (Quarto(), Quarto(squares=True))


def moves_to_end(score: int, ply: int) -> int:
    """The moves of the side that ends the game, for a proven (decisive) score."""
    return (WIN - abs(score) - ply + 1) // 2


@pytest.mark.parametrize("seed", [1, 2])
def test_the_connect4_kernel_makes_the_solver_references_decisions(seed):
    rng = random.Random(seed)
    states = [random_position(rng, plies) for plies in (0, 4, 10, 16, 22)]
    for state in states + connect4_endgames(seed, 2, 14):
        reference = PythonTree(state, seed, solver=True)
        fast = Connect4Tree(state, seed, capacity=4, solver=True)
        assert_same_decisions(reference, fast, (1, 2, 37, 300, 700))


def test_a_connect4_search_with_the_solver_kernel_equals_the_reference():
    proven = 0
    for state in connect4_endgames(3, 4, 12):
        done = assert_kernel_search_is_the_reference(GAME, state, 2500, seed=5,
                                                     solver=True)
        proven += done.note.startswith("proven")
    assert proven  # the proofs were exercised too


@pytest.mark.parametrize("game", QUARTOS, ids=lambda g: g.spec)
def test_the_quarto_kernel_makes_the_solver_references_decisions(game):
    start = game.start()
    states = [start, start.play(start.moves()[5])] + quarto_endgames(4, game, 10, 2) + \
        quarto_endgames(5, game, 5, 3)
    for state in states:
        reference = PythonTree(state, 9, solver=True)
        fast = QuartoTree(state, 9, capacity=4, solver=True)
        runs = (1, 2, 37, 100) if state.placed < 6 else (1, 2, 37, 300, 900)
        assert_same_decisions(reference, fast, runs)


def test_connect4_proofs_agree_with_the_perfect_solver():
    """Every proven root's result is the solver's, and a proven win or loss takes at
    most the moves it says (the solver's count is the exact one)."""
    solver, proven = Solver(default_book()), 0
    for state in connect4_endgames(11, 12, 14):
        done = mcts_search(GAME, state, Budget(iterations=60_000), seed=1, solver=True,
                           fast_tree=Connect4Tree)
        score = solver.solve(state)
        for value in done.move_values:
            if value.bound == "exact":
                assert value.value == move_result(solver, state, value.move), state
        if done.note:
            proven += 1
            result = 0.5 if score == 0 else float(score > 0)
            assert done.value == result, state
            stat = next(v for v in done.move_values if v.move == done.best_move)
            assert stat.bound == "exact" and stat.value == result
            if score:
                stones = state.ply // 2 if score > 0 else (state.ply + 1) // 2
                exact_moves = 22 - abs(score) - stones
                said = int(done.note.rsplit(" ", 1)[1].lstrip("≤"))
                assert exact_moves <= said, (state, done.note)
    assert proven >= 6


def move_result(solver, state, move) -> float:
    """A Connect 4 move's exact result for the side playing it: 1, 0.5 or 0."""
    after = state.play(move)
    outcome = after.outcome()
    if outcome is not None:
        return 0.5 if outcome.winner is None else 1.0
    score = solver.solve(after)  # for the other side
    return 0.5 if score == 0 else float(score < 0)


@pytest.mark.parametrize("game", QUARTOS, ids=lambda g: g.spec)
def test_quarto_proofs_agree_with_alphabeta_to_the_end(game):
    exact, proven = parse_agent("alphabeta:depth=16"), 0
    for state in quarto_endgames(21, game, 6, 8):
        done = mcts_search(game, state, Budget(iterations=40_000), seed=2, solver=True,
                           fast_tree=QuartoTree)
        if not done.note:
            continue
        proven += 1
        value = exact.decide(state).value
        result = 0.5 if not is_decisive(value) else float(value > 0)
        assert done.value == result, (state, done.note, value)
    assert proven >= 4


def test_a_proven_root_ends_the_search_and_says_so():
    for state in positions_with_a_win_in_one(5):
        done = mcts_search(GAME, state, Budget(iterations=5000), seed=1, solver=True,
                           fast_tree=Connect4Tree)
        assert done.work < 5000 and done.note == "proven: win in 1"
        assert done.pv[0] == done.best_move  # the line starts with the move played
        assert state.play(done.best_move).outcome().winner == state.to_move
    for state, column in positions_needing_a_block(5):
        done = mcts_search(GAME, state, Budget(iterations=20_000), seed=1, solver=True,
                           fast_tree=Connect4Tree)
        assert done.best_move == column == done.pv[0]
        losing = [v for v in done.move_values if v.move != column]
        assert all(v.bound == "exact" and v.value == 0.0 for v in losing)


def test_decisive_playouts_take_a_win_and_block_a_threat():
    for state in positions_with_a_win_in_one(10, seed=4):
        rng = SplitMix64(1)
        move = decisive_move(state, rng)
        assert state.play(move).outcome().winner == state.to_move
        assert move == min(state.winning_moves())
    for state, column in positions_needing_a_block(10, seed=5):
        assert decisive_move(state, SplitMix64(2)) == column


@pytest.mark.parametrize("game", QUARTOS + (GAME,), ids=lambda g: g.spec)
def test_a_games_own_decisive_moves_are_the_generic_ones(game):
    """Connect 4 and Quarto say the win in one and the safe moves faster; they must be
    what the core's definitions (play each move and look) give."""
    rng = random.Random(3)
    for _ in range(6):
        state = game.start()
        while state.outcome() is None:
            assert game.winning_move(state) == Game.winning_move(game, state)
            if getattr(state, "placed", 5) >= 5:
                assert game.safe_moves(state) == Game.safe_moves(game, state)
            state = state.play(rng.choice(state.moves()))


@pytest.mark.parametrize("game", QUARTOS, ids=lambda g: g.spec)
def test_the_quarto_kernels_playout_move_is_decisive_move(game):
    """The kernel counts safe moves square by square instead of listing the moves: the
    same move from the same random state, at every stage of random games (the first
    give, wins in one, the last placement, no safe move)."""
    rng, cases = random.Random(4), set()
    for _ in range(30):
        state = game.start()
        while state.outcome() is None:
            seed = rng.getrandbits(64)
            kernel_rng = np.array([seed], np.uint64)
            board, hand, pool, _, _ = kernel_position(state)
            code = decisive_pick(board.astype(np.int64), hand, pool, lines_through(game),
                                 np.array(game.lines, np.int64),
                                 np.empty(len(game.lines), np.int64),
                                 np.empty(16, np.int64), kernel_rng)
            expected = decisive_move(state, SplitMix64(seed))
            assert decode(code) == expected, (game.format_position(state), seed)
            cases.add("first give" if state.hand is None else
                      "win" if game.winning_move(state) else
                      "last" if not state.pool() else
                      "safe" if game.safe_moves(state) else "none safe")
            # mostly safe moves, so that games reach their last placement too
            safe = game.safe_moves(state) if rng.random() < 0.8 else []
            state = state.play(rng.choice(safe or state.moves()))
    assert cases == {"first give", "win", "last", "safe", "none safe"}


def test_proofs_are_said_as_win_or_loss_in_at_most_n_moves():
    ply = 10
    assert describe_proven(WIN - ply - 1, ply) == "win in 1"
    assert describe_proven(WIN - ply - 5, ply) == "win in ≤3"
    assert describe_proven(-(WIN - ply - 2), ply) == "loss in 1"
    assert describe_proven(-(WIN - ply - 6), ply) == "loss in ≤3"
    assert describe_proven(0, ply) == "draw"


def test_the_agent_solves_where_a_kernel_has_the_solver_and_plain_uct_stays():
    mcts, plain = parse_agent("mcts"), parse_agent("mcts:uct=plain")
    assert mcts.solves(GAME) and mcts.solves(QUARTOS[0])
    assert not mcts.solves(get_game("boom")) and not mcts.solves(get_game("cephalopod"))
    assert not plain.solves(GAME) and parse_agent("mcts:uct=solver").solves(
        get_game("boom"))
    state = positions_with_a_win_in_one(1, seed=8)[0]
    assert plain.decide(state).work == 5500 and not plain.decide(state).note
    assert mcts.decide(state).work < 5500 and mcts.decide(state).note
    with pytest.raises(BadSetting, match="uct='fast' is not one of solver, plain"):
        parse_agent("mcts:uct=fast")
