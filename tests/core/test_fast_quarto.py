"""The Quarto alpha-beta kernel and the exact endgame, against brute force and the rules.

Endgames come from seeded random play that avoids handing the opponent a win, so that
they are not over at once; brute force is plain negamax over the rules, no pruning
(positions met again by another move order are remembered).
"""
from __future__ import annotations

import random

import pytest

from plyground.core.search.control import Budget
from plyground.core import get_game
from plyground.core.catalogue import make_agent
from plyground.core.fast import quarto as kernel
from plyground.core.fast import tree_backend, warm_up
from plyground.core.games.quarto import EXACT_EMPTY, QuartoState
from plyground.core.search.alphabeta import alphabeta_search
from plyground.core.search.control import SearchControl
from plyground.core.search.tree import bound_of
from plyground.core.values import INFINITY, WIN, is_decisive, terminal_value
from tests.core.positions import gives_no_win, quarto_endgames

GAME = get_game("quarto")
BLOCKS = get_game("quarto", squares=True)


@pytest.fixture(scope="module", autouse=True)
def compiled():
    warm_up("quarto")


def brute_force(state: QuartoState, known: dict | None = None) -> int:
    """Negamax over every line; a position reached again by another order of the same
    moves is looked up in `known` (one game's positions: a state equals another
    game's with the same board)."""
    known = {} if known is None else known
    if state not in known:
        outcome = state.outcome()
        known[state] = terminal_value(outcome, state.ply, state.to_move) \
            if outcome is not None else \
            max(-brute_force(state.play(move), known) for move in state.moves())
    return known[state]


def random_states(seed: int, count: int) -> list[QuartoState]:
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        state = GAME.start()
        for _ in range(rng.randrange(0, 17)):
            if state.outcome() is not None:
                break
            state = state.play(rng.choice(state.moves()))
        states.append(state)
    return states


def kernel_solve(state: QuartoState) -> int:
    backend = tree_backend(state.game)
    backend.reset()
    value, _ = backend.negamax(state, 17, -INFINITY, INFINITY,
                               SearchControl(Budget()), 0)
    return value


@pytest.mark.parametrize("game", [GAME, BLOCKS], ids=["standard", "2x2"])
def test_the_kernel_solves_small_endgames_as_brute_force_does(game):
    states = quarto_endgames(1, game, 5, 25) + quarto_endgames(2, game, 6, 4)
    values = [brute_force(state) for state in states]
    assert len(set(values)) >= 2  # wins, losses and draws, not one kind only
    for state, value in zip(states, values):
        assert kernel_solve(state) == value, game.format_position(state)


def test_alpha_beta_solves_small_endgames_as_brute_force_does():
    """The whole agent (live plies in Python, the kernel below) and the pure Python
    search (in trace mode, which keeps every node in Python) both."""
    for state in quarto_endgames(3, GAME, 5, 12):
        expected = brute_force(state)
        done = make_agent("alphabeta", depth=17).decide(state)
        assert done.value == expected, GAME.format_position(state)
        assert done.depth == GAME.plies_left_at_most(state) or is_decisive(expected)
        after = state.play(done.best_move)
        assert -brute_force(after) == expected  # the move chosen keeps the value


class Traced:
    trace = True

    def __call__(self, event) -> None:
        pass


def test_the_python_search_solves_small_endgames_too():
    for state in quarto_endgames(4, GAME, 4, 12):
        done = alphabeta_search(GAME, state, Budget(depth=17), observer=Traced())
        assert done.value == brute_force(state), GAME.format_position(state)


def test_symmetric_endgames_get_the_same_value_and_equivalent_moves():
    rng = random.Random(5)
    maps = GAME.piece_symmetries()
    for state in quarto_endgames(6, GAME, 7, 8):
        value = kernel_solve(state)
        for _ in range(3):
            squares, pieces = rng.choice(GAME.square_symmetries), rng.choice(maps)
            image = state.image(squares, pieces)
            assert kernel_solve(image) == value


def test_the_table_gives_one_key_to_symmetric_positions_and_maps_moves_back():
    rng = random.Random(7)
    maps = GAME.piece_symmetries()
    arrays = kernel.GameArrays(GAME)
    for state in random_states(8, 300):
        if state.outcome() is not None:
            continue
        board, hand, *_ = kernel.kernel_position(state)
        key, check, q, m, flips = kernel.canonical(board, hand, arrays.perms)
        squares, pieces = rng.choice(GAME.square_symmetries), rng.choice(maps)
        image = state.image(squares, pieces)
        image_board, image_hand, *_ = kernel.kernel_position(image)
        image_key = kernel.canonical(image_board, image_hand, arrays.perms)
        assert image_key[:2] == (key, check)
        # a move stored from the image is read back as the matching move here
        move = rng.choice(image.moves())
        code = kernel.encode(-1 if move.square is None else move.square,
                             -1 if move.give is None else move.give,
                             *image_key[2:], arrays.inverse_perms)
        square, give = kernel.decode(code, q, m, flips, arrays.perms)
        mine = [mv for mv in state.moves()
                if (mv.square if mv.square is not None else -1) == square
                and (mv.give if mv.give is not None else -1) == give]
        assert len(mine) == 1, GAME.format_position(state)
        # the two moves lead to positions with the same key
        after, image_after = state.play(mine[0]), image.play(move)
        if after.outcome() is None:
            keys = [kernel.canonical(*kernel.kernel_position(s)[:2], arrays.perms)[:2]
                    for s in (after, image_after)]
            assert keys[0] == keys[1]
        else:
            assert image_after.outcome() is not None


