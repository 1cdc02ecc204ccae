"""Quarto MCTS kernel: `PythonTree` of `search/mcts.py`, compiled, for both variants.

It makes exactly the reference's decisions from the same seed: the same SplitMix64
stream, moves listed in the order `QuartoState.moves()` lists them (the first move's
gives; then empty squares in index order, on each a placement that ends the game alone,
else one move per pool piece in increasing order), untried moves expanded in that order,
the first child with the best UCT score selected, playout moves drawn over that whole
list, and the same floating-point arithmetic. tests/core/test_fast_quarto_mcts.py holds
it to that.

A position is the board (16 piece codes, -1 empty), the piece in hand (-1 before the
first give and once the game is over) and the pool as a 16-bit mask. The game's lines
come as a table (squares x the lines through each x their four squares, -1 padded), so
one compiled kernel serves both variants. A move is `square * 17 + give`, 16 standing
for no square (the first move) and for no give (a placement that ends the game).

With the solver variant it proves nodes and plays decisive playouts as the reference
does (the first placement that wins, else a random move whose given piece completes no
line, else any move).

The tree is mcts_tree.py's; a node also keeps how many moves it has: its untried moves
are its list's moves past the children, listed again from the position when the next
one is expanded.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..games.quarto import QuartoMove
from ..search.mcts import DEFAULT_EXPLORATION
from .bits import nth_bit, popcount
from .mcts_tree import (DRAWN, LOST, START_CAPACITY, UNPROVEN, WON, KernelTree,
                        add_child, backup, mover_at, prove_path, select_child, winner_of)
from .quarto import line_danger
from .random import next_random

NONE = 16  # no square, or no piece given
ALL_PIECES = (1 << 16) - 1
MAX_MOVES = 16 * 15  # the second move: any square, then any of 15 pieces
MAX_PLIES = 17  # the first give, then 16 placements


@njit(cache=True, nogil=True)
def wins_at(board, piece, square, through):
    """Whether `piece` placed on `square` completes a line sharing an attribute."""
    for k in range(through.shape[1]):
        if through[square, k, 0] < 0:
            break
        together, apart, full = piece, piece, True
        for j in range(4):
            other = through[square, k, j]
            if other != square:
                if board[other] < 0:
                    full = False
                    break
                together &= board[other]
                apart |= board[other]
        if full and (together != 0 or apart != 15):
            return True
    return False


@njit(cache=True, nogil=True)
def list_moves(board, hand, pool, through, out):
    """Write the position's moves into `out` in the rules' order; return how many (0
    once the game is over: no piece in hand after the first move)."""
    count = 0
    if hand < 0:
        if pool == ALL_PIECES:  # the first move: a give and nothing else
            for give in range(16):
                out[count] = NONE * 17 + give
                count += 1
        return count
    for square in range(16):
        if board[square] >= 0:
            continue
        if pool == 0 or wins_at(board, hand, square, through):
            out[count] = square * 17 + NONE
            count += 1
        else:
            for give in range(16):
                if pool >> give & 1:
                    out[count] = square * 17 + give
                    count += 1
    return count


@njit(cache=True, nogil=True)
def play(board, hand, pool, move, side, winner, through):
    """Play `move` for `side`: place the piece in hand (on the board, in place), give
    one. Returns (hand, pool, winner): after a placement that gives nothing (the end)
    the hand is empty and the winner `side` or -1 for a draw; else `winner` as given."""
    square, give = move // 17, move % 17
    if square != NONE:
        if give == NONE:
            winner = side if wins_at(board, hand, square, through) else -1
        board[square] = hand
    if give == NONE:
        return -1, pool, winner
    return give, pool & ~(1 << give), winner


@njit(cache=True, nogil=True)
def placed_danger(board, hand, square, lines, line_dangers):
    """danger_mask(board) with `hand` placed on `square`, from each line's danger as
    the board stands (`line_dangers`): only the lines through the square change."""
    board[square] = hand
    danger = 0
    for line in range(lines.shape[0]):
        crossed = False
        for k in range(4):
            crossed |= lines[line, k] == square
        danger |= line_danger(board, lines[line]) if crossed else line_dangers[line]
    board[square] = -1
    return danger


@njit(cache=True, nogil=True)
def nth_empty(board, n):
    """The `n`th (from 0) empty square."""
    for square in range(16):
        if board[square] < 0:
            if n == 0:
                return square
            n -= 1
    return NONE


@njit(cache=True, nogil=True)
def decisive_pick(board, hand, pool, through, lines, line_dangers, safe_gives, rng):
    """search/mcts.decisive_move: the first placement that wins, else a random move
    whose given piece completes no line where it is placed (Quarto.safe_moves), else a
    random move; counted square by square rather than over the listed moves, with the
    same random draw over the same order (squares, then pieces)."""
    if hand < 0:  # the first move: a give, each one safe on the empty board
        return NONE * 17 + nth_bit(pool, np.int64(next_random(rng) % np.uint64(
            popcount(np.uint64(pool)))))
    empty = 0
    for square in range(16):
        if board[square] < 0:
            if wins_at(board, hand, square, through):
                return square * 17 + NONE
            empty += 1
    if pool == 0:  # the last placement: it gives nothing, so it is safe
        return nth_empty(board, np.int64(next_random(rng) % np.uint64(empty))) * 17 + NONE
    for line in range(lines.shape[0]):
        line_dangers[line] = line_danger(board, lines[line])
    count = 0
    for square in range(16):
        safe_gives[square] = 0
        if board[square] < 0:
            # the pieces that complete no line once the piece in hand is there
            safe_gives[square] = pool & ~placed_danger(board, hand, square, lines,
                                                       line_dangers)
            count += popcount(np.uint64(safe_gives[square]))
    pieces = popcount(np.uint64(pool))
    if count == 0:  # every move hands the opponent a win: any one
        pick = np.int64(next_random(rng) % np.uint64(empty * pieces))
        return nth_empty(board, pick // pieces) * 17 + nth_bit(pool, pick % pieces)
    pick = np.int64(next_random(rng) % np.uint64(count))
    for square in range(16):
        here = popcount(np.uint64(safe_gives[square]))
        if pick < here:
            return square * 17 + nth_bit(safe_gives[square], pick)
        pick -= here
    return -1  # not reached: the picks add up to count


@njit(cache=True, nogil=True)
def run(count, root_board, root_hand, root_pool, root_winner, through, lines, to_move,
        exploration, solver, nodes, child_count, moves, proof, proof_plies, move_count,
        size, rng):
    """Up to `count` iterations of PythonTree.iterate (plain, or with the solver);
    returns how many ran (fewer once the root is proven). `size[0]` is the number of
    nodes; the arrays must have room for `count` more. `move_count[n]` is node n's
    number of moves; `root_winner` is the root's winner if its game is over (-1 a
    draw)."""
    board = np.empty_like(root_board)
    listed = np.empty(MAX_MOVES, np.int64)
    line_dangers = np.empty(lines.shape[0], np.int64)
    safe_gives = np.empty(16, np.int64)  # per square
    path = np.empty(MAX_PLIES + 1, np.int64)
    for iteration in range(count):
        if proof[0] != UNPROVEN:
            return iteration
        board[:] = root_board
        hand, pool, winner = root_hand, root_pool, root_winner
        node, depth, side = 0, 0, to_move  # side: the side to move
        path[0] = 0
        # selection: while the node is unproven with children and no untried move
        while proof[node] == UNPROVEN and 0 < child_count[node] == move_count[node]:
            node = select_child(node, nodes, exploration)
            hand, pool, winner = play(board, hand, pool, moves[node], side, winner,
                                      through)
            side = 1 - side
            depth += 1
            path[depth] = node
        # expansion: the first untried move, appended to the children
        expanded = proof[node] == UNPROVEN and child_count[node] < move_count[node]
        if expanded:
            list_moves(board, hand, pool, through, listed)
            move = listed[child_count[node]]
            hand, pool, winner = play(board, hand, pool, move, side, winner, through)
            side = 1 - side
            node = add_child(node, move, nodes, child_count, moves, size)
            depth += 1
            path[depth] = node
        if proof[node] != UNPROVEN:  # proven: its result, no playout
            winner = winner_of(proof[node], mover_at(depth, to_move))
        else:
            # playout: random (or decisive) moves to the end
            legal = list_moves(board, hand, pool, through, listed)
            if expanded:
                move_count[node] = legal
                if solver and legal == 0:  # the game is over: proven
                    mover = 1 - side
                    proof[node] = DRAWN if winner < 0 else (WON if winner == mover
                                                            else LOST)
            going = legal > 0
            while going:
                if solver:
                    move = decisive_pick(board, hand, pool, through, lines, line_dangers,
                                         safe_gives, rng)
                else:
                    move = listed[np.int64(next_random(rng) % np.uint64(legal))]
                hand, pool, winner = play(board, hand, pool, move, side, winner, through)
                side = 1 - side
                if solver:  # the moves are not listed: a piece in hand, a move to make
                    going = hand >= 0
                else:
                    legal = list_moves(board, hand, pool, through, listed)
                    going = legal > 0
        backup(path, depth, to_move, winner, nodes)
        if proof[node] != UNPROVEN:
            prove_path(path, depth, move_count, child_count, nodes, proof,
                       proof_plies)
    return count


def lines_through(game) -> np.ndarray:
    """The game's lines through each square, as the kernel's table."""
    table = game.lines_through
    through = np.full((16, max(len(lines) for lines in table), 4), -1, np.int64)
    for square, lines in enumerate(table):
        through[square, :len(lines)] = lines
    return through


def decode(code: int) -> QuartoMove:
    """The rules' move for a kernel move code (`square * 17 + give`)."""
    square, give = divmod(int(code), 17)
    return QuartoMove(None if square == NONE else square, None if give == NONE else give)


