"""Game records: one plain-text format for every game, readable and editable by hand.

    [Game "connect4"]
    [First "human"]
    [Second "alphabeta:time=1"]
    [Seed "1"]
    [Date "2026-11-23T14:02:11"]
    [Result "0-1"]
    [Reason "Yellow wins: four in a row"]

    1. 4 4 2. 3 {the book move} 5 (2... 3 3. 5) 3. 2 *

- Headers, one per line: `Game` (the game spec with its options, required), `First`
  and `Second` (each side's player: `human` or an agent spec with its settings),
  `Seed` (the game seed each agent's own seed derives from), `Date`, `Result` (`1-0`
  the first side won, `0-1` the second, `1/2-1/2` a draw, `*` unfinished), `Reason`
  (how it ended), `Position` (the start, in the game's notation, when it is not the
  usual one). Other headers are kept as they are. A `"` or `\\` in a value is escaped
  with a backslash.
- Then the moves in the game's own notation. `3.` or `3...` are move numbers (the
  first side's, the second side's move); they help a reader and are not checked.
  `{...}` is a comment on the move before it; `( ... )` after a move holds another
  move tried instead of it, and what followed; variations nest. `;` comments out the
  rest of a line. The result ends the moves.

Reading checks every move in its position; an error names the line and the move.
"""
from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Iterator

from .game import Game, Outcome, PlygroundError, parse_game
from .gametree import GameNode, GameTree
from .match import Match

RESULTS = {0: "1-0", 1: "0-1", None: "1/2-1/2"}
UNFINISHED = "*"
WINNERS = {text: winner for winner, text in RESULTS.items()}
ORDER = ("Game", "First", "Second", "Seed", "Date", "Result", "Reason", "Position")
HEADER = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
MOVE_NUMBER = re.compile(r"\d+\.+")
LINE_WIDTH = 79


class RecordError(PlygroundError):
    """A game record that cannot be read: its message names the line."""


@dataclass
class GameRecord:
    game: Game
    tree: GameTree
    players: tuple[str, str] = ("human", "human")
    seed: int | None = None
    date: str = ""
    result: str = UNFINISHED
    reason: str = ""
    headers: dict[str, str] = field(default_factory=dict)  # any others, kept as read

    @property
    def start(self):
        return self.tree.root.state

    @property
    def moves(self) -> list:
        return self.tree.main_moves()

    @property
    def final(self):
        line = self.tree.main_line()
        return line[-1].state if line else self.start

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (None if it did not)."""
        if self.result == UNFINISHED:
            return None
        return Outcome(WINNERS[self.result], self.reason)

    def match(self) -> Match:
        """The game as a Match at its last main-line position (a game a side forfeited
        or resigned ends with that outcome, though the position plays on)."""
        match = Match(self.game, self.players, self.start, seed=self.seed)
        for move in self.moves:
            match.play(move)
        if self.outcome is not None and match.state.outcome() is None:
            match.forfeit = self.outcome
        return match


def result_text(outcome: Outcome | None) -> str:
    return UNFINISHED if outcome is None else RESULTS[outcome.winner]


def now() -> str:
    return datetime.now().isoformat(timespec="seconds")


def record_of(match: Match, tree: GameTree | None = None, date: str | None = None,
              reason: str | None = None) -> GameRecord:
    """The record of `match` (its variations from `tree`, whose main line must be the
    match's moves). `reason` says why an unfinished game stopped (e.g. abandoned)."""
    if tree is None:
        tree = GameTree.from_moves(match.start, match.moves)
    outcome = match.outcome
    if outcome is not None:
        reason = match.game.describe_outcome(outcome) + (
            f": {outcome.reason}" if outcome.reason else "")
    return GameRecord(match.game, tree, tuple(match.sides), match.seed,
                      date or now(), result_text(outcome), reason or "")


# --- writing -------------------------------------------------------------------------

def quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_record(record: GameRecord) -> str:
    game = record.game
    headers = {"Game": game.spec, "First": record.players[0],
               "Second": record.players[1],
               "Seed": "" if record.seed is None else str(record.seed),
               "Date": record.date, "Result": record.result, "Reason": record.reason,
               "Position": "" if record.start == game.start()
               else game.format_position(record.start), **record.headers}
    lines = [f"[{name} {quote(value)}]" for name, value in headers.items()
             if value or name in ("Game", "First", "Second", "Result")]
    tokens = []
    if record.tree.root.comment:
        tokens.append(comment_token(record.tree.root.comment))
    tokens += list(movetext(game, record.tree.root)) + [record.result]
    return "\n".join(lines) + "\n\n" + "\n".join(wrap(tokens)) + "\n"


def comment_token(text: str) -> str:
    return "{" + " ".join(text.replace("}", ")").split()) + "}"


def number(state, forced: bool) -> str:
    """The move number before a move played in `state` (the second side's only where
    the reader would lose count: after a comment or at a variation's start)."""
    full = state.ply // 2 + 1
    if state.to_move == 0:
        return f"{full}. "
    return f"{full}... " if forced else ""


def movetext(game: Game, node: GameNode, forced: bool = True) -> Iterator[str]:
    """The moves after `node`: the main continuation, each variation in brackets
    after the move it replaces."""
    while node.children:
        main, *variations = node.children
        yield from played(game, node, main, forced)
        for variation in variations:
            yield "("
            yield from played(game, node, variation, True)
            yield from movetext(game, variation, False)
            yield ")"
        forced = bool(variations or main.comment)
        node = main


def played(game: Game, node: GameNode, child: GameNode, forced: bool) -> Iterator[str]:
    yield number(node.state, forced) + game.format_move(child.move)
    if child.comment:
        yield comment_token(child.comment)


def wrap(tokens: list[str]) -> list[str]:
    lines, line = [], ""
    for token in tokens:
        glue = "" if not line or line.endswith("(") or token == ")" else " "
        if line and len(line) + len(glue) + len(token) > LINE_WIDTH:
            lines.append(line)
            line, glue = "", ""
        line += glue + token
    return lines + ([line] if line else [])


def save_record(path: str | os.PathLike, record: GameRecord) -> None:
    """Write the record to `path` atomically: a crash leaves the old file whole."""
    write_atomically(Path(path), format_record(record))


def write_atomically(path: Path, text: str) -> None:
    path = path.expanduser()
    folder = path.parent if str(path.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


# --- reading -------------------------------------------------------------------------

def load_record(path: str | os.PathLike) -> GameRecord:
    path = Path(path).expanduser()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"no game record at {path}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file (not a game record)") from None
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror}") from None
    return parse_record(text, source=str(path))