def test_different_positions_get_different_keys():
    arrays = kernel.GameArrays(GAME)
    piece_symmetries = GAME.piece_symmetries()
    seen = {}
    for state in random_states(9, 400):
        board, hand, *_ = kernel.kernel_position(state)
        key = kernel.canonical(board, hand, arrays.perms)[:2]
        text = GAME.format_position(state)
        if key in seen and seen[key] != text:
            # the same key is only allowed for positions related by a symmetry
            other = GAME.parse_position(seen[key])
            images = {GAME.format_position(other.image(s, p))
                      for s in GAME.square_symmetries for p in piece_symmetries}
            assert text in images
        seen[key] = text


def test_the_kernel_heuristic_equals_evaluate():
    arrays = kernel.GameArrays(GAME)
    states = [s for s in random_states(10, 1500) if s.outcome() is None]
    assert sum(is_decisive(GAME.evaluate(s)) for s in states) > 50
    for state in states:
        board, hand, pool, _, ply = kernel.kernel_position(state)
        danger = kernel.danger_mask(board, arrays.lines)
        assert kernel.evaluate(board, hand, pool, ply, danger, arrays.lines) == \
            GAME.evaluate(state), GAME.format_position(state)


def test_moves_are_ordered_winning_then_safe_then_losing():
    state = quarto_endgames(11, GAME, 8, 1)[0]
    ordered = GAME.order_moves(state, state.moves())
    assert sorted(ordered, key=GAME.format_move) == sorted(state.moves(),
                                                          key=GAME.format_move)
    safe = [gives_no_win(state, m) for m in ordered]
    assert safe == sorted(safe, reverse=True) and True in safe


def test_the_endgame_is_searched_to_the_end_at_once():
    state = quarto_endgames(12, GAME, EXACT_EMPTY, 1)[0]
    left = GAME.plies_left_at_most(state)
    assert list(GAME.iteration_depths(state, 64)) == [1, 2, left]
    assert list(GAME.iteration_depths(GAME.start(), 5)) == [1, 2, 3, 4, 5]


def test_a_proven_loss_is_reported_as_one():
    for state in quarto_endgames(13, GAME, 5, 40):
        if brute_force(state) < 0:
            done = make_agent("alphabeta", depth=17).decide(state)
            assert done.value <= -(WIN - 17)
            return
    pytest.fail("no lost endgame among the samples")


def test_a_stopped_kernel_search_reports_its_nodes():
    state = quarto_endgames(14, GAME, 10, 1)[0]
    done = alphabeta_search(GAME, state, Budget(nodes=5000), backend=tree_backend(GAME))
    assert done.work <= 5000 and done.best_move in state.moves()
    assert done.note.startswith("stopped")


def test_a_node_searched_whole_reports_each_reply_with_a_true_value():
    """negamax_node (the kernel taking a root move's node whole): each reply it reports
    has the value brute force gives, or a true bound on it where its window cut the
    search short; a give that hands over a line is reported as the loss it is."""
    known: dict = {}  # one table for every node: replies are the nodes' subtrees

    def solved(state: QuartoState) -> int:
        return brute_force(state, known)

    kinds = set()
    for state in quarto_endgames(7, GAME, 6, 3):
        for move in state.moves():
            node = state.play(move)
            if node.outcome() is not None:
                continue
            truth = solved(node)
            for alpha, beta in ((-INFINITY, INFINITY), (truth - 1, truth + 1),
                                (truth - 2, truth - 1)):
                tree_backend(GAME).reset()
                value, _, replies = tree_backend(GAME).negamax_node(
                    node, 17, alpha, beta, SearchControl(Budget()), 0)
                assert bound_of(value, alpha, beta) != "exact" or value == truth
                for reply, reply_value, reply_alpha in replies:
                    reply_truth = -solved(node.play(reply))
                    bound = bound_of(reply_value, reply_alpha, beta)
                    kinds.add(bound)
                    if bound == "exact":
                        assert reply_value == reply_truth, (node, reply)
                    elif bound == "upper":
                        assert reply_truth <= reply_value, (node, reply)
                    else:
                        assert reply_truth >= reply_value, (node, reply)
    assert kinds == {"exact", "upper", "lower"}  # every kind was checked
