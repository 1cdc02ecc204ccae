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
  with a backslash; a line break in a value is written as a space. The known names
  are read in any case (`[game "connect4"]`).
- Then the moves in the game's own notation. `3.` or `3...` are move numbers (the
  first side's, the second side's move); they help a reader and are not checked.
  `{...}` is a comment on the move before it; `( ... )` after a move holds another
  move tried instead of it, and what followed; variations nest (a comment just after
  `(` goes with the variation's first move). `;` comments out the rest of a line.
  The result ends the moves; with no result, neither a header nor at the end of the
  moves, a finished position gives it, else the game is unfinished (`*`).

Reading checks every move in its position; an error names the line and the move.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Iterator

from ..game import Game, Outcome, Termination, forfeit_reason, parse_game
from ..errors import IllegalMove, PlygroundError, shown
from .tree import GameNode, GameTree
from ..play.match import Match, parse_side
from ..paths import UnreadableFile, read_text_file, write_atomically
from ..trust import Trust, require_trust

RESULTS = {0: "1-0", 1: "0-1", None: "1/2-1/2"}
UNFINISHED = "*"
WINNERS = {text: winner for winner, text in RESULTS.items()}
ORDER = ("Game", "First", "Second", "Seed", "Date", "Result", "Reason", "Position")
KNOWN = {name.lower(): name for name in ORDER}
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

    def __post_init__(self) -> None:
        # as it will be written: a header value is one line (an agent's failure may
        # not be), so that a record reads back to what it was
        self.reason = one_line(self.reason)

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
        """How the game ended (None if it did not): the final position's own outcome
        when it is over, else the result with the Reason's own words (what follows
        `Yellow wins: `), as the Match that was recorded had it: a forfeit when they
        are a forfeit's, else a result declared off the board."""
        if self.result == UNFINISHED:
            return None
        winner = WINNERS[self.result]
        ended = self.final.outcome()
        if ended is not None and ended.winner == winner:
            return ended
        said = self.game.describe_outcome(Outcome(winner, Termination.DECLARED))
        reason = self.reason
        if reason == said:
            reason = ""
        elif reason.startswith(said + ": "):
            reason = reason[len(said) + 2:]
        forfeit = winner is not None and \
            reason.startswith(forfeit_reason(self.game.side_labels[1 - winner]))
        return Outcome(winner, Termination.FORFEIT if forfeit else Termination.DECLARED,
                       reason)

    def match(self, trust: Trust = False) -> Match:
        """The game as a Match at its last main-line position (a game a side forfeited
        or resigned ends with that outcome, though the position plays on). A player
        that runs code from outside plyground raises NeedsTrust, unless `trust` covers
        it, before anything is imported or started; one that names no agent here
        raises RecordError naming its header."""
        require_trust(self.players, trust, "the record")
        for name, spec in zip(("First", "Second"), self.players):
            try:
                parse_side(spec)
            except PlygroundError as error:
                raise RecordError(f"the {name} header ({spec!r}) names no player: "
                                  f"{error}") from None
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
        reason = said_outcome(match.game, outcome)
    return GameRecord(match.game, tree, tuple(match.sides), match.seed,
                      date or now(), result_text(outcome), reason or "")


# --- writing -------------------------------------------------------------------------

def one_line(value: str) -> str:
    """A header value on one line: each line break a space."""
    return " ".join(value.splitlines())


def quote(value: str) -> str:
    """A header value in quotes, on one line, `"` and `\\` escaped."""
    value = one_line(value)
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_record(record: GameRecord) -> str:
    game = record.game
    headers = {"Game": game.spec, "First": record.players[0],
               "Second": record.players[1],
               "Seed": "" if record.seed is None else str(record.seed),
               "Date": record.date, "Result": record.result, "Reason": record.reason,
               "Position": "" if record.start == game.start()
               else game.format_position(record.start)}
    headers.update((name, value) for name, value in record.headers.items()
                   if name.lower() not in KNOWN)  # the known ones come from the record
    lines = [f"[{name} {quote(value)}]" for name, value in headers.items()
             if one_line(value) or name in ("Game", "First", "Second", "Result")]
    tokens = []
    if record.tree.root.comment.strip():
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
            yield from movetext(game, variation, bool(variation.comment.strip()))
            yield ")"
        forced = bool(variations or main.comment.strip())
        node = main


def played(game: Game, node: GameNode, child: GameNode, forced: bool) -> Iterator[str]:
    yield number(node.state, forced) + game.format_move(child.move)
    if child.comment.strip():
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
    """Write the record to `path` atomically: a crash leaves the old file whole. A
    file that cannot be written raises the OSError (the old one stays as it was)."""
    write_atomically(Path(path), format_record(record))


def load_record(path: str | os.PathLike) -> GameRecord:
    """The record in the file (read_text_file: a regular file under its size cap)."""
    path = Path(path).expanduser()
    where = shown(str(path))
    try:
        text = read_text_file(path, "game record", encoding="utf-8-sig")
    except UnreadableFile as error:
        if error.missing:
            raise RecordError(f"no game record at {where}") from None
        raise RecordError(str(error)) from None
    return parse_record(text, source=where)


def parse_record(text: str, source: str = "record") -> GameRecord:
    """The record `text` holds (RecordError naming the line, and the move, if it is not
    one); `source` names it in messages (a file's path)."""
    # lines end at \n, \r\n or \r only, as an editor counts them
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
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
        name = KNOWN.get(found[1].lower(), found[1])
        value = re.sub(r"\\(.)", r"\1", found[2])
        if name in headers:
            raise RecordError(f"{source} line {index + 1}: header {name} given twice")
        headers[name] = (value, index + 1)
    else:
        index = len(lines)

    def header_error(name: str, problem: str) -> RecordError:
        return RecordError(f"{source} line {headers[name][1]}: {name} {problem}")

    if "Game" not in headers:
        raise RecordError(f'{source} line 1: no [Game "..."] header naming the game '
                          '(the headers come first, one a line)')
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
    outcome = record.final.outcome()
    if token is not None and token != record.result:
        if line is None:
            record.result = token
        else:
            raise RecordError(f"{source} line {token_line}: the moves end in {token} "
                              f"but the Result header says {record.result}")
    elif token is None and line is None and outcome is not None:
        record.result = RESULTS[outcome.winner]  # no result given: the game's own
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
            while end < len(text) and text[end] not in "{};\n" and (
                    not text[end].isspace()  # "c3x(c2, b3)" is one move
                    or depth and text[at:end].rstrip().endswith(",")):
                if text[end] == "(":
                    if end == at or text[end - 1] not in "xX":
                        break  # "3(": a variation; "c3x(c2,b3)": a capture list
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
    node, ended = tree.root, None
    stack: list[tuple[GameNode, int]] = []  # per open variation: where it returns, its line
    last_line = first + 1
    fresh, pending = False, ""  # just after "(", and a comment read there: it goes
    # with the variation's first move
    nesting = {id(tree.root): 0}  # per node read, how deep in variations it was read
    for kind, text, line in tokens(lines, first, source):
        last_line = line
        if ended is not None:
            raise RecordError(f"{source} line {line}: {text!r} comes after the result "
                              f"{ended[0]} that ends the moves")
        if kind == "result":
            if stack:
                raise RecordError(f"{source} line {line}: the moves end ({text}) inside "
                                  f"the variation opened on line {stack[-1][1]}, "
                                  "never closed with )")
            ended = text, line
            continue
        if kind == "comment":
            if fresh:
                pending = joined(pending, text)
            else:
                node.comment = joined(node.comment, text)
        elif kind == "open":
            if node.parent is None:
                raise RecordError(f"{source} line {line}: a variation ( must follow the "
                                  "move it replaces")
            stack.append((node, line))
            node, fresh = node.parent, True
        elif kind == "close":
            if not stack:
                raise RecordError(f"{source} line {line}: a ) closes no variation")
            node, fresh = stack.pop()[0], False
            if pending:  # a variation with a comment and no move: the comment stays
                node.comment, pending = joined(node.comment, pending), ""
        elif kind == "move":
            try:
                move = game.parse_move(text, node.state)
                before, node = node.children[:1], node.add(move)
            except IllegalMove as error:
                raise RecordError(f"{source} line {line}: move {text!r} (after "
                                  f"{moves_before(game, node)}) is not legal: "
                                  f"{error}") from None
            except PlygroundError as error:
                raise RecordError(f"{source} line {line}: move {text!r} (after "
                                  f"{moves_before(game, node)}) is not a move: "
                                  f"{error}") from None
            nesting.setdefault(id(node), len(stack))
            if before and nesting[id(before[0])] > len(stack):
                node.promote()  # "4 (4 3) 5": a variation went on first; 5 is main
            if pending:
                node.comment, pending = joined(pending, node.comment), ""
            fresh = False
    if stack:
        raise RecordError(f"{source} line {stack[-1][1]}: a variation opened with ( is "
                          "never closed")
    return ended or (None, last_line)


def joined(comment: str, text: str) -> str:
    """Two comments as one, each run of white space one space."""
    return " ".join(f"{comment} {text}".split())


def moves_before(game: Game, node: GameNode) -> str:
    return game.format_line(node.moves()) or "the start"