def parse_record(text: str, source: str = "record") -> GameRecord:
    lines = text.splitlines()
    headers: dict[str, tuple[str, int]] = {}
    index = 0
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or stripped.startswith(";"):
            continue
        if not stripped.startswith("["):
            break
        found = HEADER.match(stripped)
        if not found:
            raise RecordError(f'{source} line {index + 1}: {stripped!r} is not a header '
                              'like [Name "value"]')
        name, value = found[1], re.sub(r"\\(.)", r"\1", found[2])
        if name in headers:
            raise RecordError(f"{source} line {index + 1}: header {name} given twice")
        headers[name] = (value, index + 1)
    else:
        index = len(lines)

    def header_error(name: str, problem: str) -> RecordError:
        return RecordError(f"{source} line {headers[name][1]}: {name} {problem}")

    if "Game" not in headers:
        raise RecordError(f'{source}: no [Game "..."] header naming the game')
    try:
        game = parse_game(headers["Game"][0])
    except PlygroundError as error:
        raise header_error("Game", f"is not a game: {error}") from None
    start = game.start()
    if headers.get("Position", ("",))[0]:
        try:
            start = game.parse_position(headers["Position"][0])
        except PlygroundError as error:
            raise header_error("Position", f"is not a position: {error}") from None
    seed = None
    if headers.get("Seed", ("",))[0]:
        try:
            seed = int(headers["Seed"][0])
        except ValueError:
            raise header_error("Seed", "is not a whole number") from None
    result = headers.get("Result", (UNFINISHED,))[0]
    if result not in (*WINNERS, UNFINISHED):
        raise header_error("Result", f"is {result!r}: give 1-0, 0-1, 1/2-1/2 or *")
    players = tuple(headers.get(side, ("human",))[0] for side in ("First", "Second"))
    tree = GameTree(start)
    end = read_moves(game, tree, lines, index, source)
    record = GameRecord(game, tree, players, seed, headers.get("Date", ("",))[0],
                        result, headers.get("Reason", ("",))[0],
                        {name: value for name, (value, _) in headers.items()
                         if name not in ORDER})
    check_result(record, end, source, headers.get("Result", (None, None))[1])
    return record


