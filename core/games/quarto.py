"""Quarto: 16 pieces of four binary attributes, a 4 x 4 board, and the opponent chooses
the piece you must place.

A piece is a 4-bit code: bit 3 tall, bit 2 dark, bit 1 square, bit 0 hollow. Squares are
numbered row by row from the top left (`a4` is 0, `d1` is 15; `a1` is bottom left). A
turn is one compound move: place the piece in hand, then give one of the rest; the
game's first move only gives, and a placement that wins or fills the board gives
nothing. The side that completes a line of four pieces sharing an attribute wins.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from itertools import permutations

import numpy as np

from ..game import Encoding, Game, Kernels, Outcome, Termination, register_game, whole_number
from ..errors import IllegalMove, NotationError
from ..values import WIN
from .planes import Symmetry, constant_planes, policy_map

SIDE_LABELS = ("Player 1", "Player 2")
PIECES = range(16)
ATTRIBUTES = (("T", "t", "tall", "short"), ("D", "d", "dark", "light"),
              ("S", "s", "square", "round"), ("H", "h", "hollow", "solid"))
ROWS = tuple(tuple(range(4 * r, 4 * r + 4)) for r in range(4))
COLUMNS = tuple(tuple(range(c, 16, 4)) for c in range(4))
DIAGONALS = ((0, 5, 10, 15), (3, 6, 9, 12))
BLOCKS = tuple((r * 4 + c, r * 4 + c + 1, r * 4 + c + 4, r * 4 + c + 5)
               for r in range(3) for c in range(3))

# Heuristic weights (for the side to move, who places and then must give a piece):
# lines whose pieces still share an attribute are threats somebody must give away into.
LINE_WEIGHTS = {2: 4, 3: 20}
NO_SAFE_PIECE = 400  # every piece the side to move could give completes a line
EXACT_EMPTY = 9  # from this many empty squares, alpha-beta searches to the end at once


def shares_attribute(pieces) -> bool:
    """Whether all `pieces` agree on at least one attribute."""
    together, apart = 15, 0
    for piece in pieces:
        together &= piece
        apart |= piece
    return together != 0 or apart != 15


def completing_pieces(board, lines, pieces) -> set[int]:
    """Which of `pieces` would complete one of `lines` if placed on `board` now."""
    found = set()
    for line in lines:
        placed = [board[s] for s in line if board[s] >= 0]
        if len(placed) == 3 and shares_attribute(placed):
            found.update(p for p in pieces if shares_attribute(placed + [p]))
    return found


def piece_name(piece: int) -> str:
    """Attribute letters, capital for the set bit: `TDSH` is 15, `tdsh` 0."""
    return "".join(big if piece >> (3 - i) & 1 else small
                   for i, (big, small, _, _) in enumerate(ATTRIBUTES))


def piece_words(piece: int) -> str:
    return " ".join(word if piece >> (3 - i) & 1 else other
                    for i, (_, _, word, other) in enumerate(ATTRIBUTES))


def parse_piece(text: str) -> int:
    """A piece as a number 0-15, a hex digit, or four attribute letters (`TdSh`)."""
    text = text.strip()
    number = whole_number(text)
    if number is not None and number < 16:
        return number
    if len(text) == 1 and text.lower() in "abcdef":
        return int(text, 16)
    if len(text) == 4:
        code = 0
        for i, char in enumerate(text):
            big, small, _, _ = ATTRIBUTES[i]
            if char not in (big, small):
                break
            code |= (char == big) << (3 - i)
        else:
            return code
    raise NotationError(f"{text!r} is not a piece: give 0-15, a hex digit or four "
                        "attribute letters such as TdSh (T/t tall/short, D/d dark/light, "
                        "S/s square/round, H/h hollow/solid)")


@dataclass(frozen=True, slots=True)
class QuartoMove:
    square: int | None  # None only for the game's first move (a give and nothing else)
    give: int | None  # None when the placement wins or fills the board


@dataclass(frozen=True, slots=True)
class QuartoState:
    game: "Quarto" = field(compare=False, repr=False)
    board: tuple[int, ...] = (-1,) * 16  # a piece code per square, -1 empty
    hand: int | None = None  # the piece the side to move must place

    @property
    def placed(self) -> int:
        return sum(1 for piece in self.board if piece >= 0)

    @property
    def ply(self) -> int:
        """Compound moves made: the first give, then one per placement."""
        placed = self.placed
        return placed + 1 if placed or self.hand is not None else 0

    @property
    def to_move(self) -> int:
        return self.ply % 2

    def pool(self) -> list[int]:
        """Pieces neither on the board nor in hand."""
        used = set(self.board) | {self.hand}
        return [piece for piece in PIECES if piece not in used]

    def winning_lines(self) -> list[tuple[int, ...]]:
        return [line for line in self.game.lines
                if all(self.board[s] >= 0 for s in line)
                and shares_attribute(self.board[s] for s in line)]

    def outcome(self) -> Outcome | None:
        lines = self.winning_lines()
        if lines:
            winner = 1 - self.to_move  # the side that placed last
            return Outcome(winner, Termination.LINE,
                           f"{SIDE_LABELS[winner]} completes a line of four sharing an "
                           "attribute")
        if self.placed == 16:
            return Outcome(None, Termination.FULL_BOARD,
                           "all 16 pieces are placed with no line")
        return None

    def wins_at(self, square: int) -> bool:
        """Whether placing the piece in hand on `square` completes a line."""
        for line in self.game.lines_through[square]:
            pieces = [self.hand if s == square else self.board[s] for s in line]
            if min(pieces) >= 0 and shares_attribute(pieces):
                return True
        return False

    def moves(self) -> list[QuartoMove]:
        if self.outcome() is not None:
            return []
        pool = self.pool()
        if self.hand is None:
            return [QuartoMove(None, piece) for piece in pool]
        found = []
        for square in range(16):
            if self.board[square] < 0:
                if self.wins_at(square) or not pool:
                    found.append(QuartoMove(square, None))
                else:
                    found.extend(QuartoMove(square, piece) for piece in pool)
        return found

    def play(self, move: QuartoMove) -> "QuartoState":
        if move not in self.moves():
            raise IllegalMove(self.why_illegal(move))
        board = self.board
        if move.square is not None:
            board = board[:move.square] + (self.hand,) + board[move.square + 1:]
        return QuartoState(self.game, board, move.give)

    def why_illegal(self, move: QuartoMove) -> str:
        game = self.game
        outcome = self.outcome()
        if outcome is not None:
            return f"the game is over ({outcome.reason})"
        if not isinstance(move, QuartoMove):
            return f"{move!r} is not a Quarto move"
        if self.hand is None:
            return "the first move only gives a piece, as in :5"
        if move.square is None or not 0 <= move.square < 16:
            return "place the piece in hand on a square first, as in b3:5"
        if self.board[move.square] >= 0:
            return f"square {game.square_name(move.square)} is taken"
        if self.wins_at(move.square) or not self.pool():
            return (f"placing on {game.square_name(move.square)} ends the game: give "
                    f"nothing, as in {game.square_name(move.square)}:")
        if move.give is None:
            return "give the opponent a piece after placing, as in b3:5"
        return f"piece {move.give} ({piece_name(move.give)}) is not available to give"

    def image(self, squares, pieces) -> "QuartoState":
        """The position under a symmetry: square s goes to `squares[s]`, piece p
        becomes `pieces[p]` (see Quarto.square_symmetries and piece_symmetries)."""
        board = [-1] * 16
        for square, piece in enumerate(self.board):
            if piece >= 0:
                board[squares[square]] = pieces[piece]
        hand = None if self.hand is None else pieces[self.hand]
        return QuartoState(self.game, tuple(board), hand)

    def key(self) -> int:
        """Board squares (17 values each), then the piece in hand (17 values)."""
        key = 0
        for piece in self.board:
            key = key * 17 + piece + 1
        return key * 17 + (16 if self.hand is None else self.hand)


class Quarto(Game):
    id = "quarto"
    title = "Quarto"
    side_labels = SIDE_LABELS

    def __init__(self, squares: bool = False) -> None:
        self.squares = bool(squares)

    def options(self) -> dict:
        return {"squares": self.squares} if self.squares else {}

    @cached_property
    def lines(self) -> tuple[tuple[int, ...], ...]:
        """Rows, columns, diagonals, and with the 2 x 2 variant the nine blocks."""
        return ROWS + COLUMNS + DIAGONALS + (BLOCKS if self.squares else ())

    def winning_move(self, state: QuartoState) -> QuartoMove | None:
        if state.hand is None or state.outcome() is not None:
            return None
        return next((QuartoMove(square, None) for square in range(16)
                     if state.board[square] < 0 and state.wins_at(square)), None)

    def safe_moves(self, state: QuartoState) -> list[QuartoMove]:
        """The moves whose given piece completes no line where it is placed (a move
        that gives nothing ends the game: it wins or draws)."""
        pool, giving_a_win = state.pool(), {}
        safe = []
        for move in state.moves():
            if move.square not in giving_a_win:
                board = list(state.board)
                if move.square is not None:
                    board[move.square] = state.hand
                giving_a_win[move.square] = completing_pieces(board, self.lines, pool)
            if move.give not in giving_a_win[move.square]:
                safe.append(move)
        return safe

    @cached_property
    def lines_through(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        return tuple(tuple(line for line in self.lines if square in line)
                     for square in range(16))

    @cached_property
    def square_symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The permutations of the squares that map lines onto lines (32, or 8 with
        the 2 x 2 variant), as the group the board's symmetries generate."""
        rotate = tuple((3 - c) * 4 + r for r in range(4) for c in range(4))
        mirror = tuple(r * 4 + 3 - c for r in range(4) for c in range(4))
        swap_middle = (0, 2, 1, 3)  # exchange the middle rows and the middle columns
        inside_out = (1, 0, 3, 2)  # exchange the outer and inner rows and columns
        generators = [rotate, mirror]
        if not self.squares:
            generators += [tuple(swap_middle[r] * 4 + swap_middle[c]
                                 for r in range(4) for c in range(4)),
                           tuple(inside_out[r] * 4 + inside_out[c]
                                 for r in range(4) for c in range(4))]
        group = {tuple(range(16))}
        frontier = list(group)
        while frontier:
            current = frontier.pop()
            for generator in generators:
                product = tuple(current[generator[s]] for s in range(16))
                if product not in group:
                    group.add(product)
                    frontier.append(product)
        line_set = {frozenset(line) for line in self.lines}
        return tuple(sorted(p for p in group
                            if {frozenset(p[s] for s in line) for line in line_set}
                            == line_set))

    @staticmethod
    def piece_symmetries() -> list:
        """The 384 maps of the pieces: a permutation of the attributes, then flips."""
        maps = []
        for order in permutations(range(4)):
            for flips in range(16):
                maps.append(tuple(
                    sum(((piece >> order[i]) & 1) << i for i in range(4)) ^ flips
                    for piece in PIECES))
        return maps

    def start(self) -> QuartoState:
        return QuartoState(self)

    # --- notation ------------------------------------------------------------------

    def square_name(self, square: int) -> str:
        row, col = divmod(square, 4)
        return f"{'abcd'[col]}{4 - row}"

    def parse_square(self, text: str) -> int:
        text = text.strip().lower()
        if len(text) == 2 and text[0] in "abcd" and text[1] in "1234":
            return (4 - int(text[1])) * 4 + "abcd".index(text[0])
        raise NotationError(f"{text!r} is not a square (a1 to d4)")

    def format_move(self, move: QuartoMove) -> str:
        square = "" if move.square is None else self.square_name(move.square)
        give = "" if move.give is None else str(move.give)
        return f"{square}:{give}"

    def describe_move(self, move: QuartoMove, state: QuartoState) -> str:
        parts = []
        if move.square is not None:
            parts.append(f"{self.square_name(move.square)}")
        if move.give is not None:
            parts.append(f"give {piece_name(move.give)}")
        return ", ".join(parts) if parts else self.format_move(move)

    def parse_move(self, text: str, state: QuartoState) -> QuartoMove:
        """`b3:5` (place, then give piece 5), `:5` (the first move), `c2:` (a last or
        winning placement); a piece may also be a hex digit or attribute letters."""
        square_text, colon, give_text = text.strip().partition(":")
        if not colon:
            raise NotationError(f"{text.strip()!r} is not a move: write square:piece, "
                                "as in b3:5 (:5 to open, c2: to end)")
        square = self.parse_square(square_text) if square_text.strip() else None
        give = parse_piece(give_text) if give_text.strip() else None
        move = QuartoMove(square, give)
        state.play(move)  # raises IllegalMove saying why
        return move

    def parse_position(self, text: str) -> QuartoState:
        """Rows from the top joined by `/`, each square `.` or a piece as one hex digit,
        then a space and the piece in hand (a hex digit, or `-` before the first give):
        `0.../..5./..../.... a`."""
        parts = text.split()
        if len(parts) != 2:
            raise NotationError(f"bad position {text.strip()!r}: give the rows, a space "
                                "and the piece in hand (- if none)")
        rows = parts[0].split("/")
        if len(rows) != 4 or any(len(row) != 4 for row in rows):
            raise NotationError(f"bad position {text.strip()!r}: four rows of four "
                                "squares, each . or a hex digit")
        board = []
        for row in rows:
            for char in row:
                if char == ".":
                    board.append(-1)
                elif char.lower() in "0123456789abcdef":
                    board.append(int(char, 16))
                else:
                    raise NotationError(f"bad position {text.strip()!r}: {char!r} is "
                                        "not . or a hex digit")
        hand = None if parts[1] == "-" else parse_piece(parts[1])
        used = [piece for piece in board if piece >= 0] + [hand] * (hand is not None)
        if len(set(used)) != len(used):
            raise NotationError(f"bad position {text.strip()!r}: a piece appears twice")
        state = QuartoState(self, tuple(board), hand)
        finished = len(used) == 16 or state.winning_lines()
        if hand is None and used and not finished:
            raise NotationError(f"bad position {text.strip()!r}: only the start and a "
                                "finished game have no piece in hand")
        if hand is not None and state.winning_lines():
            raise NotationError(f"bad position {text.strip()!r}: a line is complete, so "
                                "the game is over and nobody holds a piece (write -)")
        return state

    def format_position(self, state: QuartoState) -> str:
        rows = ["".join("." if p < 0 else f"{p:x}" for p in state.board[r * 4:r * 4 + 4])
                for r in range(4)]
        hand = "-" if state.hand is None else f"{state.hand:x}"
        return f"{'/'.join(rows)} {hand}"

    # --- search help -----------------------------------------------------------------

    def evaluate(self, state: QuartoState) -> int:
        """For the side to move, who places the piece in hand and then must give one:
        a win if the piece in hand completes a line; else lines of two and three that
        still share an attribute count against it (it gives next), and most of all a
        pool in which every piece would let the opponent complete a line."""
        open_squares = [s for s in range(16) if state.board[s] < 0]
        if state.hand is not None and any(state.wins_at(s) for s in open_squares):
            return WIN - (state.ply + 1)
        value = 0
        for line in self.lines:
            pieces = [state.board[s] for s in line if state.board[s] >= 0]
            if len(pieces) in LINE_WEIGHTS and shares_attribute(pieces):
                value -= LINE_WEIGHTS[len(pieces)]
        pool = state.pool()
        if pool and len(completing_pieces(state.board, self.lines, pool)) == len(pool):
            value -= NO_SAFE_PIECE
        return value

    def order_moves(self, state: QuartoState, moves) -> list[QuartoMove]:
        """Placements that end the game first, then gives the opponent cannot complete
        a line with, then the rest."""
        if state.hand is None:
            return list(moves)
        dangerous = {}  # square -> the pieces that complete a line once hand is there

        def rank(move: QuartoMove) -> int:
            if move.give is None:
                return 0
            if move.square not in dangerous:
                board = list(state.board)
                board[move.square] = state.hand
                dangerous[move.square] = completing_pieces(
                    board, self.lines, state.pool())
            return 2 if move.give in dangerous[move.square] else 1

        return sorted(moves, key=rank)

    def plies_left_at_most(self, state: QuartoState) -> int:
        return 17 - state.ply

    def iteration_depths(self, state: QuartoState, deepest: int):
        """The seed's schedule: shallow while the board is open, and once few squares
        are empty a quick look (depths 1 and 2) and then the search to the end."""
        left = self.plies_left_at_most(state)
        if 16 - state.placed <= EXACT_EMPTY and deepest > 2:
            return [d for d in (1, 2) if d < left] + [min(left, deepest)]
        return range(1, deepest + 1)


