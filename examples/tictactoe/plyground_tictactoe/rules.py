"""Tic-tac-toe: the rules, the notation and an open-lines heuristic.

Cells are numbered 0..8 row by row from the bottom left, as the notation names them:
a1 b1 c1 are cells 0 1 2, a3 b3 c3 are cells 6 7 8 (columns a-c, rows 1-3 from the
bottom). A side's pieces are a 9-bit mask; a position is the two masks, so the same
position reached in two move orders is the same state. The moves played are kept too,
for notation and to show the last move, but take no part in equality.

A position is written as the moves played from the empty board, cell names separated
by spaces: `b2 a1 c3` (X on b2, O on a1, X on c3, O to move). The empty board is the
empty string.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from plyground.core.game import Encoding, Game, Outcome, Termination
from plyground.core.errors import IllegalMove, NotationError
from plyground.core.games.planes import Symmetry, board_map, board_symmetries, stone_planes
from plyground.core.values import WIN

SIDE_LABELS = ("X", "O")
CELLS = 9
FULL = (1 << CELLS) - 1
COLUMNS = "abc"


def cell_name(cell: int) -> str:
    row, column = divmod(cell, 3)
    return f"{COLUMNS[column]}{row + 1}"


CELL_NAMES = tuple(cell_name(cell) for cell in range(CELLS))
CELL_OF_NAME = {name: cell for cell, name in enumerate(CELL_NAMES)}


def mask(*cells: int) -> int:
    return sum(1 << cell for cell in cells)


# The eight lines of three: rows, columns, diagonals.
LINES = (
    *(mask(3 * row, 3 * row + 1, 3 * row + 2) for row in range(3)),
    *(mask(column, column + 3, column + 6) for column in range(3)),
    mask(0, 4, 8),
    mask(2, 4, 6),
)
# Whether a side with these pieces (any 9-bit mask) has three in a row: the rules are
# asked this at every node of a search, so it is one look-up.
HAS_LINE = tuple(any(pieces & line == line for line in LINES) for pieces in range(FULL + 1))
# The empty cells of an occupied mask, in the stable move order (a1, b1, ... c3).
EMPTY_CELLS = tuple(tuple(c for c in range(CELLS) if not occupied >> c & 1)
                    for occupied in range(FULL + 1))
# The order a search tries moves in: the centre (4 lines), the corners (3), the edges (2).
SEARCH_RANK = {cell: rank for rank, cell in enumerate((4, 0, 2, 6, 8, 1, 3, 5, 7))}
# The heuristic's score of a line holding k pieces of one side and none of the other.
LINE_SCORES = (0, 1, 10, 0)

WINS = tuple(Outcome(side, Termination.LINE, f"{label} has three in a row")
             for side, label in enumerate(SIDE_LABELS))
FULL_BOARD = Outcome(None, Termination.FULL_BOARD, "the board is full")


@dataclass(frozen=True, slots=True)
class TicTacToeState:
    """`pieces[s]` are side s's cells as a mask; `history` the cells played, in order."""

    pieces: tuple[int, int] = (0, 0)
    history: tuple[int, ...] = field(default=(), compare=False)

    @property
    def game(self) -> "TicTacToe":
        return GAME

    @property
    def occupied(self) -> int:
        return self.pieces[0] | self.pieces[1]

    @property
    def ply(self) -> int:
        return self.occupied.bit_count()

    @property
    def to_move(self) -> int:
        return self.ply & 1

    @property
    def last_move(self) -> int | None:
        return self.history[-1] if self.history else None

    def cell(self, cell: int) -> int | None:
        """The side whose piece is on `cell`, or None."""
        for side in (0, 1):
            if self.pieces[side] >> cell & 1:
                return side
        return None

    def outcome(self) -> Outcome | None:
        for side in (0, 1):
            if HAS_LINE[self.pieces[side]]:
                return WINS[side]
        if self.occupied == FULL:
            return FULL_BOARD
        return None

    def line_cells(self) -> int:
        """The cells of every line of three on the board (0 while there is none)."""
        return sum(line for line in LINES
                   if any(pieces & line == line for pieces in self.pieces))

    def moves(self) -> list[int]:
        if self.outcome() is not None:
            return []
        return list(EMPTY_CELLS[self.occupied])

    def play(self, move: int) -> "TicTacToeState":
        if not isinstance(move, int) or not 0 <= move < CELLS:
            raise IllegalMove(f"{move!r} is not a cell (cells are 0-8)")
        outcome = self.outcome()
        if outcome is not None:
            raise IllegalMove(f"the game is over ({outcome.reason})")
        taken = self.cell(move)
        if taken is not None:
            raise IllegalMove(f"{CELL_NAMES[move]} is taken (by {SIDE_LABELS[taken]})")
        x, o = self.pieces
        if self.to_move == 0:
            x |= 1 << move
        else:
            o |= 1 << move
        return TicTacToeState((x, o), self.history + (move,))

    def key(self) -> int:
        """X's cells in bits 0-8, O's in bits 9-17: one number per position."""
        return self.pieces[0] | self.pieces[1] << CELLS


