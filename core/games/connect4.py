"""Connect 4: rules on bitboards, column-digit notation, the window heuristic.

The rules are the readable reference; fast kernels in `core/fast/` are tested against
them. Moves are column indexes 0..6; notation shows them 1-based (`4` is the centre).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..game import Game, Kernels, Outcome, Termination, register_game
from ..errors import IllegalMove, NotationError
from ..values import WIN
from .gravity import (GravityBoard, GravityPosition, MovesNotation, column_encoding,
                      gravity_planes)

BOARD = GravityBoard(width=7, height=6)
WIDTH, HEIGHT = BOARD.width, BOARD.height
SIDE_LABELS = ("X", "O")

# Heuristic weights: a window of four cells holding k pieces of one side and none of
# the other scores WINDOW_SCORES[k] for that side; each piece scores its column's bonus.
WINDOW_SCORES = (0, 1, 10, 50, 512)
CENTRE_BONUS = (0, 1, 2, 3, 2, 1, 0)
# A position 26 stones in, quick to estimate and to solve: loading the kernels on it
# costs no search (one near the start would cost seconds in every new process).
WARM_POSITION = "22525762534622441115633653"


@dataclass(frozen=True, slots=True)
class Connect4State(GravityPosition):
    """`pieces[s]` are side s's bits; `history` is the columns played, in order.

    Equality and hashing use the pieces only: the same position reached by two move
    orders is the same state. The history is kept for notation.
    """

    pieces: tuple[int, int] = (0, 0)
    history: tuple[int, ...] = field(default=(), compare=False)
    board = BOARD

    @property
    def game(self) -> "Connect4":
        return GAME

    def winner(self) -> int | None:
        """The side with four in a row (only the side that moved last can have one)."""
        if self.history:
            last = (len(self.history) - 1) & 1
            if BOARD.has_four(self.pieces[last]):
                return last
        return None

    def outcome(self) -> Outcome | None:
        winner = self.winner()
        if winner is not None:
            return Outcome(winner, Termination.LINE,
                           f"{SIDE_LABELS[winner]} connects four")
        if len(self.history) == BOARD.cells:
            return Outcome(None, Termination.FULL_BOARD, "the board is full")
        return None

    def moves(self) -> list[int]:
        if self.outcome() is not None:
            return []
        return self.open_columns()

    def play(self, move: int) -> "Connect4State":
        outcome = self.outcome()
        if outcome is not None:
            raise IllegalMove(f"the game is over ({outcome.reason})")
        new_bit = self.landing_bit(move)
        side = self.to_move
        pieces = (
            (self.pieces[0] | new_bit, self.pieces[1])
            if side == 0
            else (self.pieces[0], self.pieces[1] | new_bit)
        )
        return Connect4State(pieces, self.history + (move,))

    def key(self) -> int:
        """The solver-style unique key: the mover's pieces plus the occupied mask."""
        return self.pieces[self.to_move] + self.occupied

    def winning_moves(self) -> list[int]:
        """Columns where the side to move would complete four at once."""
        cells = BOARD.completing_cells(self.pieces[self.to_move])
        cells &= BOARD.playable_cells(self.occupied)
        return [c for c in range(WIDTH) if cells & BOARD.column_mask(c)]


def window_score(own: int, other: int) -> int:
    """Sum of WINDOW_SCORES over the windows holding `own` pieces and none of `other`."""
    total = 0
    for window in BOARD.windows:
        if not other & window:
            total += WINDOW_SCORES[(own & window).bit_count()]
    return total


def centre_score(pieces: int) -> int:
    return sum(
        CENTRE_BONUS[c] * (pieces & BOARD.column_mask(c)).bit_count()
        for c in range(WIDTH)
    )