# A move's policy index: a placement is square * GIVES + the piece given (16: none),
# and the game's first move, which only gives, comes after them: FIRST_GIVE + piece.
GIVES = 17
FIRST_GIVE = 16 * GIVES
BITS = np.array([3, 2, 1, 0])  # tall, dark, square, hollow, as ATTRIBUTES lists them


def planes(state: QuartoState):
    """The board: which squares hold a piece, and per attribute where a piece has it;
    the piece in hand (whether there is one, its attributes) and one plane per piece
    still to give, all constant: the board does not show them."""
    board = np.array(state.board).reshape(4, 4)
    attributes = (board[None] >> BITS[:, None, None]) & 1 & (board[None] >= 0)
    hand = [0] * 5 if state.hand is None else [1, *(state.hand >> BITS & 1)]
    pool = set(state.pool())
    return np.concatenate([(board[None] >= 0), attributes,
                           constant_planes([*hand, *(p in pool for p in PIECES)], 4, 4)],
                          dtype=np.float32)


def move_index(state: QuartoState, move: QuartoMove) -> int:
    if move.square is None:
        return FIRST_GIVE + move.give
    return move.square * GIVES + (16 if move.give is None else move.give)


def index_move(state: QuartoState, index: int) -> QuartoMove:
    if index >= FIRST_GIVE:
        return QuartoMove(None, index - FIRST_GIVE)
    square, give = divmod(index, GIVES)
    return QuartoMove(square, None if give == 16 else give)


