"""The core contract every game implements, and the registry the CLI and menus read.

A `Game` is one rule set (with its options); a `State` is an immutable, hashable
position of that game. Search code only ever talks to these two, so every agent works
on every game.
"""
from __future__ import annotations

import importlib
import inspect
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Callable, Hashable, Protocol, Sequence

from .errors import BadOption, IllegalMove, NotationError, PlygroundError, UnknownName
from .plugins import load_entry_points

if TYPE_CHECKING:
    import numpy as np

Move = Hashable


class Termination(StrEnum):
    """What ended a game, for code that asks (was it a forfeit?) without reading the
    reason's words, which differ from game to game."""

    LINE = "line"  # a side made the line the rules look for (four, three, an attribute)
    FULL_BOARD = "full board"  # no room left: a draw, or the count decides
    PLY_CAP = "ply cap"  # the rules' longest game was reached
    FORFEIT = "forfeit"  # a side's agent failed to play (forfeit_reason's words)
    DECLARED = "declared"  # a record's result off the board: a resignation, an agreement


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: `winner` is 0, 1 or None for a draw; `reason` is the
    game's own words for it (`X connects four`), which records and the history store."""

    winner: int | None
    termination: Termination
    reason: str = ""

    @property
    def is_draw(self) -> bool:
        return self.winner is None


def forfeit_reason(loser_label: str, why: str = "") -> str:
    """`X forfeits: Bot raised ValueError`: a forfeit's reason, written by the match
    and recognised by a record read back."""
    return f"{loser_label} forfeits: {why}"


class State(Protocol):
    """An immutable position. Equal states compare and hash equal."""

    @property
    def game(self) -> "Game":
        """The rule set this state belongs to."""

    @property
    def to_move(self) -> int: ...

    @property
    def ply(self) -> int: ...

    def moves(self) -> Sequence[Move]:
        """Legal moves in a stable order (empty once the game is over)."""

    def play(self, move: Move) -> "State":
        """The state after `move`; raises IllegalMove if it is not legal."""

    def outcome(self) -> Outcome | None:
        """None while the game goes on."""

    def key(self) -> int:
        """A non-negative integer identifying the position, for transposition tables."""


