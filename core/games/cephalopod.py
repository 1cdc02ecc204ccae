"""Cephalopod (Mark Steere): dice placement with mandatory captures, on R x C boards.

Cells are numbered row by row from the top left; a cell holds 0 (empty), +pips for a
Red die or -pips for a Blue die. Algebraic names put `a1` at the bottom left. A move is
a cell and the neighbours it captures, in the fixed direction order up, right, down,
left; the fast kernel in core/fast/ generates moves in exactly the order `moves()` does.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..errors import BadOption, IllegalMove, NotationError
from ..game import Encoding, Game, Kernels, Outcome, Termination, register_game, whole_number
from .planes import Symmetry, board_map, board_symmetries, policy_map, value_planes

SIDE_LABELS = ("Red", "Blue")
SIDE_LETTERS = ("r", "b")
MAX_SUM = 6  # captured dice may total at most this many pips
DIRECTIONS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # up, right, down, left
# Sets of two or more directions, as bit masks, in the order moves are listed
CAPTURE_MASKS = tuple(mask for mask in range(16) if mask.bit_count() >= 2)
SIZES = ((5, 5), (3, 3), (3, 5))

# Heuristic weights: a die more than the opponent, and a die that can no longer be
# captured (a 6, or one with no empty neighbour to be captured from).
DIE_WEIGHT = 100
SAFE_WEIGHT = 30


@dataclass(frozen=True, slots=True)
class CephalopodMove:
    cell: int
    captures: tuple[int, ...] = ()  # captured cells, in direction order


@dataclass(frozen=True, slots=True)
class CephalopodState:
    game: "Cephalopod" = field(compare=False, repr=False)
    cells: tuple[int, ...]
    to_move: int = 0
    ply: int = field(default=0, compare=False)

    def die(self, cell: int) -> tuple[int, int] | None:
        """(owner, pips) of the die on `cell`, or None if it is empty."""
        value = self.cells[cell]
        if value == 0:
            return None
        return (0, value) if value > 0 else (1, -value)

    def dice(self, side: int) -> int:
        return sum(1 for v in self.cells if (v > 0 if side == 0 else v < 0))

    def outcome(self) -> Outcome | None:
        if 0 in self.cells:
            return None
        red, blue = self.dice(0), self.dice(1)
        winner = 0 if red > blue else 1
        return Outcome(winner, Termination.FULL_BOARD,
                       f"the board is full: Red {red} dice, Blue {blue}")

    def moves(self) -> list[CephalopodMove]:
        if 0 not in self.cells:
            return []
        found = []
        for cell, value in enumerate(self.cells):
            if value == 0:
                found.extend(self.moves_at(cell))
        return found

    def moves_at(self, cell: int) -> list[CephalopodMove]:
        """The legal moves on an empty cell: its captures, or else a plain placement."""
        around = self.game.neighbours[cell]
        occupied = 0
        for direction, neighbour in enumerate(around):
            if neighbour >= 0 and self.cells[neighbour]:
                occupied |= 1 << direction
        captures = []
        for mask in CAPTURE_MASKS:
            if mask & occupied == mask:
                chosen = tuple(around[d] for d in range(4) if mask >> d & 1)
                if sum(abs(self.cells[n]) for n in chosen) <= MAX_SUM:
                    captures.append(CephalopodMove(cell, chosen))
        return captures or [CephalopodMove(cell)]

    def play(self, move: CephalopodMove) -> "CephalopodState":
        if not isinstance(move, CephalopodMove) or not 0 <= move.cell < len(self.cells):
            raise IllegalMove(f"{move!r} is not a move of this board")
        name = self.game.cell_name(move.cell)
        if self.cells[move.cell]:
            raise IllegalMove(f"{name} is not empty")
        if move not in self.moves_at(move.cell):
            legal = ", ".join(self.game.format_move(m) for m in self.moves_at(move.cell))
            raise IllegalMove(f"{self.game.format_move(move)} is not legal: on {name} "
                              f"the moves are {legal}")
        cells = list(self.cells)
        pips = sum(abs(cells[n]) for n in move.captures) or 1
        for captured in move.captures:
            cells[captured] = 0
        cells[move.cell] = pips if self.to_move == 0 else -pips
        return CephalopodState(self.game, tuple(cells), 1 - self.to_move, self.ply + 1)

    def key(self) -> int:
        """Cells in base 13 (0 empty, 1-6 Red, 7-12 Blue), then the side to move."""
        key = 0
        for value in self.cells:
            key = key * 13 + (value if value >= 0 else 6 - value)
        return key * 2 + self.to_move

    def safe_dice(self, side: int) -> int:
        """Dice of `side` that cannot be captured now: 6s and dice with no empty neighbour."""
        count = 0
        for cell, value in enumerate(self.cells):
            if value and (value > 0) == (side == 0):
                if abs(value) == MAX_SUM or not any(
                        n >= 0 and self.cells[n] == 0 for n in self.game.neighbours[cell]):
                    count += 1
        return count


class Cephalopod(Game):
    id = "cephalopod"
    title = "Cephalopod"
    side_labels = SIDE_LABELS

    def __init__(self, rows: int = 5, cols: int = 5) -> None:
        if (rows, cols) not in SIZES:
            sizes = ", ".join(f"{r}x{c}" for r, c in SIZES)
            raise BadOption(f"cephalopod boards are {sizes}, not {rows}x{cols}")
        self.rows, self.cols = rows, cols

    def options(self) -> dict:
        return {"rows": self.rows, "cols": self.cols}

    @cached_property
    def neighbours(self) -> tuple[tuple[int, int, int, int], ...]:
        """Per cell, its neighbour up, right, down, left (-1 off the board)."""
        table = []
        for cell in range(self.rows * self.cols):
            row, col = divmod(cell, self.cols)
            table.append(tuple(
                (row + dr) * self.cols + col + dc
                if 0 <= row + dr < self.rows and 0 <= col + dc < self.cols else -1
                for dr, dc in DIRECTIONS))
        return tuple(table)

    def start(self) -> CephalopodState:
        return CephalopodState(self, (0,) * (self.rows * self.cols))

    # --- notation --------------------------------------------------------------------

    def cell_name(self, cell: int) -> str:
        row, col = divmod(cell, self.cols)
        return f"{'abcdefghi'[col]}{self.rows - row}"

    def parse_cell(self, text: str) -> int:
        text = text.strip().lower()
        number = whole_number(text[1:])
        if text[:1].isalpha() and number is not None:
            col, row = ord(text[0]) - ord("a"), self.rows - number
            if 0 <= col < self.cols and 0 <= row < self.rows:
                return row * self.cols + col
        last = f"{'abcdefghi'[self.cols - 1]}{self.rows}"
        raise NotationError(f"{text!r} is not a cell of this board (a1 to {last})")

    def format_move(self, move: CephalopodMove) -> str:
        name = self.cell_name(move.cell)
        if not move.captures:
            return name
        return f"{name}x({','.join(self.cell_name(c) for c in move.captures)})"

    def describe_move(self, move: CephalopodMove, state: CephalopodState) -> str:
        if not move.captures:
            return self.format_move(move)
        pips = [abs(state.cells[c]) for c in move.captures]
        taken = "+".join(f"{self.cell_name(c)}({p})" for c, p in zip(move.captures, pips))
        return f"{self.cell_name(move.cell)} takes {taken} = {sum(pips)}"

    def parse_move(self, text: str, state: CephalopodState) -> CephalopodMove:
        """`c3`, or `c3x(c2,b3)` (the captured cells in any order)."""
        text = text.strip().lower().replace(" ", "")
        head, x, rest = text.partition("x")
        cell = self.parse_cell(head)
        captured: tuple[int, ...] = ()
        if x:
            if not (rest.startswith("(") and rest.endswith(")")):
                raise NotationError(f"{text!r}: write captures as c3x(c2,b3)")
            captured = tuple(self.parse_cell(c) for c in rest[1:-1].split(","))
        for move in state.moves_at(cell) if state.cells[cell] == 0 else ():
            if sorted(move.captures) == sorted(captured):
                return move
        move = CephalopodMove(cell, captured)
        state.play(move)  # raises IllegalMove saying why
        return move

    def parse_position(self, text: str) -> CephalopodState:
        """Rows from the top joined by `/`, each cell `.` or a colour and pips (`r3`),
        then a space and the side to move: `.r6./b2b2b2/r1b6r1 r`."""
        parts = text.split()
        if len(parts) != 2 or parts[1] not in SIDE_LETTERS:
            raise NotationError(f"bad position {text.strip()!r}: give the rows, a space "
                                "and the side to move (r or b)")
        rows = parts[0].split("/")
        if len(rows) != self.rows:
            raise NotationError(f"bad position {text.strip()!r}: {len(rows)} rows, "
                                f"the board has {self.rows}")
        cells = []
        for number, row in enumerate(rows, start=1):
            found = self._parse_row(row, text.strip(), number)
            if len(found) != self.cols:
                raise NotationError(f"bad position {text.strip()!r}: row {number} has "
                                    f"{len(found)} cells, the board has {self.cols}")
            cells.extend(found)
        # the history is unknown: the ply count starts at the number of dice
        return CephalopodState(self, tuple(cells), SIDE_LETTERS.index(parts[1]),
                               sum(1 for c in cells if c))

    @staticmethod
    def _parse_row(row: str, text: str, number: int) -> list[int]:
        cells, index = [], 0
        while index < len(row):
            char = row[index]
            if char == ".":
                cells.append(0)
                index += 1
            elif char in SIDE_LETTERS and index + 1 < len(row) and row[index + 1] in "123456":
                pips = int(row[index + 1])
                cells.append(pips if char == "r" else -pips)
                index += 2
            else:
                raise NotationError(f"bad position {text!r}: row {number} has {char!r} "
                                    "where a cell (., r1..r6, b1..b6) should be")
        return cells

    def format_position(self, state: CephalopodState) -> str:
        rows = []
        for row in range(self.rows):
            values = state.cells[row * self.cols:(row + 1) * self.cols]
            rows.append("".join("." if v == 0 else f"{'r' if v > 0 else 'b'}{abs(v)}"
                                for v in values))
        return f"{'/'.join(rows)} {SIDE_LETTERS[state.to_move]}"

    # --- search help ---------------------------------------------------------------

    def evaluate(self, state: CephalopodState) -> int:
        """Dice and uncapturable dice, the side to move's minus the opponent's."""
        own, other = state.to_move, 1 - state.to_move
        return (DIE_WEIGHT * (state.dice(own) - state.dice(other))
                + SAFE_WEIGHT * (state.safe_dice(own) - state.safe_dice(other)))

    def order_moves(self, state: CephalopodState, moves) -> list[CephalopodMove]:
        """Captures of the most dice first: they change the count the most."""
        return sorted(moves, key=lambda move: -len(move.captures))


# A move's policy index is cell * SLOTS + slot: slot 0 places without capturing, slot
# k > 0 captures the neighbours in the directions of CAPTURE_MASKS[k - 1].
SLOTS = 1 + len(CAPTURE_MASKS)
SLOT_OF_MASK = {0: 0} | {mask: slot for slot, mask in enumerate(CAPTURE_MASKS, start=1)}
PIPS = tuple(range(1, MAX_SUM + 1))


def planes(state: CephalopodState):
    """One plane per pip count for the mover's dice, then one per pip count for the
    other side's: captures are decided by pip sums, which a network learns better from
    counts it can add than from one number a cell."""
    game = state.game
    cells = np.array(state.cells).reshape(game.rows, game.cols)
    own = cells if state.to_move == 0 else -cells
    return value_planes(own, PIPS + tuple(-p for p in PIPS))


def move_index(state: CephalopodState, move: CephalopodMove) -> int:
    around = state.game.neighbours[move.cell]
    mask = sum(1 << around.index(captured) for captured in move.captures)
    return move.cell * SLOTS + SLOT_OF_MASK[mask]


def index_move(state: CephalopodState, index: int) -> CephalopodMove:
    cell, slot = divmod(index, SLOTS)
    mask = CAPTURE_MASKS[slot - 1] if slot else 0
    around = state.game.neighbours[cell]
    return CephalopodMove(cell, tuple(around[d] for d in range(4) if mask >> d & 1))


def encoding(game: Cephalopod) -> Encoding:
    """Planes as `planes` says; the policy is cell x capture (SLOTS a cell); every
    symmetry of the board (8 on a square one, 4 on 3x5), which turns the directions
    of a capture with the cells."""
    symmetries = []
    for matrix in board_symmetries(game.rows, game.cols):
        (a, b), (c, d) = matrix
        turned = [DIRECTIONS.index((a * dr + b * dc, c * dr + d * dc))
                  for dr, dc in DIRECTIONS]
        slots = [SLOT_OF_MASK[sum(1 << turned[d] for d in range(4) if mask >> d & 1)]
                 for mask in (0, *CAPTURE_MASKS)]
        cells = board_map(matrix, game.rows, game.cols)
        symmetries.append(Symmetry.of(cells, policy_map(cells, SLOTS, slots)))
    return Encoding(planes(game.start()).shape, game.rows * game.cols * SLOTS, planes,
                    move_index, index_move, tuple(symmetries))


register_game(
    "cephalopod", "Cephalopod", Cephalopod,
    variants=tuple((f"{r}×{c}", {"rows": r, "cols": c}) for r, c in SIZES),
    board="plyground.tui.widgets.boards.cephalopod:CephalopodBoard",
    renderer="plyground.tui.widgets.text.cephalopod:cephalopod_board",
    # one kernel of each kind for every board size
    kernels=Kernels(tree="plyground.core.fast.cephalopod:CephalopodBackend",
                    mcts="plyground.core.fast.cephalopod_mcts:CephalopodTree"),
    theme={"dice-first": "#D64541", "dice-second": "#3A7BD5", "dice-pips": "#FFFFFF"},
    rules=("Red and Blue place dice in turn on empty cells. A die placed next to two or "
           "more dice (across, not diagonally) whose pips sum to at most 6 must capture: "
           "you choose which (at least two of them), they leave the board, and the new "
           "die shows their sum; otherwise it shows 1. When the board is full, the side "
           "with more dice wins."),
    notation="rows from the top and the side to move, e.g. '.r1./r2.r3/.r4. r'",
    review=("alphabeta:nodes=5000",), review_scale=200,  # two dice
    encoding="plyground.core.games.cephalopod:encoding")
