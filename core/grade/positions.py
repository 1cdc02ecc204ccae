"""A file of labelled positions: what a `positions` check scores an agent against.

Plain text, read as data (never run). A header of `#` lines says how the labels were
made, as `# key: value` lines (`game`, `labeller`, `budget`, `values`, `command`); then
one line a position:

    POSITION | BEST MOVES | MOVE=VALUE MOVE=VALUE ...

POSITION is in the game's own notation (empty for the usual start), the best moves and
the valued moves in its move notation, apart by spaces. The values (each legal move's,
where the labeller knows them) make a line checkable on its own: the best moves must be
exactly the moves with the best value, and running the labeller named in the header on
the position again must give the same line (label.py's `recheck`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import PlygroundError, shown
from ..game import Game, Move, State
from ..paths import read_text_file, write_atomically
from ..records.positions import start_state

SEPARATOR = " | "
# the header keys a file must have: which game, and what labelled it
REQUIRED = ("game", "labeller")


class PositionsFault(PlygroundError):
    """A line of a positions file that cannot be read: `FILE:LINE: problem`."""

    def __init__(self, path: Path | str, line: int, problem: str) -> None:
        self.path, self.line, self.problem = path, line, problem
        super().__init__(f"{shown(str(path))}:{line}: {problem}")


@dataclass(frozen=True)
class Labelled:
    """A position and its labels: the best moves, and each move's value where known
    (the best moves are then those of the best value). `line` is where it was read."""

    state: State
    best: tuple[Move, ...]
    values: tuple[tuple[Move, float], ...] = ()
    line: int = field(default=0, compare=False)

    def is_best(self, move: Move) -> bool:
        return move in self.best


@dataclass(frozen=True)
class PositionFile:
    """A positions file read: its header's keys and its positions, in file order."""

    header: dict[str, str]
    positions: tuple[Labelled, ...]


def best_of(values: dict[Move, float] | tuple) -> tuple[Move, ...]:
    """The moves with the best value, in the order given: every one that ties."""
    pairs = list(values.items()) if isinstance(values, dict) else list(values)
    if not pairs:
        return ()
    top = max(value for _, value in pairs)
    return tuple(move for move, value in pairs if value == top)


def format_value(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def format_labelled(game: Game, entry: Labelled) -> str:
    """The line `entry` is written as (PlygroundError if the game's notation would
    not read back from it)."""
    position = game.format_position(entry.state)
    moves = [game.format_move(move) for move in entry.best]
    moves += [game.format_move(move) for move, _ in entry.values]
    if "|" in position or "\n" in position or position.startswith("#"):
        raise PlygroundError(f"{game.title}: the position {position!r} cannot be written "
                             "on a line of a positions file")
    for text in moves:
        if not text or any(char.isspace() or char in "|=" for char in text):
            raise PlygroundError(f"{game.title}: the move {text!r} cannot be written in a "
                                 "positions file")
    values = " ".join(f"{game.format_move(move)}={format_value(value)}"
                      for move, value in entry.values)
    best = " ".join(game.format_move(move) for move in entry.best)
    return SEPARATOR.join([position, best, values]).rstrip()


def format_positions(game: Game, header: dict[str, str], positions) -> str:
    """The whole file's text: the header (`game` first), then a line a position."""
    keys = {"game": game.spec, **{k: v for k, v in header.items() if k != "game"}}
    lines = ["# plyground labelled positions"]
    for key, value in keys.items():
        if "\n" in key or "\n" in str(value) or ":" in key:
            raise PlygroundError(f"header {key!r} cannot be written on one line")
        lines.append(f"# {key}: {value}")
    lines.append("# each line: POSITION | BEST MOVES | MOVE=VALUE ... (the value for "
                 "the side to move)")
    lines += [format_labelled(game, entry) for entry in positions]
    return "\n".join(lines) + "\n"


def write_positions(path: Path | str, game: Game, header: dict[str, str], positions,
                    overwrite: bool = False) -> None:
    """Write the file at once (atomically): an existing one is replaced only with
    `overwrite` (NotReplaced otherwise), a symbolic link never."""
    write_atomically(Path(path), format_positions(game, header, positions),
                     overwrite=overwrite)


def read_positions(path: Path | str, game: Game) -> PositionFile:
    """The labelled positions of the file at `path`, for `game`; the first line that
    is not right raises a PositionsFault naming it."""
    text = read_text_file(path, "positions")
    header: dict[str, str] = {}
    positions: list[Labelled] = []
    seen: dict[State, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("#"):
            key, colon, value = line[1:].partition(":")
            if colon and not positions and key.strip() and " " not in key.strip():
                header.setdefault(key.strip(), value.strip())
                named = value.strip()
                if key.strip() == "game" and named != game.spec:
                    raise PositionsFault(path, number, f"the file labels {shown(named)} "
                                         f"positions, not {game.spec}")
            continue
        if not line.strip():
            continue
        if not positions:
            missing = [key for key in REQUIRED if key not in header]
            if missing:
                raise PositionsFault(path, number, "the header does not say "
                                     + " or ".join(f"`# {key}: ...`" for key in missing))
        entry = read_line(line, game, lambda problem: PositionsFault(path, number, problem))
        if entry.state in seen:
            raise PositionsFault(path, number, f"the position is given twice (line "
                                 f"{seen[entry.state]} too)")
        seen[entry.state] = number
        positions.append(Labelled(entry.state, entry.best, entry.values, number))
    if not positions:
        raise PositionsFault(path, len(text.splitlines()) or 1, "the file has no positions")
    return PositionFile(header, tuple(positions))


def read_line(line: str, game: Game, fault) -> Labelled:
    """One position's line; `fault(problem)` makes the error to raise."""
    fields = line.split("|")
    if len(fields) not in (2, 3):
        raise fault("a line is POSITION | BEST MOVES | MOVE=VALUE ..., "
                    f"with two `|`, not {len(fields) - 1}")
    try:
        state = start_state(game, fields[0])
    except PlygroundError as error:
        raise fault(f"not a {game.title} position: {error}") from None
    if state.outcome() is not None:
        raise fault("the game is over in this position: there is no move to label")
    best = read_moves(fields[1].split(), state, game, fault)
    if not best:
        raise fault("no best move is given")
    values = read_values(fields[2].split() if len(fields) == 3 else [], state, game, fault)
    if values and set(best) != set(best_of(values)):
        raise fault("the best moves are not those with the best value ("
                    + " ".join(game.format_move(move) for move in best_of(values)) + ")")
    return Labelled(state, best, values)


def read_moves(texts: list[str], state: State, game: Game, fault) -> tuple[Move, ...]:
    moves: list[Move] = []
    for text in texts:
        try:
            move = game.parse_move(text, state)
        except PlygroundError as error:
            raise fault(f"{text!r} is not a legal move here: {error}") from None
        if move in moves:
            raise fault(f"the move {text!r} is given twice")
        moves.append(move)
    return tuple(moves)


def read_values(texts: list[str], state: State, game: Game, fault
                ) -> tuple[tuple[Move, float], ...]:
    pairs = []
    for text in texts:
        name, equals, number = text.rpartition("=")
        if not equals:
            raise fault(f"{text!r} is not MOVE=VALUE")
        try:
            value = float(number) if any(c in number for c in ".eEn") else int(number)
        except ValueError:
            raise fault(f"{text!r}: {number!r} is not a number") from None
        if not math.isfinite(value):
            raise fault(f"{text!r}: the value is not a finite number")
        pairs.append(value)
    moves = read_moves([text.rpartition("=")[0] for text in texts], state, game, fault)
    return tuple(zip(moves, pairs))