class Connect4(MovesNotation, Game):
    id = "connect4"
    title = "Connect 4"
    side_labels = SIDE_LABELS
    board = BOARD

    def start(self) -> Connect4State:
        return Connect4State()

    def parse_move(self, text: str, state: Connect4State) -> int:
        text = text.strip()
        if len(text) != 1 or text not in "1234567":
            raise NotationError(f"{text!r} is not a column: give a digit 1-7")
        column = int(text) - 1
        state.play(column)  # raises IllegalMove with the reason
        return column

    def format_move(self, move: int) -> str:
        return str(move + 1)

    def parse_position(self, text: str) -> Connect4State:
        """A column-digit sequence; rejects overflow and any move completing a four."""
        state = Connect4State()
        for index, char in enumerate(text.strip(), start=1):
            if char not in "1234567":
                raise NotationError(
                    f"bad position {text.strip()!r}: move {index} is {char!r}, "
                    "not a column 1-7"
                )
            column = int(char) - 1
            if state.occupied & BOARD.top_bit(column):
                raise NotationError(
                    f"bad position {text.strip()!r}: move {index} plays column "
                    f"{char}, which is full"
                )
            state = state.play(column)
            if state.winner() is not None:
                raise NotationError(
                    f"bad position {text.strip()!r}: move {index} (column {char}) "
                    f"completes a four for {SIDE_LABELS[state.winner()]}; "
                    "a finished game is not a position"
                )
        return state

    def evaluate(self, state: Connect4State) -> int:
        """Windows and centre for the side to move, minus the same for the other.

        A side to move that can complete four at once is scored as the win it is.
        """
        if state.winning_moves():
            return WIN - (state.ply + 1)
        own, other = state.pieces[state.to_move], state.pieces[1 - state.to_move]
        return (
            window_score(own, other)
            - window_score(other, own)
            + centre_score(own)
            - centre_score(other)
        )

    def winning_move(self, state: Connect4State) -> int | None:
        if state.outcome() is not None:
            return None
        return next(iter(state.winning_moves()), None)

    def safe_moves(self, state: Connect4State) -> list[int]:
        """The columns that win at once or after which the other side cannot complete
        four at once (its threats are its completing cells; none may be playable)."""
        threats = BOARD.completing_cells(state.pieces[1 - state.to_move])
        wins, safe = state.winning_moves(), []
        for column in state.moves():
            after = state.occupied | state.landing_bit(column)
            if column in wins or not threats & BOARD.playable_cells(after):
                safe.append(column)
        return safe

    def plies_left_at_most(self, state: Connect4State) -> int:
        return BOARD.cells - state.ply

    def symmetric_key(self, state: Connect4State) -> int:
        """The smaller key of the position and its mirror (the columns reversed)."""
        mirrored = self.start()
        for column in state.history:
            mirrored = mirrored.play(WIDTH - 1 - column)
        return min(state.key(), mirrored.key())

    def order_moves(self, state: Connect4State, moves) -> list[int]:
        """Centre columns first: they take part in the most lines."""
        return sorted(moves, key=lambda c: abs(c - WIDTH // 2))


def planes(state: Connect4State):
    """The mover's discs, the other side's, and whether the mover moved first."""
    return gravity_planes(state, (state.pieces[state.to_move],
                                  state.pieces[1 - state.to_move]), ())


def encoding(game: Connect4):
    """Planes as `planes` says; the policy is the column (0-6); the mirror."""
    return column_encoding(game, planes)


GAME = Connect4()
register_game(
    "connect4", "Connect 4", lambda: GAME,
    board="plyground.tui.widgets.boards.connect4:Connect4Board",
    renderer="plyground.tui.widgets.text.connect4:connect4_board",
    kernels=Kernels(tree="plyground.core.fast.connect4:Connect4Backend",
                    mcts="plyground.core.fast.connect4_mcts:Connect4Tree",
                    puct="plyground.core.fast.connect4_puct"),
    theme={"piece-first": "#E5534B", "piece-second": "#F2CC3D"},
    rules=("Two sides, X and O, drop discs in turn into one of 7 columns; a disc falls to "
           "the lowest empty cell of its column. Four of your discs in a row, across, "
           "up or diagonally, win. A full board with no four is a draw."),
    notation="columns played, e.g. 4453",
    analysis="plyground.core.connect4.analysis:analyse_columns", analysis_agent="perfect:time=2",
    review_scale=100,  # (with --agent) a few open threes
    solver="plyground.core.connect4.solver:new_solver", book="plyground.core.connect4.book",
    exact_review="plyground.core.connect4.review:solver_review",
    encoding="plyground.core.games.connect4:encoding",
    # trained by self-play alone; docs/az.md gives the command, the seed and its hash
    network="plyground.core.agents.learned:nets/connect4.npz")