class Game(ABC):
    """One rule set. Subclasses give rules, notation and a heuristic."""

    id: str
    title: str
    side_labels: tuple[str, str]
    # The course's seed engine, where it gave one: alpha-beta to this fixed depth with
    # `seed_evaluate` at the leaves (the `seed` agent plays it).
    seed_depth: int | None = None

    @abstractmethod
    def start(self) -> State: ...

    @abstractmethod
    def parse_move(self, text: str, state: State) -> Move:
        """The legal move `text` names in `state` (NotationError / IllegalMove otherwise)."""

    @abstractmethod
    def format_move(self, move: Move) -> str: ...

    def format_line(self, moves: Sequence[Move]) -> str:
        """A sequence of moves as one string (a game record, a principal variation)."""
        return " ".join(self.format_move(move) for move in moves)

    def parse_line(self, start: State, line: str) -> list[Move]:
        """The moves a line as `format_line` writes it names, from `start` (the moves
        may be run together, `4453`, or spaced): each move is a legal move whose notation
        comes next, trying the others should one lead nowhere."""
        # a depth-first search: per move read, the position, where its text ended, and
        # the other moves that could still be tried there
        path: list[tuple[State, int, list[Move]]] = [(start, 0, [])]
        state, at = start, 0
        while True:
            while at < len(line) and line[at].isspace():
                at += 1
            if at == len(line):
                return [move for _, _, (move, *_) in path[1:]]
            fits = sorted((move for move in state.moves()
                           if line.startswith(self.format_move(move), at)),
                          key=lambda move: -len(self.format_move(move)))  # longest first
            while not fits:
                if len(path) == 1:
                    raise PlygroundError(f"{line!r} is not a line of legal {self.title} moves")
                _, _, (_, *fits) = path.pop()
                state, at, _ = path[-1]
            move = fits[0]
            state, at = state.play(move), at + len(self.format_move(move))
            path.append((state, at, fits))

    def format_record(self, start: State, moves: Sequence[Move]) -> str:
        """A game as one line: its moves, after its start position if that is not the
        usual one."""
        if start == self.start():
            return self.format_line(moves)
        return f"{self.format_position(start)} : {self.format_line(moves)}"

    @abstractmethod
    def parse_position(self, text: str) -> State: ...

    @abstractmethod
    def format_position(self, state: State) -> str: ...

    @abstractmethod
    def evaluate(self, state: State) -> int:
        """Heuristic value of a running game for the side to move (higher is better)."""

    def seed_evaluate(self, state: State) -> int:
        """The seed engine's heuristic (games with a seed engine override it)."""
        return self.evaluate(state)

    def order_moves(self, state: State, moves: Sequence[Move]) -> list[Move]:
        """Moves in the order a search should try them first (default: as given)."""
        return list(moves)

    def winning_move(self, state: State) -> Move | None:
        """The first of `state`'s moves that wins at once, or None (decisive playouts;
        a game may say it faster)."""
        for move in state.moves():
            outcome = state.play(move).outcome()
            if outcome is not None and outcome.winner == state.to_move:
                return move
        return None

    def safe_moves(self, state: State) -> list[Move]:
        """`state`'s moves, in order, that neither lose at once nor leave the opponent
        a move that wins at once (decisive playouts; a game may say it faster)."""
        safe = []
        for move in state.moves():
            after = state.play(move)
            outcome = after.outcome()
            if outcome is None:
                if self.winning_move(after) is None:
                    safe.append(move)
            elif outcome.winner != 1 - state.to_move:
                safe.append(move)
        return safe

    def plies_left_at_most(self, state: State) -> int | None:
        """An upper bound on the plies the game can still last, if the rules give one.

        Lets a tree search stop deepening once it sees every line to the end.
        """
        return None

    def symmetric_key(self, state: State) -> Hashable:
        """A key shared by `state` and its mirror images, positions the rules play
        alike (an opening suite counts them as one); by default `state.key()`."""
        return state.key()

    def repetition_key(self, state: State) -> Hashable | None:
        """What `state` is for the rest of the game, whatever its ply, in a game whose
        positions can come back (BOOM: a BOOM undoes moves); None where they cannot."""
        return None

    # What a search that avoids repeats (TreeSearch.set_root) takes off a return to an
    # earlier position, for the side it searches for: the heuristic's units.
    repeat_contempt = 0

    def states_so_far(self, state: State) -> Sequence[State]:
        """Every position of `state`'s game up to `state`, where positions can come
        back (searches score a return to one as a draw); empty where they cannot."""
        return ()

    def iteration_depths(self, state: State, deepest: int) -> Sequence[int]:
        """The depths an iterative-deepening search tries, in order (default: every
        depth from 1). A game whose end is near may jump straight to it."""
        return range(1, deepest + 1)

    def options(self) -> dict[str, Any]:
        """The options this game was made with, as `get_game` takes them."""
        return {}

    @property
    def spec(self) -> str:
        """The game as `parse_game` reads it, e.g. `cephalopod:rows=3,cols=3`."""
        options = self.options()
        return self.id + (":" + ",".join(f"{k}={v}" for k, v in options.items())
                          if options else "")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.spec == self.spec

    def __hash__(self) -> int:
        return hash(self.spec)

    @property
    def entry(self) -> "GameEntry":
        """What the game declared when it registered (board, kernels, notation...)."""
        return game_entry(self.id)

    def encoding(self) -> "Encoding | None":
        """How a network sees this game (its registration's `encoding`, made once per
        game object, as variants differ in size), or None if it declares none."""
        if "_encoding" not in self.__dict__:
            ref = self.entry.encoding
            try:
                made = None if ref is None else load_ref(ref)(self)
            except (ImportError, AttributeError) as error:
                raise PlygroundError(f"{self.title}: its encoding {ref!r} does not load "
                                     f"({error})") from None
            self.__dict__["_encoding"] = made
        return self.__dict__["_encoding"]

    def describe_move(self, move: Move, state: State) -> str:
        """The move for people, in `state` (default: its notation)."""
        return self.format_move(move)

    def describe_outcome(self, outcome: Outcome) -> str:
        """One line such as `X wins` or `draw`."""
        if outcome.winner is None:
            return "draw"
        return f"{self.side_labels[outcome.winner]} wins"

    def play_moves(self, state: State, texts: Sequence[str]) -> State:
        """Play a sequence of move texts, each parsed in the position it applies to."""
        for text in texts:
            state = state.play(self.parse_move(text, state))
        return state


