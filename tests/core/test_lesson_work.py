"""A lesson's whole work is bounded as it is read: past MOST_SEARCHES searches it is
refused in one fault, and the searches past the most are not run, even by a check."""
from __future__ import annotations

from plyground.core.study.lesson import check_lesson, read_lesson
from plyground.core.study.lesson_work import MOST_SEARCHES

STEP = '[[scene.step]]\nsearch = "alphabeta:depth=1"\n'


def lesson_with(tmp_path, searches: int):
    path = tmp_path / "many.toml"
    path.write_text('title = "many"\n[[scene]]\ngame = "connect4"\n' + STEP * searches)
    return path


def test_a_lesson_of_too_many_searches_is_refused_as_it_is_read_and_not_run(tmp_path):
    lesson, faults = read_lesson(lesson_with(tmp_path, MOST_SEARCHES + 5))
    assert [fault.problem for fault in faults] == [
        f"search: a lesson runs at most {MOST_SEARCHES} searches, and this one asks "
        f"for {MOST_SEARCHES + 5}"]
    assert faults[0].line == 4 + 2 * MOST_SEARCHES  # the first search too many
    assert len(lesson.scenes[0].steps) == MOST_SEARCHES  # the rest left out
    slides, _ = check_lesson(lesson_with(tmp_path, MOST_SEARCHES + 5))
    assert sum(slide.search is not None and slide.search.index is None
               for slide in slides) == MOST_SEARCHES
    lesson, faults = read_lesson(lesson_with(tmp_path, MOST_SEARCHES))  # the most: whole
    assert faults == [] and len(lesson.scenes[0].steps) == MOST_SEARCHES