def check_result(record: GameRecord, end, source: str, line: int | None) -> None:
    """The result must agree with the final position (and with the result ending
    the moves): a finished position has its own result; one that plays on may have
    ended by a forfeit or resignation (any result)."""
    token, token_line = end
    where = f"{source} line {line or token_line}"
    if token is not None and token != record.result:
        if line is None:
            record.result = token
        else:
            raise RecordError(f"{source} line {token_line}: the moves end in {token} "
                              f"but the Result header says {record.result}")
    outcome = record.final.outcome()
    if outcome is not None and RESULTS[outcome.winner] != record.result:
        said = record.game.describe_outcome(outcome)
        raise RecordError(f"{where}: the result is {record.result} but the last "
                          f"position is {said} ({RESULTS[outcome.winner]})")
    if outcome is not None and not record.reason:
        record.reason = said_outcome(record.game, outcome)


def said_outcome(game: Game, outcome: Outcome) -> str:
    return game.describe_outcome(outcome) + (f": {outcome.reason}" if outcome.reason
                                              else "")


def tokens(lines: list[str], first: int, source: str) -> Iterator[tuple[str, str, int]]:
    """(kind, text, line number) for each token of the moves, kind being one of
    comment, open, close, number, result and move."""
    text = "\n".join(lines[first:])
    line, at = first + 1, 0
    while at < len(text):
        char = text[at]
        if char == "\n":
            line += 1
            at += 1
        elif char.isspace():
            at += 1
        elif char == ";":
            end = text.find("\n", at)
            at = len(text) if end < 0 else end
        elif char == "{":
            end = text.find("}", at)
            if end < 0:
                raise RecordError(f"{source} line {line}: a comment opened with {{ "
                                  "is never closed")
            yield "comment", text[at + 1:end], line
            line += text.count("\n", at, end)
            at = end + 1
        elif char == "}":
            raise RecordError(f"{source} line {line}: a }} closes no comment")
        elif char in "()":
            yield ("open" if char == "(" else "close"), char, line
            at += 1
        else:
            end, depth = at, 0
            while end < len(text) and not text[end].isspace() and text[end] not in "{};":
                if text[end] == "(":
                    depth += 1
                elif text[end] == ")":
                    if depth == 0:
                        break
                    depth -= 1
                end += 1
            word = text[at:end]
            at = end
            if word in (*WINNERS, UNFINISHED):
                yield "result", word, line
            elif MOVE_NUMBER.fullmatch(word):
                yield "number", word, line
            else:
                found = MOVE_NUMBER.match(word)  # "3.4": a number stuck to the move
                if found:
                    yield "number", found[0], line
                    word = word[found.end():]
                yield "move", word, line


def read_moves(game: Game, tree: GameTree, lines: list[str], first: int,
               source: str) -> tuple[str | None, int]:
    """Read the moves into `tree`; returns the result token ending them, and its line."""
    node, stack, ended = tree.root, [], None
    last_line = first + 1
    for kind, text, line in tokens(lines, first, source):
        last_line = line
        if ended is not None:
            raise RecordError(f"{source} line {line}: {text!r} comes after the result "
                              f"{ended[0]} that ends the moves")
        if kind == "result":
            if stack:
                raise RecordError(f"{source} line {line}: the moves end ({text}) inside "
                                  "a variation that was never closed with )")
            ended = text, line
            continue
        if kind == "comment":
            node.comment = " ".join((node.comment + " " + " ".join(text.split())).split())
        elif kind == "open":
            if node.parent is None:
                raise RecordError(f"{source} line {line}: a variation ( must follow the "
                                  "move it replaces")
            stack.append(node)
            node = node.parent
        elif kind == "close":
            if not stack:
                raise RecordError(f"{source} line {line}: a ) closes no variation")
            node = stack.pop()
        elif kind == "move":
            try:
                move = game.parse_move(text, node.state)
                node = node.add(move)
            except PlygroundError as error:
                after = game.format_line(node.moves()) or "the start"
                raise RecordError(f"{source} line {line}: move {text!r} (after "
                                  f"{after}) is not legal: {error}") from None
    if stack:
        raise RecordError(f"{source} line {last_line}: a variation opened with ( is "
                          "never closed")
    return ended or (None, last_line)
