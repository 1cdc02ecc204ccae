"""What games where pieces fall down columns share (Connect 4, BOOM): the bitboard
geometry, positions made of each side's pieces and the moves so far, and the notation
that writes a position as those moves.

Cell (column c, row r), row 0 at the bottom, is bit `c * (height + 1) + r`; the extra
bit on top of each column stays empty so that shifts never wrap one line into the next.
A side's pieces are one Python int of such bits.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..errors import IllegalMove
from ..game import Encoding
from .planes import MIRROR, Symmetry, board_map, constant_planes, policy_map, stone_planes


@dataclass(frozen=True)
class GravityBoard:
    width: int
    height: int

    @property
    def stride(self) -> int:
        """Bits per column (the column's cells plus one empty guard bit)."""
        return self.height + 1

    @property
    def cells(self) -> int:
        return self.width * self.height

    def bit(self, column: int, row: int) -> int:
        return 1 << (column * self.stride + row)

    def column_mask(self, column: int) -> int:
        return ((1 << self.height) - 1) << (column * self.stride)

    def bottom_bit(self, column: int) -> int:
        return 1 << (column * self.stride)

    def top_bit(self, column: int) -> int:
        return 1 << (column * self.stride + self.height - 1)

    @cached_property
    def bottom_row(self) -> int:
        return sum(self.bottom_bit(c) for c in range(self.width))

    @cached_property
    def full_board(self) -> int:
        return self.bottom_row * ((1 << self.height) - 1)

    @cached_property
    def directions(self) -> tuple[int, ...]:
        """Bit distance between neighbours: vertical, horizontal and both diagonals."""
        return (1, self.stride, self.stride - 1, self.stride + 1)

    def has_four(self, pieces: int) -> bool:
        """Whether `pieces` hold four in a line in any direction."""
        for shift in self.directions:
            pairs = pieces & (pieces >> shift)
            if pairs & (pairs >> (2 * shift)):
                return True
        return False

    def completing_cells(self, pieces: int) -> int:
        """Every cell (empty or not) that would give `pieces` four in a line.

        Works a direction at a time: a cell completes a line if it extends a run of
        three, or fills the gap in a 2+1 / 1+2 pattern, on either side.
        """
        found = 0
        for d in self.directions:
            pairs = (pieces << d) & (pieces << (2 * d))
            found |= pairs & (pieces << (3 * d))  # three below/left
            found |= pairs & (pieces >> d)  # two below, one above
            pairs = (pieces >> d) & (pieces >> (2 * d))
            found |= pairs & (pieces >> (3 * d))  # three above/right
            found |= pairs & (pieces << d)  # two above, one below
        return found & self.full_board

    def four_cells(self, pieces: int) -> int:
        """The cells of `pieces` that lie in a line of four (0 if there is none)."""
        cells = 0
        for window in self.windows:
            if pieces & window == window:
                cells |= window
        return cells

    def row_mask(self, row: int) -> int:
        return self.bottom_row << row

    def remove_and_fall(self, boards: tuple[int, ...], cells: int) -> tuple[int, ...]:
        """`boards` (bitboards of this board, e.g. each side's pieces) with `cells`
        emptied and, in each column, everything above an emptied cell fallen into it.

        Cells are taken from the top down, so a gap lower in a column stays where it
        is while the pieces above a higher one fall.
        """
        while cells:
            bit = 1 << (cells.bit_length() - 1)
            cells ^= bit
            above = self.column_mask((bit.bit_length() - 1) // self.stride) & -(bit << 1)
            boards = tuple((b & ~(above | bit)) | ((b & above) >> 1) for b in boards)
        return boards

    def column_height(self, occupied: int, column: int) -> int:
        return (occupied & self.column_mask(column)).bit_count()

    def playable_cells(self, occupied: int) -> int:
        """The lowest empty cell of every column that is not full."""
        return (occupied + self.bottom_row) & self.full_board

    @cached_property
    def bit_grid(self) -> np.ndarray:
        """The bit of each cell as a network's planes lay the board out: the top row
        first, columns left to right."""
        return np.array([[self.bit(c, r).bit_length() - 1 for c in range(self.width)]
                         for r in reversed(range(self.height))], np.uint64)

    @cached_property
    def windows(self) -> tuple[int, ...]:
        """Every line of four cells on the board, as a mask."""
        found = []
        for c in range(self.width):
            for r in range(self.height):
                for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_c, end_r = c + 3 * dc, r + 3 * dr
                    if 0 <= end_c < self.width and 0 <= end_r < self.height:
                        found.append(
                            sum(self.bit(c + i * dc, r + i * dr) for i in range(4))
                        )
        return tuple(found)


class GravityPosition:
    """For a position dataclass with `pieces` (one bitboard a side) and `history` (the
    moves from the start) on the GravityBoard `board`: the turn, the cells and where
    a piece put in a column lands."""

    __slots__ = ()
    board: GravityBoard

    @property
    def ply(self) -> int:
        return len(self.history)

    @property
    def to_move(self) -> int:
        return len(self.history) & 1

    @property
    def occupied(self) -> int:
        return self.pieces[0] | self.pieces[1]

    def cell(self, column: int, row: int) -> int | None:
        """The side whose piece is at (column, row), row 0 at the bottom, or None."""
        bit = self.board.bit(column, row)
        for side in (0, 1):
            if self.pieces[side] & bit:
                return side
        return None

    def column_height(self, column: int) -> int:
        return self.board.column_height(self.occupied, column)

    def open_columns(self) -> list[int]:
        """The columns that are not full, left to right."""
        occupied = self.occupied
        return [c for c in range(self.board.width) if not occupied & self.board.top_bit(c)]

    def landing_bit(self, column: int) -> int:
        """The cell a piece put in `column` lands on (IllegalMove if it cannot)."""
        board = self.board
        if not isinstance(column, int) or not 0 <= column < board.width:
            raise IllegalMove(f"{column!r} is not a column")
        occupied = self.occupied
        if occupied & board.top_bit(column):
            raise IllegalMove(f"column {column + 1} is full")
        return (occupied + board.bottom_bit(column)) & board.column_mask(column)


class MovesNotation:
    """For a Game whose positions are written as the moves from the start, run
    together (`4453`): lines and records read the same way."""

    def format_line(self, moves) -> str:
        return "".join(self.format_move(move) for move in moves)

    def format_record(self, start, moves) -> str:
        """One string from the empty board (the start's moves first)."""
        return self.format_line([*start.history, *moves])

    def format_position(self, state) -> str:
        return self.format_line(state.history)


def gravity_planes(position, boards, constants) -> np.ndarray:
    """A position's `boards` (bitboards) as planes, then a plane per constant, the
    first of them whether the side to move moved first: which side fills the odd rows
    decides the threats (zugzwang), and counting the stones to tell is more than a
    small network's few layers see at once."""
    board = position.board
    return np.concatenate([
        stone_planes(boards, board.bit_grid),
        constant_planes((1 - position.to_move, *constants), board.height, board.width)])


def same_index(state, move: int) -> int:
    """A move that is a column (or BOOM, after the columns) is its own policy index."""
    return move


def column_encoding(game, planes, extra_moves: int = 0) -> Encoding:
    """A gravity game's encoding: `planes`, a policy over the columns (then
    `extra_moves` moves of no column), and the mirror image, columns reversed."""
    board = game.board
    mirror = Symmetry.of(board_map(MIRROR, board.height, board.width),
                         policy_map(board_map(MIRROR, 1, board.width), extra=extra_moves))
    return Encoding(planes(game.start()).shape, board.width + extra_moves, planes,
                    same_index, same_index, (mirror,))
