"""The report of a graded class, written into one folder: `report.html` (the class
overview), a page a student (`students/NAME.html`), each game's record
(`games/ID.txt`, for `plyground play GAME --load`), `grades.csv` and `grades.json`.

The same grades give the same bytes (no date, no random id), so that a report can be
compared, kept under version control, or written again after a resumed run without
a change. Every file is written atomically; one that already holds the same bytes is
left as it is. Names, faults, reasons, records and agents' names come from the
students' submissions and are treated as untrusted text (report_html.py).
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from pathlib import Path

from ..errors import PlygroundError, shown
from ..game import Game, parse_game
from ..paths import write_atomically
from ..records.record import GameRecord, format_record, parse_record, quote
from .evidence import ClassGrades, GameEvidence, StudentGrade, to_json
from .report_boards import Draw
from .report_html import GameFile, overview_page, student_page

# a student's page keeps the folder's name when it is one of these (and not . or ..)
PLAIN_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}")
# a spreadsheet reads a cell that starts with one of these as a formula
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
RESULTS = {("win", True): "1-0", ("loss", False): "1-0", ("loss", True): "0-1",
           ("win", False): "0-1", ("draw", True): "1/2-1/2", ("draw", False): "1/2-1/2"}


def write_report(grades: ClassGrades, out: Path, draw: Draw | None = None) -> list[Path]:
    """Write the report of `grades` into the folder `out` (made if missing); the
    paths of its files, each written or already as it should be. `draw` draws a
    position's board (report_boards; else the position is shown as text)."""
    out = Path(out)
    game = report_game(grades.game)
    try:
        out.mkdir(parents=True, exist_ok=True)
        written = [put(out / "grades.json", json.dumps(
                       to_json(grades), indent=1, allow_nan=False) + "\n"),
                   put(out / "grades.csv", grades_csv(grades))]
        pages = page_names(grades.students)
        for student in grades.students:
            games = [game_file(grades, game, check.check, evidence, student.student)
                     for check in student.checks for evidence in check.games]
            for file in games:
                if file.path is not None and file.text is not None:
                    written.append(put(out / file.path, file.text))
            written.append(put(out / "students" / pages[student.student],
                               student_page(grades, student, game, games, draw)))
        written.append(put(out / "report.html", overview_page(grades, pages)))
    except OSError as error:
        raise PlygroundError(f"cannot write the report in {shown(str(out))}: "
                             f"{error.strerror or error}") from None
    return list(dict.fromkeys(written))  # a ladder game two students share: once


def put(path: Path, text: str) -> Path:
    """Write `text` to `path` atomically, unless the file already holds it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    if not path.is_symlink() and path.is_file():
        try:
            if path.read_bytes() == data:
                return path
        except OSError:
            pass  # written anew below, which says what is wrong if it fails too
    write_atomically(path, data)
    return path


def report_game(spec: str) -> Game | None:
    """The game the class played, or None where it cannot be had here (a plugin's
    game no longer installed): the report then shows positions as text."""
    try:
        return parse_game(spec)
    except PlygroundError:
        return None


def page_names(students: list[StudentGrade]) -> dict[str, str]:
    """Each student's page's file name: the folder's name where it is plain, else
    its plain characters and a digest of the whole name; never two alike, not even
    on a file system that ignores case."""
    names: dict[str, str] = {}
    taken: set[str] = set()
    for student in students:
        if student.student in names:
            continue
        name = student.student
        if not PLAIN_NAME.fullmatch(name) or name in (".", ".."):
            plain = re.sub(r"[^A-Za-z0-9_-]+", "_", name)[:40].strip("_") or "student"
            name = f"{plain}-{digest(student.student)[:10]}"
        stem, number = name, 1
        while name.lower() in taken:
            number += 1
            name = f"{stem}-{number}"
        taken.add(name.lower())
        names[student.student] = name + ".html"
    return names


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def grades_csv(grades: ClassGrades) -> str:
    """A row a student: the folder's name, each check's points, the total. A text
    cell that a spreadsheet would take for a formula gets a leading apostrophe."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student", *(cell(name) for name, _, _ in grades.checks), "total"])
    for student in grades.students:
        writer.writerow([cell(student.student),
                         *(points_of(student, name) for name, _, _ in grades.checks),
                         f"{student.total:g}"])
    return buffer.getvalue()


def cell(text: str) -> str:
    return "'" + text if text.startswith(FORMULA_START) else text


def points_of(student: StudentGrade, check: str) -> str:
    """A check's points (a check the student has no result for scored nothing)."""
    result = student.check(check)
    return f"{result.points if result else 0:g}"


def game_file(grades: ClassGrades, game: Game | None, check: str, evidence: GameEvidence,
              student: str) -> GameFile:
    """The record file of one game: its text, named by its digest (a ladder game two
    students played is one file), or why there is none. Both sides are written as
    `human`, the agents' names in headers of their own, so that replaying it runs
    no one's code."""
    if game is None:
        return GameFile(None, None, "the game is not installed here")
    first, second = ((student, evidence.opponent) if evidence.student_first
                     else (evidence.opponent, student))
    record, problem = read_game(grades.game, evidence, check, first, second)
    if record is None:
        return GameFile(None, None, problem)
    text = format_record(record)
    return GameFile(f"games/{digest(text)[:16]}.txt", text, None, record.game.spec)


def read_game(spec: str, evidence: GameEvidence, check: str, first: str,
              second: str) -> tuple[GameRecord | None, str]:
    """The evidence's record read as a game (with its result, where the final
    position agrees), or None and why it cannot be."""
    moves, problem = evidence.record, ""
    if not moves.lstrip().startswith("["):  # a line as the game writes one: a move a word
        try:
            game = parse_game(spec)
            moves = " ".join(game.format_move(move) for move in
                             game.parse_line(game.start(), moves))
        except PlygroundError:
            pass  # read as a record below, which says which move is wrong
    for result in (RESULTS.get((evidence.result, evidence.student_first)), None):
        headers = [f"[Game {quote(spec)}]"]
        if result:
            headers.append(f"[Result {quote(result)}]")
        headers += [f"[Reason {quote(evidence.reason)}]", f"[Check {quote(check)}]",
                    f"[FirstPlayer {quote(first)}]", f"[SecondPlayer {quote(second)}]"]
        text = moves if moves.lstrip().startswith("[") else \
            "\n".join(headers) + "\n\n" + moves + "\n"
        try:
            record = parse_record(text, source="record")
        except PlygroundError as error:  # the line is the record's made here: left out
            problem = "its moves are not a game: " + re.sub(r"^record line \d+: ", "",
                                                            str(error))
            continue
        record.players, record.seed, record.date = ("human", "human"), None, ""
        return record, ""
    return None, problem