def encoding(game: Quarto) -> Encoding:
    """Planes as `planes` says; the policy is square x piece given, then the first
    give; the game's square symmetries (32, or 8 with the 2 x 2 blocks), which move
    the squares of the planes and of the policy and keep the pieces."""
    symmetries = tuple(
        Symmetry.of(np.array(squares), policy_map(np.array(squares), GIVES, extra=16))
        for squares in game.square_symmetries if squares != tuple(range(16)))
    return Encoding(planes(game.start()).shape, FIRST_GIVE + 16, planes, move_index,
                    index_move, symmetries)


register_game(
    "quarto", "Quarto", Quarto,
    variants=(("standard", {}), ("2×2 squares win too", {"squares": True})),
    board="plyground.tui.widgets.boards.quarto:QuartoBoard",
    renderer="plyground.tui.widgets.text.quarto:quarto_board",
    kernels=Kernels(tree="plyground.core.fast.quarto:QuartoBackend",
                    mcts="plyground.core.fast.quarto_mcts:QuartoTree",
                    puct="plyground.core.fast.quarto_puct"),
    theme={"quarto-dark": "#6B3F22", "quarto-light": "#E8CC94"},  # walnut and maple
    rules=("16 pieces, each tall or short, dark or light, square or round, hollow or "
           "solid. You place the piece your opponent chose for you, then choose the one "
           "they must place. Whoever completes a line of four (row, column or diagonal) "
           "sharing an attribute wins; in the variant, a 2×2 square too. All 16 placed "
           "with no such line: a draw."),
    notation="rows from the top, each square . or a piece's hex code, and the piece in "
             "hand, e.g. '0.../..5./..../.... a'",
    # 200,000 nodes a position: 3 to 4 plies in the opening (the kernel takes each
    # root move's node whole), to the end of the game from about 10 plies before it;
    # a whole game in about a second (a fifth of a pool that hands over a win: 100)
    review=("alphabeta:nodes=200000",), review_scale=100,
    encoding="plyground.core.games.quarto:encoding")
