"""What every game's network encoding shares: stones as input planes, and a board's
symmetries as permutations of the planes' cells and of the policy's indices.

A symmetry is data, two index arrays, so that one `Symmetry.__call__` serves every
game and an encoding pickles (a trainer's worker process loads the same one).
Boards are flattened row-major; a symmetry's `to` array says where each cell goes.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Sequence

import numpy as np

# The 2x2 integer matrices of a square's symmetries, acting on (row, column) vectors
# centred on the board: MIRROR reverses the columns.
IDENTITY = ((1, 0), (0, 1))
MIRROR = ((1, 0), (0, -1))
DIHEDRAL = tuple(((a, b), (c, d)) for a, b, c, d in product((-1, 0, 1), repeat=4)
                 if abs(a) + abs(b) == 1 and abs(c) + abs(d) == 1 and a * d - b * c != 0)


def stone_planes(boards: Sequence[int], bits: np.ndarray) -> np.ndarray:
    """One float32 plane per bitboard of `boards` (each below 2**64): the plane's cell
    (r, c) is 1 where the board has bit `bits[r, c]`. A search asks for planes at every
    leaf, so this is a few numpy operations (some microseconds)."""
    shifts = bits.astype(np.uint64, copy=False)
    shifted = np.array(boards, np.uint64)[:, None, None] >> shifts
    return (shifted & np.uint64(1)).astype(np.float32)


def value_planes(cells: np.ndarray, values: Sequence[int]) -> np.ndarray:
    """One float32 plane per value: 1 where `cells` (an array of the board's shape)
    holds it."""
    return (cells[None] == np.asarray(values).reshape(-1, *([1] * cells.ndim))
            ).astype(np.float32)


def constant_planes(values: Sequence[float], rows: int, cols: int) -> np.ndarray:
    """One float32 plane per value, every cell of it the value: what the board does not
    show (whose turn it is, a piece in hand)."""
    planes = np.empty((len(values), rows, cols), np.float32)
    planes[:] = np.asarray(values, np.float32)[:, None, None]
    return planes


def board_map(matrix, rows: int, cols: int) -> np.ndarray:
    """Where each cell of a rows x cols board goes under `matrix` (a DIHEDRAL element
    that keeps the board's shape): `to[cell]`."""
    (a, b), (c, d) = matrix
    to = np.empty(rows * cols, np.intp)
    for cell in range(rows * cols):
        y, x = 2 * (cell // cols) - (rows - 1), 2 * (cell % cols) - (cols - 1)
        y, x = a * y + b * x, c * y + d * x
        to[cell] = (y + rows - 1) // 2 * cols + (x + cols - 1) // 2
    return to


def board_symmetries(rows: int, cols: int) -> list:
    """The matrices of a rows x cols board's symmetries other than the identity: the
    mirrors and the half turn, and on a square board the quarter turns and diagonal
    mirrors."""
    return [m for m in DIHEDRAL if m != IDENTITY and (rows == cols or m[0][1] == 0)]


def policy_map(to: np.ndarray, slots: int = 1, inner: Sequence[int] | None = None,
               extra: int = 0) -> np.ndarray:
    """Where each policy index goes when cell c goes to `to[c]`, for a policy laid out
    as `cell * slots + slot` then `extra` indices that no symmetry moves; `inner[slot]`
    is where a slot goes (by default it stays)."""
    inner = np.arange(slots) if inner is None else np.asarray(inner)
    cells = (to[:, None] * slots + inner[None, :]).ravel()
    return np.concatenate([cells, len(cells) + np.arange(extra)])


@dataclass(frozen=True, eq=False)
class Symmetry:
    """The same position seen mirrored or rotated: `cells[i]` is the plane cell whose
    value lands on cell i, `policy[j]` the policy index whose value lands on j."""

    cells: np.ndarray
    policy: np.ndarray

    @classmethod
    def of(cls, cells_to: np.ndarray, policy_to: np.ndarray) -> "Symmetry":
        """From where each cell and each policy index goes."""
        return cls(np.argsort(cells_to), np.argsort(policy_to))

    def __call__(self, planes: np.ndarray, policy: np.ndarray):
        """(planes[..., C, H, W], policy[..., P]) seen through the symmetry."""
        flat = planes.reshape(*planes.shape[:-2], -1)[..., self.cells]
        return flat.reshape(planes.shape), policy[..., self.policy]
