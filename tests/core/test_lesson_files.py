"""A lesson reads no file outside its folder: every setting of its agents that names a
file (ga's `profile`, az's `net`, any FileSetting), in its sides, its search steps and
its train steps' opponent, and its `otherwise`, obeys the rule its `record` does
(relative to the lesson's folder, inside it: no absolute path, no `..`, no symbolic
link that leads out), and is checked before the file is read. A fault is one line."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from plyground.core.ga.profile import DEFAULT_PROFILE
from plyground.core.study.lesson import check_lesson

OUT = "a lesson's profile is a file in the lesson's folder or below it"


@pytest.fixture
def folders(tmp_path):
    """(the lesson's folder, a valid profile and a lesson file beside that folder,
    outside it)."""
    lesson = tmp_path / "lesson"
    lesson.mkdir()
    (tmp_path / "x.json").write_text(DEFAULT_PROFILE.read_text())
    (tmp_path / "other.toml").write_text('title = "o"\n[[scene]]\ngame = "connect4"\n')
    (lesson / "out.json").symlink_to(tmp_path / "x.json")
    return lesson, tmp_path


def lesson(folder: Path, scene: str, top: str = "") -> Path:
    path = folder / "lesson.toml"
    path.write_text(f'{top}title = "t"\n[[scene]]\ngame = "connect4"\n{scene}')
    return path


def problems(path: Path) -> list[str]:
    _, faults = check_lesson(path)
    return [fault.problem for fault in faults]


@pytest.mark.parametrize("scene", [
    'sides = ["ga:profile=../x.json", "human"]\n',
    'sides = ["human", "ga:profile={outside}"]\n',
    '[[scene.step]]\nsearch = "ga:profile=../x.json"\n',
    '[[scene.step]]\ntrain = {{seconds = 1, against = "ga:profile=../x.json"}}\n'])
def test_a_profile_outside_the_lessons_folder_is_a_fault(folders, scene):
    folder, outside = folders
    found = problems(lesson(folder, scene.format(outside=outside / "x.json")))
    assert len(found) == 1 and "profile" in found[0] and \
        "no absolute path, no .." in found[0], found


def test_a_profile_link_that_leads_out_is_a_fault_and_one_inside_is_read(folders):
    folder, _ = folders
    found = problems(lesson(folder, 'sides = ["ga:profile=out.json", "human"]\n'))
    assert found == ["sides: profile out.json: a symbolic link that leads out of the "
                     "lesson's folder"]
    (folder / "mine.json").write_text(DEFAULT_PROFILE.read_text())
    assert problems(lesson(folder, 'sides = ["ga:profile=mine.json", "human"]\n')) == []


@pytest.mark.parametrize("other",
                         ["../other.toml", "{outside}/other.toml", "/etc/passwd"])
def test_otherwise_outside_the_lessons_folder_is_a_fault(folders, other):
    folder, outside = folders
    name = other.format(outside=outside)
    found = problems(lesson(folder, "", f'otherwise = "{name}"\n'))
    assert len(found) == 1 and "a lesson's otherwise is a file in the lesson's folder" \
        in found[0], found
    (folder / "other.toml").write_text('title = "o"\n[[scene]]\ngame = "connect4"\n')
    assert problems(lesson(folder, "", 'otherwise = "other.toml"\n')) == []
    assert problems(lesson(folder, "", 'otherwise = "gone.toml"\n')) == [
        "otherwise names 'gone.toml', which is not a lesson file beside this one"]


def test_lesson_check_says_it_in_one_line(folders):
    folder, _ = folders
    path = lesson(folder, 'sides = ["ga:profile=../x.json", "human"]\n')
    result = subprocess.run([sys.executable, "-m", "plyground", "lesson", "check",
                             str(path)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"{path}:4: scene 1: sides: profile ../x.json: {OUT}, named relative to it "
        "(no absolute path, no ..)"]
