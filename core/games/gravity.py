"""Bitboard geometry for games where pieces fall down columns (Connect 4, BOOM).

Cell (column c, row r), row 0 at the bottom, is bit `c * (height + 1) + r`; the extra
bit on top of each column stays empty so that shifts never wrap one line into the next.
A side's pieces are one Python int of such bits.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property


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

    def column_height(self, occupied: int, column: int) -> int:
        return (occupied & self.column_mask(column)).bit_count()

    def playable_cells(self, occupied: int) -> int:
        """The lowest empty cell of every column that is not full."""
        return (occupied + self.bottom_row) & self.full_board

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