class QuartoTree(KernelTree):
    """The MctsTree for Quarto (either variant), made by `(state, seed, exploration)`."""

    EXTRA_FIELDS = {"move_count": np.int16}
    solves = True

    def __init__(self, state, seed: int, exploration: float = DEFAULT_EXPLORATION,
                 capacity: int = START_CAPACITY, solver: bool = False) -> None:
        super().__init__(state.to_move, seed, exploration, capacity, solver)
        self.board = np.array(state.board, np.int64)
        self.hand = -1 if state.hand is None else state.hand
        self.pool = sum(1 << piece for piece in state.pool())
        outcome = state.outcome()
        self.winner = -1 if outcome is None or outcome.winner is None else outcome.winner
        self.through = lines_through(state.game)
        self.lines = np.array(state.game.lines, np.int64)
        listed = np.empty(MAX_MOVES, np.int64)
        self.move_count[0] = list_moves(self.board, self.hand, self.pool, self.through,
                                        listed)

    def kernel(self, count: int) -> int:
        return run(count, self.board, self.hand, self.pool, self.winner, self.through,
                   self.lines, self.to_move, self.exploration, self.solver,
                   self.nodes, self.child_count, self.moves, self.proof, self.proof_plies,
                   self.move_count, self.size, self.rng)

    def move_of(self, code) -> QuartoMove:
        return decode(code)


def warm_up() -> None:
    """Compile the kernels (or load them from numba's cache) on a few iterations and a renumbering."""
    from ..games.quarto import Quarto

    for solver in (False, True):
        QuartoTree(Quarto().start(), 0, solver=solver).warm_up()
