"""Writing the report of a graded class of 40 (core/grade/report.py).

A synthetic Connect 4 class: each student has 10 legal games, 20 strength games, a
round-robin ladder (78 games, each shared with its opponent), 20 labelled positions
and 5 node counts. Printed: the files and bytes written, the time to write the
report into an empty folder, and again over itself (every file already as it should
be, as after a resumed run).
"""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from plyground.core.grade.evidence import (CheckResult, ClassGrades, GameEvidence,
                                           LadderPlace, SearchEvidence, StudentGrade)
from plyground.core.grade.report import write_report
from plyground.tui.cli.grade_run import draw_board

STUDENTS = 40
WON, LOST = "1 1 2 2 3 3 4", "4 4 4 5 5 5 6 6 6 7"  # the first side wins either way
CHECKS = [("legal", "legal", 10.0), ("best", "positions", 5.0), ("count", "nodes", 4.0),
          ("ladder", "ladder", 2.0), ("strength", "strength", 3.0)]


def games(opponent: str, count: int) -> list[GameEvidence]:
    return [GameEvidence(opponent, number, number % 2 == 0, WON, "",
                         "win" if number % 2 == 0 else "loss", "X wins: four in a row")
            for number in range(count)]


def student(index: int, names: list[str]) -> StudentGrade:
    name = names[index]
    ladder = [GameEvidence(other, 1, first, WON if (index < rival) == first else LOST,
                           "", "win" if first else "loss", "X wins: four in a row")
              for rival, other in enumerate(names) if other != name
              for first in (True, False)]
    positions = [SearchEvidence("4453", "1", ["3"], passed=n % 3 == 0) for n in range(20)]
    counts = [SearchEvidence("44", "4", nodes=10, expected_nodes=12) for _ in range(5)]
    place = LadderPlace(index + 1, 10.0 * index, -5.0, 25.0, 78, 39.0, "rated", "")
    return StudentGrade(name, f"submissions/{name}/bot.py:Bot", None, [
        CheckResult("legal", "legal", 10, 10, "", games=games("random", 10)),
        CheckResult("best", "positions", 3, 5, "", searches=positions),
        CheckResult("count", "nodes", 2, 4, "", searches=counts),
        CheckResult("ladder", "ladder", 2, 2, "", games=ladder, ladder=place),
        CheckResult("strength", "strength", 1, 3, "", games=games("greedy", 20),
                    verdict="H1")])


def main() -> None:
    names = [f"student-{index:02d}" for index in range(STUDENTS)]
    grades = ClassGrades("bench", "connect4", "bench.toml", CHECKS,
                         [student(index, names) for index in range(STUDENTS)])
    print(f"The report of a graded class of {STUDENTS} (write_report)")
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        written = write_report(grades, Path(folder), draw_board)
        first = time.perf_counter() - started
        started = time.perf_counter()
        write_report(grades, Path(folder), draw_board)
        again = time.perf_counter() - started
        size = sum(path.stat().st_size for path in written)
    print(f"  {len(written)} files, {size / 1e6:.1f} MB: {first:.2f} s into an empty "
          f"folder, {again:.2f} s again over itself")


if __name__ == "__main__":
    main()