@dataclass(frozen=True)
class Encoding:
    """How a network sees a game: one state's input planes and the map between legal
    moves and policy indices. Learning agents need nothing else of a game."""

    shape: tuple[int, int, int]  # (planes, rows, cols) of one state's input
    policy_size: int
    # a float32 array of `shape`, the position seen from the side to move
    planes: Callable[[State], "np.ndarray"]
    # a legal move's policy index, 0 <= i < policy_size (distinct moves, distinct indices)
    index: Callable[[State, Move], int]
    move: Callable[[State, int], Move]  # the inverse, on the indices of legal moves
    # each f(planes[C,H,W], policy[P]) -> (planes, policy): the same position seen
    # mirrored or rotated, for training augmentation
    symmetries: tuple = ()


@dataclass(frozen=True)
class Kernels:
    """A game's numba kernels, as `module:attribute` references loaded only when a
    search asks for them: the alpha-beta backend class, the MCTS tree class (made by
    `(state, seed, exploration[, capacity=nodes])`, as fast/mcts_tree.KernelTree). Each
    named module has a `warm_up()` that compiles (or loads) its kernels."""

    tree: str | None = None
    mcts: str | None = None
    puct: str | None = None  # the module of the az agent's and self-play's PUCT kernels

    def modules(self) -> list[str]:
        return [ref.partition(":")[0] for ref in (self.tree, self.mcts, self.puct) if ref]


@dataclass(frozen=True)
class GameEntry:
    """Everything plyground needs of a game, declared once (`register_game`).

    References are `module:attribute` strings, loaded when used: the core never imports
    the app's widgets, and numba loads only where a kernel runs."""

    id: str
    title: str
    factory: Callable[..., Game]
    variants: tuple[tuple[str, dict], ...] = ()  # (label, options) for the menus
    board: str | None = None  # the app's board widget class (no board: not in the menus)
    renderer: str | None = None  # state -> rich renderable, for the CLI (else plain text)
    kernels: Kernels = Kernels()
    theme: dict[str, str] = field(default_factory=dict)  # the board's colour variables
    notation: str = ""  # how a position is written, e.g. "columns played, e.g. 4453"
    rules: str = ""  # the rules in a few lines, for the app's help screen
    analysis: str | None = None  # (state, observer, control) -> every move's exact value
    analysis_agent: str = "alphabeta:time=2"  # the agent `analyze` uses by default
    # how `review` judges a game without a solver: the agent spec, and optionally
    # another for the endgame with how many plies before the end it takes over
    review: tuple = ("alphabeta:nodes=20000",)
    review_scale: float = 100.0  # the heuristic figure worth a 75 % expected score
    # A game with an exact solver declares it here, so that no command asks which game
    # it is: the solver `plyground solve` runs (a class; solve(state, weak) and
    # analyze(state, weak)), the module that builds its opening book (BOOK_PATH,
    # build, interrupted), and the review by it, used unless another agent is asked:
    # (states, moves, progress) -> each move judged exactly, and the graph's values.
    solver: str | None = None
    book: str | None = None
    exact_review: str | None = None
    # how a network sees the game: `module:function`, function(game) -> Encoding
    encoding: str | None = None
    # the network the `az` agent plays when given none: `package:path/in/package.npz`,
    # with the command and seed that trained it in the file's own info
    network: str | None = None


