"""Opening suites: the positions a match's game pairs start from, each played twice with
the colours swapped, so that neither side gains from the start it drew and a run of
pairs covers many kinds of game rather than one.

A suite is a text file. Its first lines are comments (`#`) saying what it is, and
`# key: value` ones among them are read: `game:` the game spec it is for (a suite for
another game spec is refused; without the line, any spec whose moves fit), `values:`
what its values mean, `built by:` the command that made it. Then one opening a line:
the moves from the game's start in the game's record notation (what `format_record`
writes and `Game.parse_line` reads: `4453` in Connect 4, `e5 e2 c5` in Cephalopod),
optionally followed by two spaces, `#` and the value its builder gave it, for the side
to move (`4453  # 0`). Blank lines and further comment lines are skipped.

Every opening must be legal, leave the game running and be a position of its own: no
two lines reach the same position or its mirror image (`Game.symmetric_key`). A file
that breaks this is refused with one line naming the file, the line and the problem.

A game's shipped suites are the files `suites/<game id>.txt` (the suite `balanced`,
every game's default) and `suites/<game id>-<name>.txt` in this package; a name that is
not one is read as a file's path.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import PlygroundError, UnknownName, shown
from ..game import Game, Move, State, get_game
from ..paths import read_text_file

SUITES = Path(__file__).resolve().parent / "suites"
DEFAULT_NAME = "balanced"
VALUE_MARK = "  # "  # between an opening's moves and its value
HEADER_ITEM = re.compile(r"#\s*([a-z][a-z ]*?)\s*:\s*(.*?)\s*$")  # `# built by: ...`


@dataclass(frozen=True)
class Suite:
    """A checked suite: its openings in file order, their values as written ("" where
    a line has none) and its header's `key: value` comments."""

    name: str
    game: str  # the game spec its header names ("" if it names none)
    lines: tuple[str, ...]
    source: Path
    values: tuple[str, ...] = ()
    header: tuple[tuple[str, str], ...] = ()

    def opening(self, round: int) -> str:
        """The opening of the `round`-th pair (0, 1, 2...): the lines in file order,
        from the first again after the last."""
        return self.lines[round % len(self.lines)]

    def start(self, game: Game, round: int) -> tuple[State, list[Move]]:
        """The position the `round`-th pair starts from, and the moves from the game's
        start that reach it (a record of the game begins with them)."""
        return reach(game, self.opening(round))

    def about(self, key: str) -> str:
        """The header's value for `key` ("" if it has none)."""
        return dict(self.header).get(key, "")

    def plies(self, game: Game) -> tuple[int, int]:
        """The fewest and the most moves of its openings."""
        counts = [len(game.parse_line(game.start(), line)) for line in self.lines]
        return min(counts), max(counts)


def default_suite_name(game: Game) -> str:
    """The suite a match on `game` plays when told `--openings` with no other name."""
    return DEFAULT_NAME


def shipped_path(game: Game, name: str) -> Path:
    """Where the shipped suite `name` of `game` lives (whether or not it exists)."""
    stem = game.id if name == DEFAULT_NAME else f"{game.id}-{name}"
    return SUITES / f"{stem}.txt"


def shipped_suites(game: Game) -> list[str]:
    """The names of `game`'s shipped suites, the default first: none for a game whose
    options are not its defaults (the suites are for those)."""
    if game.spec != get_game(game.id).spec:
        return []
    names = [DEFAULT_NAME] if shipped_path(game, DEFAULT_NAME).is_file() else []
    return names + sorted(path.stem.removeprefix(f"{game.id}-")
                          for path in SUITES.glob(f"{game.id}-*.txt"))


def names_a_file(text: str) -> bool:
    """Whether `--openings TEXT` names a file rather than a shipped suite."""
    return "/" in text or "\\" in text or "." in text or Path(text).is_file()


def load_suite(game: Game, name_or_path: str) -> Suite:
    """The suite a shipped name or a file's path names, checked for `game`."""
    if names_a_file(name_or_path):
        path = Path(name_or_path).expanduser()
        return read_suite(game, read_text_file(path, "opening suite"), path, path.stem)
    path = shipped_path(game, name_or_path)
    shipped = shipped_suites(game)
    if name_or_path not in shipped:
        if not shipped:
            raise UnknownName(f"there is no shipped opening suite for {game.spec}; build "
                              f"one with: plyground openings {game.spec} --build")
        raise UnknownName(f"{game.title} has no opening suite {name_or_path!r} "
                          f"(shipped: {', '.join(shipped)}; or give a file's path)")
    return read_suite(game, read_text_file(path, "opening suite"), path, name_or_path)


def read_suite(game: Game, text: str, source: Path, name: str) -> Suite:
    """The suite in `text` (from the file `source`), every line checked (see the
    module's doc); PlygroundError naming the file and line otherwise."""
    header: list[tuple[str, str]] = []
    lines: list[str] = []
    values: list[str] = []
    seen: dict = {}  # symmetric key -> the line number that reached it
    for number, raw in enumerate(text.splitlines(), 1):
        where = f"{shown(str(source))} line {number}"
        stripped = raw.strip()
        if stripped.startswith("#"):
            about = HEADER_ITEM.match(stripped)
            if about and not lines:
                header.append(about.groups())
                if about[1] == "game" and about[2] != game.spec:
                    raise PlygroundError(f"{where}: the suite is for {about[2]}, "
                                         f"not {game.spec}")
            continue
        if not stripped:
            continue
        line, _, value = raw.partition("#")
        state = opening_position(game, line.strip(), where)
        key = game.symmetric_key(state)
        if key in seen:
            raise PlygroundError(f"{where}: the same position as line {seen[key]}"
                                 " (or its mirror image)")
        seen[key] = number
        lines.append(line.strip())
        values.append(value.strip())
    if not lines:
        raise PlygroundError(f"{shown(str(source))}: the suite holds no openings")
    return Suite(name, dict(header).get("game", ""), tuple(lines), source,
                 tuple(values), tuple(header))


def opening_position(game: Game, line: str, where: str) -> State:
    """The running position `line` reaches from `game`'s start."""
    try:
        state, _ = reach(game, line)
    except PlygroundError as error:
        raise PlygroundError(f"{where}: {error}") from None
    outcome = state.outcome()
    if outcome is not None:
        raise PlygroundError(f"{where}: the game is over there ({outcome.reason})")
    return state


def reach(game: Game, line: str) -> tuple[State, list[Move]]:
    """The position `line`'s moves reach from `game`'s start, and the moves."""
    moves = game.parse_line(game.start(), line)
    state = game.start()
    for move in moves:
        state = state.play(move)
    return state, moves


NO_OPENINGS = "none"  # --openings none: every pair from the game's start


def opening_suite(game: Game, openings: str | None) -> Suite | None:
    """The suite `openings` (a shipped name or a file) names; None for none."""
    if openings is None or openings == NO_OPENINGS:
        return None
    return load_suite(game, openings)


def openings_option(text: str | None) -> str | None:
    """--openings as a run keeps it: a shipped suite's name, or a file's full path
    (so that the run resumes from any folder)."""
    if text is None or not names_a_file(text.strip()):
        return None if text is None else text.strip()
    return str(Path(text.strip()).expanduser().resolve())
