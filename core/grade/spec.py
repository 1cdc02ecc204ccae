"""A grading spec: the TOML file in which a teacher says how a class's agents are
graded (`plyground grade check SPEC`; the format is in docs/grading.md).

It names the game, the clock per move, the memory limit, how to find each student's
agent in the student's folder, and the checks, each with its points and whether a
student may see it (`public`). A spec is data, read as a lesson is: every value is
checked against a range, every fault is collected with its line (`FILE:LINE: ...`),
and no agent it names is imported or started while it is read. The agents a check
plays against or counts nodes beside are references: they must be plyground's own or
an installed package's, so that neither checking a spec nor, later, running its public
part on a student's machine runs code that came with the file.
"""
from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agents.box import memory_within
from ..catalogue import HUMAN, parse_agent
from ..errors import PlygroundError, shown
from ..game import Game, parse_game
from ..paths import UnreadableFile, parse_toml, read_text_file
from ..play.openings import NO_OPENINGS, load_suite, shipped_suites
from ..play.sprt import SPRT
from ..plugins import names_a_file
from .positions import read_positions
from ..ranges import (DEEPEST, LONGEST_MOVE, MOST_GAMES, SHORTEST_MOVE,
                      machine_memory)
from ..study.lesson import Fault, Lines, toml_fault
from ..study.lesson_files import files_beside, record_beside
from ..trust import outside_code

TOP_KEYS = {"title", "game", "time", "mem", "agent", "engine", "check"}
CHECK_KEYS = {"name", "kind", "points", "public"}
# each kind's own keys, and those of them it cannot do without
KIND_KEYS = {"legal": {"games", "against", "openings"},
             "positions": {"file"},
             "nodes": {"file", "depth", "reference", "order"},
             "strength": {"against", "games", "sprt", "bands", "openings"},
             "ladder": {"format", "games", "openings"}}
REQUIRED = {"legal": ("games", "against"), "positions": ("file",),
            "nodes": ("file", "depth", "reference"), "strength": ("against",),
            "ladder": ("format",)}
KINDS = tuple(KIND_KEYS)
# the order a reference search tries moves in: as the game lists them, or the
# columns (or cells) nearest the centre first
ORDERS = ("generated", "centre-first")
FORMATS = ("round-robin", "swiss")
SPRT_KEYS = ("elo0", "elo1", "alpha", "beta")
MOST_POINTS = 10_000  # a check's points: more than any course's whole grade
MOST_CHECKS = 100
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")  # a column of grades.csv
STUDENT_BOT = re.compile(r"[^:\s][^:]*\.py:[A-Za-z_][A-Za-z0-9_]*")
LONGEST_COMMAND = 1000  # characters of `engine`


class SpecFault(ValueError):
    """A value of the spec that is not one; its text follows the value's key."""


@dataclass(frozen=True)
class Check:
    name: str
    kind: str  # one of KINDS
    points: float
    public: bool
    line: int | None
    fields: dict[str, Any]  # the kind's own keys, checked (files as paths)


@dataclass
class GradingSpec:
    path: Path
    title: str = ""
    game: Game | None = None
    time: float | None = None  # seconds a move
    mem: int | None = None  # bytes
    agent: str | None = None  # `bot.py:MyBot`, relative to each student's folder
    engine: str | None = None  # or the command that starts each student's engine
    checks: list[Check] = field(default_factory=list)
    source: str = field(default="", repr=False)  # the file's text, as read

    @property
    def points(self) -> float:
        return sum(check.points for check in self.checks)

    @property
    def public(self) -> list[Check]:
        return [check for check in self.checks if check.public]


class CheckLines(Lines):
    """Where a spec's `[[check]]` tables and their keys are (as a lesson's scenes:
    tomllib keeps no lines). A check holds no tables, so the pattern's group, a
    lesson's step, is always empty."""

    HEADER = re.compile(r"^\s*\[\[\s*check\s*\]\]()")


# --- values --------------------------------------------------------------------------


