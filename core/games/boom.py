"""Desconecta-4 BOOM: misère Connect 4 on 7 x 7 with bombs (rules/boom.md).

A side with four in a row loses. On a side's 5th, 10th, 15th ... turn, a piece it puts
while it has no bomb on the board is its bomb; BOOM, instead of a piece, removes the
bomb and the mover's other pieces in its row, and what stood above them falls.

Moves are columns 0..6 (notation `1`..`7`) and BOOM (`B`); a position is the action
sequence from the start, e.g. `1234567123B2`. The board is a `GravityBoard`, as in
Connect 4; each side's turn count follows from the ply, so a state is its pieces, its
bombs and its ply.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..game import Game, Kernels, Outcome, Termination, register_game
from ..errors import IllegalMove, NotationError
from ..values import WIN, terminal_value
from .gravity import (GravityBoard, GravityPosition, MovesNotation, column_encoding,
                      gravity_planes)

BOARD = GravityBoard(width=7, height=7)
WIDTH = BOARD.width
BOOM = WIDTH  # the move after the columns, as the course environment numbers it
SIDE_LABELS = ("Green", "Blue")
BOMB_EVERY = 5  # a side's bomb comes on its 5th, 10th, 15th ... turn
MAX_PLIES = 300  # a game that reaches it is a draw: BOOM can undo progress forever

# The seed engine's heuristic: along each direction, every maximal run of 1, 2 or 3 of
# a side's pieces costs that side RUN_COSTS[length] (four in a row ends the game);
# a bomb on the board is worth BOMB_BONUS to its owner.
RUN_COSTS = (0, 10, 20, 30)
BOMB_BONUS = 25
# The seed's run costs come to exactly PIECE_COST a piece while no side has four: along
# each of the 4 directions every piece is in one run of 1-3, and a run of n costs 10 n.
# The alpha-beta kernel counts pieces, the same figure and cheaper. (10 a piece was
# tried against the seed engine: 12 of 24 won from random openings at 500k nodes a move,
# against 7 of 24 at 40, but 1 of 17 at 1 s a move from the start; not kept.)
PIECE_COST = 40
POISON_COST = 15  # per empty cell that would complete the side's own four
SAFE_COLUMN_BONUS = 30  # per column the side can play without completing its four
# A search that avoids repeats (TreeSearch.set_root) scores a return to a position the
# game has had as a draw worth this much less than even to the side it searches for:
# both sides can hold their ground by BOOMing, and without it two searches go round
# the same cycle of positions to the ply cap.
REPEAT_CONTEMPT = 50


def cell_of(bit: int) -> tuple[int, int]:
    """(column, row) of a single-bit board, row 0 at the bottom."""
    return divmod(bit.bit_length() - 1, BOARD.stride)


def cell_name(bit: int) -> str:
    column, row = cell_of(bit)
    return f"column {column + 1}, row {row + 1}"


@dataclass(frozen=True, slots=True, eq=False)
class BoomState(GravityPosition):
    """`pieces[s]` are side s's bits (its bomb included), `bombs[s]` its bomb's bit
    (0 for none); `history` is the actions from the start, for notation.

    States compare and hash by `key()`: the same pieces, bombs and ply reached by two
    action orders are the same position.
    """

    pieces: tuple[int, int] = (0, 0)
    bombs: tuple[int, int] = (0, 0)
    history: tuple[int, ...] = ()
    board = BOARD

    @property
    def game(self) -> "Boom":
        return GAME

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BoomState) and other.key() == self.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def key(self) -> int:
        """Ply, both bombs and both sides' pieces, packed: everything the future
        depends on (the ply fixes each side's turn count and the ply cap)."""
        key = self.ply
        for board in (*self.bombs, *self.pieces):
            key = key << (WIDTH * BOARD.stride) | board
        return key

    def is_bomb(self, column: int, row: int) -> bool:
        return bool((self.bombs[0] | self.bombs[1]) & BOARD.bit(column, row))

    # --- turns and bombs -----------------------------------------------------------

    def turns_taken(self, side: int) -> int:
        """How many turns `side` has had (side 0 moves on even plies)."""
        return (self.ply + 1 - side) // 2

    def turns_to_bomb(self, side: int) -> int | None:
        """In how many of its own turns `side` puts its next bomb (1: its next turn),
        or None while it has a bomb on the board."""
        if self.bombs[side]:
            return None
        taken = self.turns_taken(side)
        return -(taken + 1) % BOMB_EVERY + 1

    def bomb_turn(self, side: int) -> int | None:
        """The number of `side`'s turn that puts its next bomb (5, 10, ...), or None."""
        wait = self.turns_to_bomb(side)
        return None if wait is None else self.turns_taken(side) + wait

    def bomb_status(self, side: int, short: bool = False) -> str:
        """For people, in a few words: `bomb on the board`, `bomb with its next piece`
        or `next bomb in 3 turns`; `short`, after the word bomb: `on board`, `next
        piece` or `in 3 turns`."""
        wait = self.turns_to_bomb(side)
        if wait is None:
            return "on board" if short else "bomb on the board"
        if wait == 1:
            return "next piece" if short else "bomb with its next piece"
        return f"in {wait} turns" if short else f"next bomb in {wait} turns"

    # --- the rules -----------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        lines = [BOARD.has_four(pieces) for pieces in self.pieces]
        if any(lines):
            actor = 1 - self.to_move
            boomed = self.history[-1] == BOOM
            after = f" after {SIDE_LABELS[actor]}'s BOOM" if boomed else ""
            if all(lines):
                return Outcome(self.to_move, Termination.LINE,
                               f"both sides have four in a row{after}: "
                               f"{SIDE_LABELS[actor]}, who acted, loses")
            loser = lines.index(True)
            return Outcome(1 - loser, Termination.LINE,
                           f"{SIDE_LABELS[loser]} has four in a row{after}")
        if self.occupied == BOARD.full_board:
            return Outcome(None, Termination.FULL_BOARD, "the board is full")
        if self.ply >= MAX_PLIES:
            return Outcome(None, Termination.PLY_CAP,
                           f"{MAX_PLIES} plies without four in a row")
        return None

    def moves(self) -> list[int]:
        """Columns that are not full, then BOOM if the mover has a bomb."""
        if self.outcome() is not None:
            return []
        return self.open_columns() + [BOOM] * bool(self.bombs[self.to_move])

    def play(self, move: int) -> "BoomState":
        outcome = self.outcome()
        if outcome is not None:
            raise IllegalMove(f"the game is over ({outcome.reason})")
        if move == BOOM:
            return self._boom()
        new_bit = self.landing_bit(move)
        side = self.to_move
        pieces, bombs = list(self.pieces), list(self.bombs)
        pieces[side] |= new_bit
        if self.turns_to_bomb(side) == 1:
            bombs[side] = new_bit
        return BoomState(tuple(pieces), tuple(bombs), self.history + (move,))

    def _boom(self) -> "BoomState":
        side = self.to_move
        bomb = self.bombs[side]
        if not bomb:
            raise IllegalMove(f"{SIDE_LABELS[side]} has no bomb on the board "
                              f"({self.bomb_status(side)}, on its turn "
                              f"{self.bomb_turn(side)})")
        _, row = cell_of(bomb)
        removed = self.pieces[side] & BOARD.row_mask(row)
        green, blue, green_bomb, blue_bomb = BOARD.remove_and_fall(
            (*self.pieces, *self.bombs), removed)
        return BoomState((green, blue), (green_bomb, blue_bomb), self.history + (BOOM,))


def run_cost(pieces: int) -> int:
    """What `pieces` cost their owner: RUN_COSTS for each maximal run, per direction."""
    total = 0
    for d in BOARD.directions:
        run = pieces & ~(pieces << d)  # the first cell of every run
        at_least = []  # at_least[k]: the runs of k + 1 or more
        for length in range(1, len(RUN_COSTS) + 1):
            at_least.append(run.bit_count())
            run &= pieces >> (length * d)
        total += sum(RUN_COSTS[k] * (at_least[k - 1] - at_least[k])
                     for k in range(1, len(RUN_COSTS)))
    return total


class Boom(MovesNotation, Game):
    id = "boom"
    title = "Desconecta-4 BOOM"
    side_labels = SIDE_LABELS
    board = BOARD
    seed_depth = 8  # the course's engine: alpha-beta to depth 8 (seed_evaluate)
    repeat_contempt = REPEAT_CONTEMPT

    def start(self) -> BoomState:
        return BoomState()

    # --- notation --------------------------------------------------------------------

    def format_move(self, move: int) -> str:
        return "B" if move == BOOM else str(move + 1)

    def parse_move(self, text: str, state: BoomState) -> int:
        """`1`..`7` for a column, `B` (or `boom`, any case) for BOOM."""
        text = text.strip()
        if text.lower() in ("b", "boom"):
            move = BOOM
        elif len(text) == 1 and text in "1234567":
            move = int(text) - 1
        else:
            raise NotationError(f"{text!r} is not a move: give a column 1-7, or B for BOOM")
        state.play(move)  # raises IllegalMove with the reason
        return move

    def describe_move(self, move: int, state: BoomState) -> str:
        """BOOM with the bomb it sets off; a column, saying so when it puts a bomb."""
        side = state.to_move
        if move == BOOM and state.bombs[side]:
            return f"BOOM ({SIDE_LABELS[side]}'s bomb in {cell_name(state.bombs[side])})"
        if move != BOOM and state.turns_to_bomb(side) == 1:
            return f"{move + 1} (puts {SIDE_LABELS[side]}'s bomb)"
        return self.format_move(move)

    def parse_position(self, text: str) -> BoomState:
        """The actions from the start; a finished game reads, a move after its end not."""
        text = text.strip()
        state = BoomState()
        for index, char in enumerate(text, start=1):
            if state.outcome() is not None:
                raise NotationError(f"bad position {text!r}: move {index} ({char!r}) "
                                    f"comes after the end ({state.outcome().reason})")
            if char in "bB":
                move = BOOM
            elif char in "1234567":
                move = int(char) - 1
            else:
                raise NotationError(f"bad position {text!r}: move {index} is {char!r}, "
                                    "not a column 1-7 or B for BOOM")
            try:
                state = state.play(move)
            except IllegalMove as error:
                raise NotationError(f"bad position {text!r}: move {index} "
                                    f"({self.format_move(move)}) is illegal: {error}") \
                    from None
        return state

    # --- search help -------------------------------------------------------------------

    def seed_evaluate(self, state: BoomState) -> int:
        """The seed engine's: the opponent's run costs minus the mover's, plus the bomb
        bonus for the mover's bomb minus the opponent's; a finished game its decisive
        value."""
        outcome = state.outcome()
        if outcome is not None:
            return terminal_value(outcome, state.ply, state.to_move)
        own, other = state.to_move, 1 - state.to_move
        bombs = BOMB_BONUS * (bool(state.bombs[own]) - bool(state.bombs[other]))
        return run_cost(state.pieces[other]) - run_cost(state.pieces[own]) + bombs

    def evaluate(self, state: BoomState) -> int:
        """The seed's figure, plus what decides misère games: cells a side must never
        fill (they would complete its own four) count against it, and so does having
        few columns it can still play safely; a mover whose every column completes its
        own four, with no bomb to set off, loses with its next move."""
        value = self.seed_evaluate(state)
        if state.outcome() is not None:
            return value
        own, other = state.to_move, 1 - state.to_move
        occupied = state.occupied
        empty = BOARD.full_board & ~occupied
        playable = BOARD.playable_cells(occupied)
        poison = [BOARD.completing_cells(state.pieces[side]) & empty for side in (0, 1)]
        safe = [(playable & ~poison[side]).bit_count() for side in (0, 1)]
        if safe[own] == 0 and not state.bombs[own]:
            return -(WIN - (state.ply + 1))
        return (value + POISON_COST * (poison[other].bit_count() - poison[own].bit_count())
                + SAFE_COLUMN_BONUS * (safe[own] - safe[other]))

    def order_moves(self, state: BoomState, moves) -> list[int]:
        """BOOM first, as the seed engine tries it (so ties prefer it)."""
        return sorted(moves, key=lambda move: move != BOOM)

    def repetition_key(self, state: BoomState) -> tuple:
        """Pieces, bombs, and the ply modulo ten, which fixes the side to move and when
        each side's next bomb comes."""
        return state.pieces, state.bombs, state.ply % (2 * BOMB_EVERY)

    def states_so_far(self, state: BoomState) -> list[BoomState]:
        states = [BoomState()]
        for move in state.history:
            states.append(states[-1].play(move))
        return states

    def plies_left_at_most(self, state: BoomState) -> int:
        return MAX_PLIES - state.ply


def planes(state: BoomState):
    """The mover's pieces, the other side's, the mover's bomb, the other's; then
    whether the mover moved first, each side's turns to its next bomb (a fifth of them;
    0 with its bomb on the board) and how near the ply cap is (a draw)."""
    own, other = state.to_move, 1 - state.to_move
    waits = ((state.turns_to_bomb(side) or 0) / BOMB_EVERY for side in (own, other))
    return gravity_planes(state, (state.pieces[own], state.pieces[other],
                                  state.bombs[own], state.bombs[other]),
                          (*waits, state.ply / MAX_PLIES))


def encoding(game: Boom):
    """Planes as `planes` says; the policy is the column (0-6), then BOOM (7); the
    mirror (a BOOM clears a row, which the mirror keeps)."""
    return column_encoding(game, planes, extra_moves=1)


GAME = Boom()
register_game(
    "boom", "Desconecta-4 BOOM", lambda: GAME,
    board="plyground.tui.widgets.boards.boom:BoomBoard",
    renderer="plyground.tui.widgets.text.boom:boom_board",
    kernels=Kernels(tree="plyground.core.fast.boom:BoomBackend",
                    mcts="plyground.core.fast.boom_mcts:BoomTree",
                    puct="plyground.core.fast.boom_puct"),
    theme={"boom-first": "#6BC46D", "boom-second": "#3A7BD5"},  # Green and Blue
    rules=("Misère Connect 4 on 7×7: Green and Blue drop pieces, and a side that makes "
           "four of its own in a row LOSES. On each side's 5th, 10th, 15th… turn its "
           "piece is a bomb (one at a time). Instead of a piece, a side with a bomb can "
           "BOOM (key b): its bomb and its own pieces in the bomb's row go, and what was "
           "above falls. If a BOOM gives both sides four, the side that BOOMed loses. "
           "A full board, or 300 plies, is a draw."),
    notation="actions played, 1-7 or B, e.g. 1234567123B",
    review=("alphabeta:nodes=50000",), review_scale=100,  # about three safe columns
    encoding="plyground.core.games.boom:encoding")