_REGISTRY: dict[str, GameEntry] = {}
_plugins_loaded = False


def register_game(id: str, title: str, factory: Callable[..., Game],
                  variants: tuple[tuple[str, dict], ...] = (), **declared: Any) -> None:
    """Declare a game: its id, title and rule set, and whatever else it has (the
    fields of GameEntry). A package adds one through the entry-point group
    `plyground.games`, whose object is a GameEntry (or a callable that registers)."""
    _REGISTRY[id] = GameEntry(id, title, factory, variants, **declared)


def load_ref(ref: str) -> Any:
    """The object a `module:attribute` reference names."""
    module, _, attribute = ref.partition(":")
    value = importlib.import_module(module)
    for name in attribute.split(".") if attribute else ():
        value = getattr(value, name)
    return value


def _load_game_plugins() -> None:
    """Register the games installed packages declare (entry points `plyground.games`),
    once; one that fails to load is reported as a warning and left out."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True

    def register(point, declared) -> None:
        if isinstance(declared, GameEntry):
            _REGISTRY.setdefault(declared.id, declared)
        else:
            declared()

    load_entry_points("plyground.games", "game", register)


def game_entries() -> list[GameEntry]:
    """Registered games in registration order (the order menus show), the installed
    plugins' after plyground's own."""
    _load_game_plugins()
    return list(_REGISTRY.values())


def game_entry(id: str) -> GameEntry:
    """The registration of the game `id`."""
    _load_game_plugins()
    try:
        return _REGISTRY[id]
    except KeyError:
        known = ", ".join(_REGISTRY)
        raise UnknownName(f"unknown game {id!r} (known games: {known})") from None


def get_game(id: str, **options: Any) -> Game:
    """The game registered as `id`, made with `options` (e.g. rows=3)."""
    entry = game_entry(id)
    known = inspect.signature(entry.factory).parameters
    for name, value in options.items():
        given = str(value).lower() if isinstance(value, bool) else value
        if name not in known:
            raise UnknownName(f"{id} has no option {name!r} "
                              f"(options: {', '.join(known) or 'none'})")
        if (isinstance(known[name].default, bool)
                and not isinstance(value, bool)):
            raise BadOption(f"{id}: option {name} is true or false, not {given}")
        if (isinstance(known[name].default, int) and not isinstance(known[name].default, bool)
                and isinstance(value, bool)):
            raise BadOption(f"{id}: option {name} is a whole number, not {given}")
    return entry.factory(**options)


def parse_game(text: str) -> Game:
    """`id` or `id:name=value,...` (values are whole numbers or true/false, each
    option given once)."""
    id, _, rest = text.strip().partition(":")
    game_entry(id)  # an unknown game is named first (and as typed, quoted)
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        name, equals, value = item.partition("=")
        name, value = name.strip(), value.strip().lower()
        if not equals or not value:
            raise BadOption(f"{id}: option {item!r} needs a value, as in name=value")
        if name in options:
            raise BadOption(f"{id}: option {name!r} is given twice")
        if value in ("true", "false"):
            options[name] = value == "true"
        elif (number := whole_number(value.removeprefix("-"))) is not None:
            options[name] = -number if value.startswith("-") else number
        else:
            raise BadOption(f"{id}: option {item!r} is not a whole number or true/false")
    return get_game(id, **options)


def whole_number(text: str) -> int | None:
    """The number `text` writes in the digits 0-9, or None if it is not one: other
    digits pass str.isdigit (`²`) but not int(), and int() reads 4300 digits at most."""
    if not (text.isascii() and text.isdigit()):
        return None
    try:
        return int(text)
    except ValueError:
        return None
