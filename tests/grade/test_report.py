"""The report of a graded class (core/grade/report.py): report.html and a page a
student, grades.csv, grades.json, and each game's record for `plyground play --load`.

The grades are made by hand here: a student with every kind of evidence (a missed
Connect 4 position, node counts, a ladder place at +inf, an SPRT verdict), one whose
game ended in a crash, one whose agent never started and whose name and fault carry
HTML and an escape character, one whose name a spreadsheet would read as a formula.
"""
from __future__ import annotations

import csv
import html
import json
import math
import re
import shlex
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from plyground.core.grade.evidence import (CheckResult, ClassGrades, GameEvidence,
                                           LadderPlace, SearchEvidence, StudentGrade)
from plyground.core.grade.report import write_report
from plyground.core.records.record import load_record
from plyground.tui.cli.grade_run import draw_board
from tests.tui.test_browser import browser  # noqa: F401 (Chromium and its driver)

EVIL = "<script>alert(1)</script>"
CHECKS = [("legal", "legal", 10.0), ("best", "positions", 5.0), ("count", "nodes", 4.0),
          ("ladder", "ladder", 2.0), ("beats-greedy", "strength", 3.0)]


def anna() -> StudentGrade:
    win = GameEvidence("random", 1, True, "1 1 2 2 3 3 4", "", "win",
                       "X wins: four in a row")
    slow = GameEvidence("greedy", 1, False, "4 4 3", "4", "loss",
                             "O forfeits: ran past its clock", fault="ran past its clock")
    searches = [SearchEvidence("4453", "1", ["3", "6"], passed=False),
                SearchEvidence("44", "4", ["4"], passed=True),
                SearchEvidence("", "4", ["4"], passed=True)]
    nodes = [SearchEvidence("", "4", nodes=400, expected_nodes=400, passed=True),
             SearchEvidence("4453", "3", nodes=12, expected_nodes=57, passed=False)]
    above = "+∞ (won every game against the rated players, 95%: at least +212)"
    place = LadderPlace(1, math.inf, 212.0, math.inf, 6, 6.0, "above", above)
    return StudentGrade("anna", "submissions/anna/bot.py:Bot", None, [
        CheckResult("legal", "legal", 10, 10, "2 of 2 games legal", games=[win]),
        CheckResult("best", "positions", 3.5, 5, "2 of 3 positions", searches=searches),
        CheckResult("count", "nodes", 2, 4, "1 of 2 counts right", searches=nodes),
        CheckResult("ladder", "ladder", 2, 2, "rank 1", ladder=place),
        CheckResult("beats-greedy", "strength", 1.5, 3, "H1 against greedy",
                    games=[slow], verdict="H1")])


def bob() -> StudentGrade:
    crash = GameEvidence("greedy", 2, False, "4 5 4", "", "loss",
                         "O forfeits: its agent crashed",
                         fault="crashed: ZeroDivisionError: division by zero")
    place = LadderPlace(2, -35.5, -120.0, 49.0, 6, 2.5, "rated", "-36 (95%: -120 to +49)")
    return StudentGrade("bob", "submissions/bob/bot.py:Bot", None, [
        CheckResult("legal", "legal", 0, 10, "a crash", games=[crash]),
        CheckResult("best", "positions", 5, 5, "3 of 3 positions"),
        CheckResult("count", "nodes", 4, 4, "2 of 2"),
        CheckResult("ladder", "ladder", 1, 2, "rank 2", ladder=place),
        CheckResult("beats-greedy", "strength", 0, 3, "H0 against greedy",
                    verdict="H0")])


def class_grades() -> ClassGrades:
    never = StudentGrade(EVIL, "", "crashed at import: \x1b[31mboom\x1b[0m <blink>",
                         [CheckResult(name, kind, 0, points, "did not start")
                          for name, kind, points in CHECKS])
    formula = StudentGrade("=1+2", "submissions/=1+2/bot.py:Bot", None, [
        CheckResult("legal", "legal", 7, 10, "ok"),
        CheckResult("best", "positions", 1, 5, "1 of 5 positions")])
    return ClassGrades("Minimax to depth 3", "connect4", "examples/class/minimax.toml",
                       CHECKS, [anna(), bob(), never, formula],
                       command="plyground grade run minimax.toml submissions --out DIR")


