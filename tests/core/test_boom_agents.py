"""BOOM's agents: the seed engine as the course wrote it, and our heuristic's terms,
each checked against a plain computation over the rules."""
from __future__ import annotations

import random

import pytest

from plyground.core.search.control import Budget
from plyground.core import PlygroundError, get_game
from plyground.core.catalogue import make_agent
from plyground.core.games.boom import BOARD, POISON_COST, SAFE_COLUMN_BONUS, BoomState
from plyground.core.search.alphabeta import alphabeta_search
from plyground.core.search.control import SearchControl
from plyground.core.search.minimax import Minimax
from plyground.core.values import WIN
from tests.core.positions import CYCLING_BOOM_GAME as CYCLING_GAME
from tests.core.positions import first_return

GAME = get_game("boom")


def random_positions(seed: int, count: int) -> list[BoomState]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = GAME.start()
        for _ in range(rng.randrange(4, 60)):
            if state.outcome() is not None:
                break
            state = state.play(rng.choice(state.moves()))
        if state.outcome() is None:
            found.append(state)
    return found


def test_the_seed_engine_searches_the_seed_heuristic_to_its_depth():
    """Its value is plain minimax's with the seed heuristic at the same depth."""
    for state in random_positions(1, 8):
        done = make_agent("seed", depth=3).decide(state)
        plain = Minimax(GAME, SearchControl(Budget()), evaluate=GAME.seed_evaluate)
        value, _ = plain.line(state, 3)
        assert done.value == value
        assert done.depth == 3 or abs(value) > WIN // 2  # a found win ends the deepening
    deep = [make_agent("seed").decide(s) for s in random_positions(2, 3)]
    assert GAME.seed_depth in [done.depth for done in deep]


def test_only_a_game_with_a_seed_engine_can_have_it():
    with pytest.raises(PlygroundError, match="cannot play Connect 4"):
        make_agent("seed").decide(get_game("connect4").start())


def own_four_cells(state: BoomState, side: int) -> list[int]:
    """Empty cells where a piece of `side` would complete its four, cell by cell."""
    empty = BOARD.full_board & ~state.occupied
    return [bit for bit in (1 << i for i in range(empty.bit_length())) if empty & bit
            and BOARD.has_four(state.pieces[side] | bit)]


def test_the_heuristic_adds_poison_cells_and_safe_columns_to_the_seeds():
    checked = 0
    for state in random_positions(3, 300):
        own, other = state.to_move, 1 - state.to_move
        poison = [own_four_cells(state, side) for side in (0, 1)]
        playable = [BOARD.bit(c, state.column_height(c)) for c in state.open_columns()]
        safe = [sum(cell not in poison[side] for cell in playable) for side in (0, 1)]
        value = GAME.evaluate(state)
        if safe[own] == 0 and not state.bombs[own]:
            continue  # the next test's case
        assert value == GAME.seed_evaluate(state) \
            + POISON_COST * (len(poison[other]) - len(poison[own])) \
            + SAFE_COLUMN_BONUS * (safe[own] - safe[other])
        checked += sum(map(len, poison)) > 0
    assert checked > 20  # positions where the poison term is not zero


def test_a_mover_with_only_losing_columns_and_no_bomb_is_scored_lost():
    """Games where both sides avoid losing at once while they can end in such
    positions; there, every move makes the mover's own four."""
    rng = random.Random(4)
    found = 0
    for _ in range(60):
        state = GAME.start()
        while state.outcome() is None:
            if GAME.evaluate(state) == -(WIN - (state.ply + 1)):
                found += 1
                for move in state.moves():
                    outcome = state.play(move).outcome()
                    assert outcome is not None and outcome.winner == 1 - state.to_move
            safe = [m for m in state.moves() if state.play(m).outcome() is None]
            state = state.play(rng.choice(safe or state.moves()))
    assert found >= 5


@pytest.mark.parametrize("spec", ["random", "greedy", "minimax:depth=2",
                                  "alphabeta:depth=3", "mcts:iterations=200",
                                  "seed:depth=2"])
def test_every_agent_plays_boom(spec):
    from plyground.core.catalogue import parse_agent

    state = random_positions(5, 1)[0]
    assert parse_agent(spec).choose(state) in state.moves()


def test_a_return_to_an_earlier_position_is_a_draw_the_searching_side_dislikes():
    root, move = first_return(CYCLING_GAME)
    assert root.ply > 100
    child = root.play(move)
    done = alphabeta_search(GAME, root, Budget(depth=1))
    values = {v.move: v.value for v in done.move_values}
    assert values[move] == -GAME.repeat_contempt
    assert values[move] != -GAME.evaluate(child)  # it would be, without the rule:
    plain = alphabeta_search(GAME, root, Budget(depth=1), avoid_repeats=False)
    assert {v.move: v.value for v in plain.move_values}[move] == -GAME.evaluate(child)


def test_states_so_far_replay_the_game():
    root, _ = first_return(CYCLING_GAME)
    states = GAME.states_so_far(root)
    assert len(states) == root.ply + 1 and states[-1] == root and states[0] == GAME.start()
    assert all(b.history[:-1] == a.history for a, b in zip(states, states[1:]))


def test_the_seed_engine_does_not_avoid_repeats():
    """The course's engine knows nothing of repeats: it values the return by its
    heuristic."""
    root, move = first_return(CYCLING_GAME)
    child = root.play(move)
    assert GAME.seed_evaluate(child) != GAME.repeat_contempt
    seed = make_agent("seed", depth=1).decide(root)
    assert {v.move: v.value for v in seed.move_values}[move] == -GAME.seed_evaluate(child)