def figure(value: float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


def number(value: Any, low: float, high: float, whole: bool = False) -> float:
    """`value` if it is a number (a whole one if `whole`) from `low` to `high`."""
    kind = "a whole number" if whole else "a number"
    if isinstance(value, bool) or not isinstance(value, int if whole else (int, float)):
        raise SpecFault(f"is {kind} from {figure(low)} to {figure(high)}, not "
                        f"{shown(repr(value))}")
    if not math.isfinite(value) or not low <= value <= high:
        raise SpecFault(f"{value!r} is not {kind} from {figure(low)} to {figure(high)}")
    return value


def choice(value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise SpecFault(f"is one of {', '.join(choices)}, not {shown(repr(value))}")
    return value


def spec_file(folder: Path, value: Any, key: str) -> Path:
    """A file the spec names: relative to its folder and inside it (the rule of a
    lesson's files, record_beside), a regular file under the size cap. A spec is
    handed out as a lesson is: it names no file elsewhere on its reader's machine."""
    try:
        path = record_beside(folder, value, key, "grading spec")
    except PlygroundError:
        raise SpecFault(f"{shown(repr(value))} is not a file in the spec's folder or "
                        "below it, named relative to it (no absolute path, no .., no "
                        "link leading out)") from None
    try:
        read_text_file(path, "grading")
    except UnreadableFile as error:
        missing = "there is no such file" if error.missing else error.reason
        raise SpecFault(f"{shown(repr(value))}: {missing}") from None
    return path


def labelled_file(folder: Path, value: Any, game: Game | None) -> Path:
    """A positions check's file: in the spec's folder, and a file of labelled
    positions of the spec's game (core/grade/positions.py), read as data."""
    path = spec_file(folder, value, "file")
    if game is not None:
        try:
            read_positions(path, game)
        except PlygroundError as error:
            raise SpecFault(f": {error}") from None
    return path


def reference_agent(spec: Any, game: Game | None, folder: Path) -> str:
    """An agent a check plays or searches beside: plyground's own or an installed
    package's (told apart without importing anything), whose files, if it names
    any, are the spec's, and which plays the game."""
    if not isinstance(spec, str) or not spec.strip() or spec.strip() == HUMAN:
        raise SpecFault(f"names agents, as in \"greedy\" or \"alphabeta:depth=4\", not "
                        f"{shown(repr(spec))}")
    outside = outside_code(spec)
    if outside is not None:
        raise SpecFault(f"{shown(repr(spec))} is an agent from outside plyground (it "
                        f"runs {outside}): a spec's reference agents are plyground's "
                        "own or an installed package's (nothing was run)")
    try:
        spec = files_beside(spec, folder, "grading spec")
        agent = parse_agent(spec)
    except PlygroundError as error:
        raise SpecFault(f"{shown(repr(spec))}: {error}") from None
    if game is not None and not agent.plays(game):
        raise SpecFault(f": {agent.title} does not play {game.title}")
    return spec


def agents(value: Any, game: Game | None, folder: Path) -> list[str]:
    if not isinstance(value, list) or not value:
        raise SpecFault("is a list of agents, as in [\"random\", \"greedy\"]")
    return [reference_agent(spec, game, folder) for spec in value]


def openings(value: Any, game: Game | None, folder: Path) -> str:
    """`none`, a suite the game ships, or a suite file in the spec's folder."""
    if not isinstance(value, str) or not value.strip():
        raise SpecFault("names an opening suite, as in \"balanced\", or \"none\"")
    if value == NO_OPENINGS or game is None or value in shipped_suites(game):
        return value
    if not names_a_file(value):
        suites = ", ".join([*shipped_suites(game), NO_OPENINGS])
        raise SpecFault(f"{shown(repr(value))} is not one of {game.title}'s suites "
                        f"({suites}) nor a .txt file beside the spec")
    path = spec_file(folder, value, "openings")
    try:
        load_suite(game, str(path))
    except PlygroundError as error:
        raise SpecFault(str(error)) from None
    return str(path)


def sprt_bounds(value: Any) -> SPRT:
    if not isinstance(value, dict) or set(value) - set(SPRT_KEYS) \
            or not {"elo0", "elo1"} <= set(value):
        raise SpecFault("is a table of elo0, elo1 and perhaps alpha and beta, as in "
                        "{elo0 = 0, elo1 = 50}")
    bounds = {key: number(value[key], -2000, 2000) for key in value}
    try:
        return SPRT(**bounds)
    except PlygroundError as error:
        raise SpecFault(str(error)) from None


def bands(value: Any, points: float) -> list[tuple[float, float]]:
    """`[[score, points], ...]`: at least this share of the games' points scores
    that many of the check's, the scores rising."""
    if not isinstance(value, list) or not value or not all(
            isinstance(band, list) and len(band) == 2 for band in value):
        raise SpecFault("is a list of [score, points] pairs, as in [[0.25, 5], [0.5, 10]]")
    found = [(number(score, 0, 1), number(worth, 0, points)) for score, worth in value]
    if any(a[0] >= b[0] for a, b in zip(found, found[1:])):
        raise SpecFault("lists its scores rising, each above the one before")
    return found


# --- reading -------------------------------------------------------------------------


def read_spec(path: str | Path) -> tuple[GradingSpec, list[Fault]]:
    """The spec in the file, and every fault its text has, in the order of their
    lines. Nothing it names is imported or started."""
    path = Path(path)
    name = shown(str(path))
    spec = GradingSpec(path)
    try:
        text = read_text_file(path, "grading spec")
    except UnreadableFile as error:
        return spec, [Fault(name, None, None, f"cannot read it: {error.reason}")]
    try:
        data = parse_toml(text)
    except tomllib.TOMLDecodeError as error:
        return spec, [toml_fault(name, error)]
    spec.source = text
    reader = SpecReader(name, path.parent, CheckLines(text))
    reader.read(data, spec)
    return spec, sorted(reader.faults, key=lambda fault: fault.line or 0)


class SpecReader:
    """Reads a spec's tables, collecting a fault for each value that is not one."""

    def __init__(self, name: str, folder: Path, lines: CheckLines) -> None:
        self.name, self.folder, self.lines = name, folder, lines
        self.faults: list[Fault] = []

    def fault(self, problem: str, line: int | None) -> None:
        self.faults.append(Fault(self.name, line, None, problem))

    def top_line(self, key: str) -> int | None:
        return self.lines.key(0, key) or None

    def read(self, data: dict, spec: GradingSpec) -> None:
        for key in sorted(set(data) - TOP_KEYS):
            self.fault(f"unknown key {key!r} (a spec has {', '.join(sorted(TOP_KEYS))})",
                       self.top_line(key))
        spec.title = self.value(data, "title", lambda v: v if isinstance(v, str) else
                                _raise("is text, in quotes"), required=False) or ""
        spec.game = self.value(data, "game", lambda v: parse_game(str(v)) if
                               isinstance(v, str) else _raise("is a game, as in "
                                                              "\"connect4\""))
        spec.time = self.value(data, "time", lambda v: number(v, SHORTEST_MOVE,
                                                              LONGEST_MOVE))
        spec.mem = self.value(data, "mem", memory_size)
        self.submission(data, spec)
        checks = data.get("check")
        if not isinstance(checks, list) or not checks:
            self.fault("the spec has no checks ([[check]] tables)", self.top_line("check"))
            return
        if len(checks) > MOST_CHECKS:
            self.fault(f"the spec has {len(checks)} checks; at most {MOST_CHECKS}", None)
            return
        if len(self.lines.scenes) != len(checks):
            self.fault("write each check as a [[check]] table of its own", None)
        names: set[str] = set()
        for index, table in enumerate(checks):
            check = self.check(table, index, spec)
            if check is not None and check.name in names:
                self.fault(f"check {check.name!r} is named twice", check.line)
            elif check is not None:
                names.add(check.name)
                spec.checks.append(check)

    def value(self, data: dict, key: str, parse, required: bool = True,
              start: int | None = 0, prefix: str = "") -> Any:
        """`parse(data[key])`, or None with a fault at the key's line."""
        line = self.lines.key(start, key) if start is not None else None
        if key not in data:
            if required:
                self.fault(f"{prefix}{key} is missing", line or start or None)
            return None
        try:
            return parse(data[key])
        except SpecFault as error:  # (its words follow the key: "games is ...")
            joined = "" if str(error).startswith(":") else " "
            self.fault(f"{prefix}{key}{joined}{error}", line or None)
        except PlygroundError as error:
            self.fault(f"{prefix}{key}: {error}", line or None)
        return None

    def submission(self, data: dict, spec: GradingSpec) -> None:
        """How each student's agent is found: a bot file or an engine command."""
        given = [key for key in ("agent", "engine") if key in data]
        if len(given) != 1:
            self.fault("the spec says how to find each student's agent: agent = "
                       "\"bot.py:MyBot\" or engine = \"./run.sh\", one of them",
                       self.top_line(given[-1]) if given else None)
            return
        if given == ["agent"]:
            spec.agent = self.value(data, "agent", bot_in_folder)
        else:
            spec.engine = self.value(data, "engine", engine_command)

    def check(self, table: Any, index: int, spec: GradingSpec) -> Check | None:
        line = self.lines.scene(index)
        if not isinstance(table, dict):
            self.fault("a check is a [[check]] table", line)
            return None
        label = table.get("name")
        prefix = f"check {label!r}: " if isinstance(label, str) else \
            f"check {index + 1}: "
        before = len(self.faults)
        name = self.value(table, "name", lambda v: v if isinstance(v, str) and
                          NAME.fullmatch(v) else _raise(
                              "is 1 to 40 letters, digits, ., _ or -, starting with a "
                              "letter or digit"), start=line, prefix=f"check {index + 1}: ")
        kind = self.value(table, "kind", lambda v: choice(v, KINDS), start=line,
                          prefix=prefix)
        points = self.value(table, "points", lambda v: number(v, 0, MOST_POINTS),
                            start=line, prefix=prefix)
        public = self.value(table, "public", lambda v: v if isinstance(v, bool) else
                            _raise("is true or false"), required=False, start=line,
                            prefix=prefix) or False
        fields: dict[str, Any] = {}
        if kind is not None:
            for key in sorted(set(table) - CHECK_KEYS - KIND_KEYS[kind]):
                self.fault(f"{prefix}unknown key {key!r} (a {kind} check has "
                           f"{', '.join(sorted(CHECK_KEYS | KIND_KEYS[kind]))})",
                           self.lines.key(line, key))
            fields = self.fields(table, kind, points or 0, spec, line, prefix)
        if len(self.faults) > before:
            return None
        return Check(name, kind, points, public, line, fields)

    def fields(self, table: dict, kind: str, points: float, spec: GradingSpec,
               line: int | None, prefix: str) -> dict[str, Any]:
        game, folder = spec.game, self.folder
        parsers = {
            "games": lambda v: number(v, 1, MOST_GAMES, whole=True),
            "against": lambda v: agents(v, game, folder),
            "openings": lambda v: openings(v, game, folder),
            "file": lambda v: labelled_file(folder, v, game) if kind == "positions"
            else spec_file(folder, v, "file"),
            "depth": lambda v: number(v, 1, DEEPEST, whole=True),
            "reference": lambda v: searches_to_depth(reference_agent(v, game, folder)),
            "order": lambda v: choice(v, ORDERS),
            "sprt": sprt_bounds,
            "bands": lambda v: bands(v, points),
            "format": lambda v: choice(v, FORMATS),
        }
        fields = {}
        for key in sorted(KIND_KEYS[kind]):
            found = self.value(table, key, parsers[key],
                               required=key in REQUIRED[kind], start=line, prefix=prefix)
            if found is not None:
                fields[key] = found
        if kind == "strength" and ("games" in table) == ("sprt" in table):
            self.fault(f"{prefix}a strength check plays a number of games or an SPRT: "
                       "give games or sprt, one of them",
                       self.lines.key(line, "sprt") if "sprt" in table else line)
        elif kind == "strength" and ("games" in table) != ("bands" in table):
            self.fault(f"{prefix}a strength check on games scores by bands (and one "
                       "with an SPRT by its verdict): give games with bands",
                       self.lines.key(line, "bands" if "bands" in table else "games"))
        if kind == "nodes":
            fields.setdefault("order", ORDERS[0])
        return fields


def _raise(problem: str):
    raise SpecFault(problem)


def bot_in_folder(value: Any) -> str:
    """`bot.py:MyBot`: a Python file in each student's folder, and its class."""
    if not isinstance(value, str) or not STUDENT_BOT.fullmatch(value.strip()):
        raise SpecFault("is a Python file in each student's folder and its class, as in "
                        "\"bot.py:MyBot\"")
    file = Path(value.strip().rpartition(":")[0])
    if file.is_absolute() or ".." in file.parts or value.strip().startswith("~"):
        raise SpecFault(f"{shown(repr(value))}: the file is named relative to each "
                        "student's folder, inside it (no absolute path, no ..)")
    return value.strip()


def engine_command(value: Any) -> str:
    """The command line that starts each student's engine, in the student's folder."""
    if not isinstance(value, str) or not value.strip() or len(value) > LONGEST_COMMAND \
            or not value.isprintable():
        raise SpecFault(f"is a command line of at most {LONGEST_COMMAND} printable "
                        "characters, as in \"./run.sh\"")
    return value.strip()


def memory_size(value: Any) -> int:
    """`mem`: a memory size, as an agent's `mem=` (at most this machine's)."""
    if not isinstance(value, str):
        raise SpecFault("is a memory size, in quotes, as in \"512M\"")
    try:
        return memory_within(value, machine_memory())
    except ValueError as error:
        raise SpecFault(f"{shown(repr(value))} {error}") from None


def searches_to_depth(spec: str) -> str:
    """A nodes check's reference: a search that goes to a fixed depth."""
    agent = parse_agent(spec)
    if "depth" not in {setting.name for setting in agent.settings_spec} \
            or agent.external:
        raise SpecFault(f"{shown(repr(spec))} is not a search to a fixed depth (minimax "
                        "or alphabeta, say)")
    return spec


def load_spec(path: str | Path) -> GradingSpec:
    """The spec in the file; a PlygroundError naming its first fault and how many."""
    spec, faults = read_spec(path)
    if faults:
        more = f" (and {len(faults) - 1} more: `plyground grade check` lists them)" \
            if len(faults) > 1 else ""
        raise PlygroundError(f"{faults[0]}{more}")
    return spec