@pytest.fixture
def report(tmp_path) -> tuple[Path, list[Path]]:
    out = tmp_path / "report"
    return out, write_report(class_grades(), out, draw_board)


def test_grades_csv_has_a_row_a_student_and_no_formula(report):
    out, written = report
    assert out / "grades.csv" in written
    rows = list(csv.reader((out / "grades.csv").open(newline="", encoding="utf-8")))
    assert rows == [
        ["student", "legal", "best", "count", "ladder", "beats-greedy", "total"],
        ["anna", "10", "3.5", "2", "2", "1.5", "19"],
        ["bob", "0", "5", "4", "1", "0", "10"],
        [EVIL, "0", "0", "0", "0", "0", "0"],
        ["'=1+2", "7", "1", "0", "0", "0", "8"]]


def test_grades_json_has_the_issues_shape_and_inf_as_text(report):
    out, _ = report
    grades = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    assert [student["student"] for student in grades["students"]] == \
        ["anna", "bob", EVIL, "=1+2"]
    assert grades["students"][0] == {"student": "anna", "total": 19.0, "checks": {
        "legal": 10, "best": 3.5, "count": 2, "ladder": 2, "beats-greedy": 1.5}}
    ladder = grades["evidence"][0]["checks"][3]["ladder"]
    assert (ladder["elo"], ladder["high"], ladder["low"]) == ("inf", "inf", 212.0)
    assert "Infinity" not in (out / "grades.json").read_text(encoding="utf-8")


def test_no_name_or_fault_reaches_html_raw(report):
    out, written = report
    pages = [path for path in written if path.suffix == ".html"]
    assert len(pages) == 5  # the overview and four students
    for path in pages:
        data = path.read_bytes()
        assert b"\x1b" not in data, path
        assert b"<script>alert" not in data, path
        assert b"<blink>" not in data, path
    overview = (out / "report.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in overview
    assert "did not start: crashed at import: \\x1b[31mboom" in overview
    # the page of the name with markup in it has a plain file name, in students/
    assert all(path.parent in (out, out / "students") for path in pages)
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+\.html", path.name) for path in pages)


def test_writing_twice_gives_the_same_bytes(tmp_path):
    first = write_report(class_grades(), tmp_path / "one", draw_board)
    second = write_report(class_grades(), tmp_path / "two", draw_board)
    assert [path.relative_to(tmp_path / "one") for path in first] == \
        [path.relative_to(tmp_path / "two") for path in second]
    for a, b in zip(first, second):
        assert a.read_bytes() == b.read_bytes(), a
    again = write_report(class_grades(), tmp_path / "one", draw_board)  # over itself: unchanged
    assert again == first


def test_each_game_replays_with_the_command_shown(report):
    out, written = report
    page = (out / "students" / "bob.html").read_text(encoding="utf-8")
    commands = re.findall(r'<code class="replay">(.*?)</code>', page)
    assert len(commands) == 1
    words = shlex.split(html.unescape(commands[0]))
    assert words[:3] == ["plyground", "play", "connect4"] and words[3] == "--load"
    record = load_record(out / words[4])  # as `plyground play --load` reads it
    assert record.players == ("human", "human")  # replaying runs no one's code
    assert record.result == "1-0" and "crashed" in record.reason
    assert record.headers["FirstPlayer"] == "greedy"
    assert record.headers["SecondPlayer"] == "bob"
    assert out / words[4] in written
    anna_page = (out / "students" / "anna.html").read_text(encoding="utf-8")
    assert anna_page.count('<code class="replay">') == 2


def test_student_page_draws_the_missed_position_and_node_counts(report):
    out, _ = report
    page = (out / "students" / "anna.html").read_text(encoding="utf-8")
    boards = re.findall(r'<pre class="board">(.*?)</pre>', page, re.S)
    assert len(boards) == 1  # only the missed position is drawn
    drawn = re.sub(r"<[^>]+>", "", boards[0])
    assert drawn.splitlines()[-2:] == [" ·  · [O] X  X  ·  · ", " 1  2  3  4  5  6  7 "]
    assert "played <b>1</b>; best <b>3, 6</b>" in page
    assert re.search(r'<td class="n">12</td><td class="n">57</td><td class="fail">', page)
    assert "+∞ (won every game against the rated players, 95%: at least +212)" in page
    assert "SPRT verdict: <b>H1</b>" in page


def test_page_names_are_plain_and_never_two_alike():
    from plyground.core.grade.report import page_names

    names = page_names([StudentGrade(name, "", None) for name in
                        ("anna", "Anna", "..", "a/b", "x\x1by", "-rf", ".hidden")])
    assert names["anna"] == "anna.html" and names["-rf"] == "-rf.html"
    assert len({name.lower() for name in names.values()}) == 7
    assert all(re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9._-]*\.html", name)
               for name in names.values())


