"""Test positions made by seeded random play (reproducible, no hand tuning)."""
from __future__ import annotations

import random

from plyground.core import get_game
from plyground.core.games.boom import BOOM, MAX_PLIES
from plyground.core.games.boom import GAME as BOOM_GAME
from plyground.core.games.connect4 import BOARD

GAME = get_game("connect4")


def random_position(rng: random.Random, plies: int):
    """A running game after up to `plies` random moves (stops before any four)."""
    state = GAME.start()
    for _ in range(plies):
        moves = [m for m in state.moves() if state.play(m).outcome() is None]
        if not moves:
            break
        state = state.play(rng.choice(moves))
    return state


def connect4_endgames(seed: int, count: int, empty: int) -> list:
    """Running Connect 4 positions with `empty` empty cells, from seeded random games."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = random_position(rng, 42 - empty)
        if state.outcome() is None and state.ply == 42 - empty:
            found.append(state)
    return found


def positions_with_a_win_in_one(count: int, seed: int = 1):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = random_position(rng, rng.randrange(6, 30))
        if state.winning_moves():
            found.append(state)
    return found


def positions_needing_a_block(count: int, seed: int = 2):
    """(state, column): the side to move has no win, the opponent threatens to win in
    exactly one column, and blocking there leaves the opponent no immediate win; so every
    other move loses at once."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = random_position(rng, rng.randrange(6, 30))
        if state.outcome() is not None or state.winning_moves():
            continue
        opponent = state.pieces[1 - state.to_move]
        cells = BOARD.completing_cells(opponent) & BOARD.playable_cells(state.occupied)
        columns = [c for c in range(7) if cells & BOARD.column_mask(c)]
        if len(columns) == 1 and not state.play(columns[0]).winning_moves():
            found.append((state, columns[0]))
    return found


def play_randomly(rng: random.Random, game, plies: int):
    """`game` after up to `plies` random moves from its start (fewer if it ends)."""
    state = game.start()
    for _ in range(plies):
        if state.outcome() is not None:
            break
        state = state.play(rng.choice(state.moves()))
    return state


def random_games(game, seed: int, count: int):
    """Every state of `count` random games of `game` played to their end, the end
    included."""
    rng = random.Random(seed)
    for _ in range(count):
        state = game.start()
        yield state
        while state.outcome() is None:
            state = state.play(rng.choice(state.moves()))
            yield state


def assert_same_decisions(reference, fast, runs) -> None:
    """Run a reference tree and a kernel tree side by side: after every run they must
    hold the same root statistics and principal variation."""
    for count in runs:
        reference.run(count)
        fast.run(count)
        assert fast.iterations == reference.iterations
        assert fast.root_children() == reference.root_children()
        assert fast.principal_variation() == reference.principal_variation()


def assert_kernel_search_is_the_reference(game, state, iterations: int, seed: int,
                                          solver: bool = False):
    """mcts_search with the game's MCTS kernel and without it (plain, or with the
    solver): the same decision, which is returned."""
    from plyground.core.search.control import Budget
    from plyground.core.fast import mcts_tree_factory
    from plyground.core.search.mcts import mcts_search

    budget = Budget(iterations=iterations)
    plain = mcts_search(game, state, budget, seed=seed, solver=solver)
    fast = mcts_search(game, state, budget, seed=seed, fast_tree=mcts_tree_factory(game),
                       solver=solver)
    assert (fast.best_move, fast.value, fast.pv, fast.move_values, fast.work,
            fast.note) == (plain.best_move, plain.value, plain.pv, plain.move_values,
                           plain.work, plain.note)
    return fast


def gives_no_win(state, move) -> bool:
    """Quarto: whether `move` gives a piece the opponent cannot complete a line with."""
    after = state.play(move)
    return move.give is not None and not any(
        after.wins_at(s) for s in range(16) if after.board[s] < 0)


def quarto_endgame(rng: random.Random, game, empty: int):
    """A running Quarto position with `empty` empty squares and a piece in hand,
    reached by random moves that never hand the opponent a win (so not over at once)."""
    while True:
        state = game.start().play(rng.choice(game.start().moves()))
        while state.placed < 16 - empty:
            moves = state.moves()
            rng.shuffle(moves)  # the first quiet one: any quiet move as likely
            move = next((m for m in moves if gives_no_win(state, m)), None)
            if move is None:
                break
            state = state.play(move)
        if state.placed == 16 - empty and state.outcome() is None:
            return state


def quarto_endgames(seed: int, game, empty: int, count: int) -> list:
    rng = random.Random(seed)
    return [quarto_endgame(rng, game, empty) for _ in range(count)]


def loses_at_once(state, move) -> bool:
    """Whether `move` makes the mover lose at once (BOOM: its own four)."""
    outcome = state.play(move).outcome()
    return outcome is not None and outcome.winner == 1 - state.to_move


def careful_boom_game(rng: random.Random, max_plies: int = MAX_PLIES):
    """Every state of one random game, its end included: a side picks among the moves
    that do not lose at once when there are any, and BOOMs a quarter of the time it can."""
    state = BOOM_GAME.start()
    yield state
    while state.outcome() is None and state.ply < max_plies:
        moves = state.moves()
        safe = [m for m in moves if not loses_at_once(state, m)] or moves
        if BOOM in safe and rng.random() < 0.25:
            move = BOOM
        else:
            move = rng.choice(safe)
        state = state.play(move)
        yield state


# Seed engine (Green) against Alpha-Beta without repeat avoidance (Blue): from ply 106
# both sides go round the same ten plies ("BB23467512") until the ply cap.
CYCLING_BOOM_GAME = (
    "12132342567714BB435416776BB322417572BB46B57B1122335657B12B326711BB25326713"
    "65BB21725133BB223367B56B12345721BB13467512BB23467517BB23476512BB23467512"
    "BB23467512")


def first_return(record: str) -> tuple:
    """In a BOOM game's record, the position before the game's first return to an
    earlier position, and the move that returns."""
    state, seen = BOOM_GAME.start(), set()
    for char in record:
        seen.add(BOOM_GAME.repetition_key(state))
        move = BOOM_GAME.parse_move(char, state)
        if BOOM_GAME.repetition_key(state.play(move)) in seen:
            return state, move
        state = state.play(move)
    raise AssertionError("the game never returns to an earlier position")