def completing_cells(own: int, other: int) -> set[int]:
    """The empty cells on which `own` would make three in a row."""
    empty = FULL & ~(own | other)
    return {(line & ~own).bit_length() - 1 for line in LINES
            if (own & line).bit_count() == 2 and line & ~own & empty}


def open_lines_score(own: int, other: int) -> int:
    """LINE_SCORES summed over the lines `other` has no piece in."""
    return sum(LINE_SCORES[(own & line).bit_count()] for line in LINES if not other & line)


class TicTacToe(Game):
    id = "tictactoe"
    title = "Tic-tac-toe"
    side_labels = SIDE_LABELS

    def start(self) -> TicTacToeState:
        return TicTacToeState()

    def parse_cell(self, text: str) -> int:
        name = text.strip().lower()
        if name not in CELL_OF_NAME:
            raise NotationError(f"{text.strip()!r} is not a cell: give a column a-c and "
                                "a row 1-3, e.g. b2 (a1 is the bottom left)")
        return CELL_OF_NAME[name]

    def parse_move(self, text: str, state: TicTacToeState) -> int:
        cell = self.parse_cell(text)
        state.play(cell)  # raises IllegalMove with the reason
        return cell

    def format_move(self, move: int) -> str:
        return CELL_NAMES[move]

    def format_position(self, state: TicTacToeState) -> str:
        return self.format_line(state.history)

    def format_record(self, start: TicTacToeState, moves) -> str:
        """The moves from the empty board (the start's first): a position is its moves."""
        return self.format_line([*start.history, *moves])

    def parse_position(self, text: str) -> TicTacToeState:
        """Cells played from the empty board, e.g. `b2 a1 c3` (spaces or commas between
        them may be left out: `b2a1c3`). A finished game reads; a move after its end,
        or onto a taken cell, does not."""
        shown = text.strip()
        state = TicTacToeState()
        number = 0
        for word in filter(None, re.split(r"[\s,]+", shown.lower())):
            if not re.fullmatch(r"([abc][123])+", word):
                raise NotationError(
                    f"bad position {shown!r}: {word!r} is not a cell; cells are a column "
                    "a-c and a row 1-3 (a1 is the bottom left), e.g. 'b2 a1 c3'")
            for name in re.findall(r"[abc][123]", word):
                number += 1
                outcome = state.outcome()
                if outcome is not None:
                    raise NotationError(
                        f"bad position {shown!r}: move {number} ({name}) comes after the "
                        f"end of the game ({outcome.reason})")
                if state.cell(CELL_OF_NAME[name]) is not None:
                    raise NotationError(
                        f"bad position {shown!r}: move {number} plays {name}, which is "
                        "already taken")
                state = state.play(CELL_OF_NAME[name])
        return state

    def evaluate(self, state: TicTacToeState) -> int:
        """Open lines for the side to move minus the other's: a line neither side has
        blocked scores 1 with one piece, 10 with two. A side to move that can complete
        a line wins at once; one that cannot while the other side threatens on two
        cells loses on the next move. Both are scored as the results they are."""
        own, other = state.pieces[state.to_move], state.pieces[1 - state.to_move]
        if completing_cells(own, other):
            return WIN - (state.ply + 1)
        if len(completing_cells(other, own)) >= 2:
            return -(WIN - (state.ply + 2))
        return open_lines_score(own, other) - open_lines_score(other, own)

    def order_moves(self, state: TicTacToeState, moves) -> list[int]:
        """The centre first, then the corners, then the edges: by lines through them."""
        return sorted(moves, key=SEARCH_RANK.__getitem__)

    def plies_left_at_most(self, state: TicTacToeState) -> int:
        return CELLS - state.ply


GAME = TicTacToe()


# The planes lay the cells out as the cells are numbered (a1 b1 c1 is their first row):
# a cell's plane position is its move's policy index, and one permutation moves both.
CELL_BITS = np.arange(CELLS, dtype=np.uint64).reshape(3, 3)


def planes(state: TicTacToeState):
    """The mover's marks and the other side's (a position's future is the same
    whichever letter the mover plays)."""
    return stone_planes((state.pieces[state.to_move], state.pieces[1 - state.to_move]),
                        CELL_BITS)


def cell_index(state: TicTacToeState, move: int) -> int:
    """A move is a cell, its own policy index (either way)."""
    return move


def encoding(game: TicTacToe) -> Encoding:
    """What a network sees of tic-tac-toe (GameEntry.encoding names it): two planes,
    a policy over the nine cells, and the board's eight symmetries less the identity."""
    maps = [board_map(matrix, 3, 3) for matrix in board_symmetries(3, 3)]
    return Encoding((2, 3, 3), CELLS, planes, cell_index, cell_index,
                    tuple(Symmetry.of(cells, cells) for cells in maps))