def test_a_record_that_is_not_a_game_is_shown_without_a_replay(tmp_path):
    grades = class_grades()
    grades.students[1].checks[0].games[0].record = "4 4 9"  # no column 9
    write_report(grades, tmp_path)
    page = (tmp_path / "students" / "bob.html").read_text(encoding="utf-8")
    assert '<code class="replay">' not in page
    assert ("no replay: its moves are not a game: move &#x27;9&#x27; (after 44) is not a "
            "move") in page


def test_a_report_folder_that_is_a_file_is_one_line(tmp_path):
    from plyground.core.errors import PlygroundError

    (tmp_path / "taken").write_text("")
    with pytest.raises(PlygroundError, match="cannot write the report in"):
        write_report(class_grades(), tmp_path / "taken")


# --- the report in a real browser --------------------------------------------------

WAIT_SECONDS = 90  # the most a page may take to show (a hang, not a pace)


def column(driver, index: int) -> list[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#grades tbody tr'))"
        f".map(row => row.cells[{index}].textContent)")


def sort_by(driver, index: int, order: str) -> None:
    head = driver.find_elements(By.CSS_SELECTOR, "#grades thead th")[index]
    head.find_element(By.TAG_NAME, "button").click()
    WebDriverWait(driver, WAIT_SECONDS).until(
        lambda _: head.get_attribute("aria-sort") == order)


def test_the_report_sorts_and_links_in_a_browser(report, browser):
    """Opened from file:// with no server: a click on a check's name sorts the rows
    by it, a second click reverses them, numbers sort as numbers; a student's name
    opens that student's page with the missed position drawn."""
    out, _ = report
    browser.set_page_load_timeout(WAIT_SECONDS)
    browser.get((out / "report.html").as_uri())
    WebDriverWait(browser, WAIT_SECONDS).until(
        lambda driver: driver.find_elements(By.CSS_SELECTOR, "#grades tbody tr"))
    assert column(browser, 0) == ["anna", "bob", EVIL, "=1+2"]
    sort_by(browser, 2, "ascending")  # best (positions)
    assert column(browser, 0) == [EVIL, "=1+2", "anna", "bob"]
    assert column(browser, 2) == ["0", "1", "3.5", "5"]
    sort_by(browser, 2, "descending")
    assert column(browser, 0) == ["bob", "anna", "=1+2", EVIL]
    sort_by(browser, 6, "ascending")  # the total: 8 before 10, as numbers
    assert column(browser, 6) == ["0", "8", "10", "19"]

    browser.find_element(By.LINK_TEXT, EVIL).click()
    WebDriverWait(browser, WAIT_SECONDS).until(
        lambda driver: driver.find_elements(By.TAG_NAME, "h1"))
    assert browser.find_element(By.TAG_NAME, "h1").text == f"{EVIL}: 0 of 24"
    browser.back()
    WebDriverWait(browser, WAIT_SECONDS).until(
        lambda driver: driver.find_elements(By.LINK_TEXT, "anna"))
    browser.find_element(By.LINK_TEXT, "anna").click()
    WebDriverWait(browser, WAIT_SECONDS).until(
        lambda driver: driver.find_elements(By.CSS_SELECTOR, "pre.board"))
    assert browser.current_url == (out / "students" / "anna.html").as_uri()
    board = browser.find_element(By.CSS_SELECTOR, "pre.board").text
    assert board.splitlines()[-2:] == [" ·  · [O] X  X  ·  · ", " 1  2  3  4  5  6  7 "]
