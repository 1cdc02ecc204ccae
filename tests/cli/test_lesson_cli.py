"""`plyground lesson`: list, check, run and export, and one error line for bad input."""
from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from plyground.core.study.lesson import load_lesson
from plyground.core.study.lessons import shipped
from plyground.tui import cli

SMALL = '''title = "Small"

[[scene]]
game = "cephalopod:rows=3,cols=3"
sides = ["human", "mcts:iterations=30,seed=3"]
caption = "Blue **searches**."

[[scene.step]]
play = "b2"

[[scene.step]]
search = true

[[scene.step]]
show = "next playout"

[[scene]]
game = "connect4"
position = "4453"

[[scene.step]]
search = "alphabeta:depth=3"

[[scene.step]]
show = "next cutoff"
caption = "A cut-off."
'''

BAD = '''title = "Bad"

[[scene]]
game = "connect4"

[[scene.step]]
play = "9"

[[scene]]
game = "quarto"
sides = ["human", "wizard"]
'''


def invoke(*args: str):
    return CliRunner().invoke(cli.app, list(args))


@pytest.fixture
def small(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL)
    return path


def one_error_line(*args: str) -> str:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    [line] = result.stderr.splitlines()[-1:]
    assert line.startswith("error: ")
    return line


def test_list_names_the_shipped_lessons():
    result = invoke("lesson", "list")
    assert result.exit_code == 0
    names = [line.split()[0] for line in result.stdout.splitlines()]
    assert names == list(shipped())


def test_check_passes_a_good_lesson_and_lists_every_fault_of_a_bad_one(tmp_path, small):
    result = invoke("lesson", "check", str(small))
    assert result.exit_code == 0 and "no faults (2 scenes, 7 slides)" in result.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD)
    result = invoke("lesson", "check", str(bad))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert [re.match(rf"{re.escape(str(bad))}:(\d+): scene (\d):", line).groups()
            for line in lines] == [("6", "1"), ("11", "2")]
    assert "'9'" in lines[0] and "unknown agent 'wizard'" in lines[1]
    assert "2 faults" in result.stderr


def test_a_shipped_lesson_is_checked_by_its_name():
    result = invoke("lesson", "check", "mcts")
    assert result.exit_code == 0, result.output
    assert str(shipped()["mcts"]) in result.stdout


def test_run_opens_the_app_on_the_lesson_and_refuses_a_faulty_one(tmp_path, small,
                                                                  monkeypatch):
    opened = []

    class FakeApp:
        def __init__(self, lesson):
            self.lesson = lesson

        def run(self):
            opened.append(self.lesson)

    monkeypatch.setattr("plyground.tui.app.create_app", lambda **kw: FakeApp(kw["lesson"]))
    assert invoke("lesson", "run", str(small)).exit_code == 0
    [(lesson, slides)] = opened
    assert lesson.title == "Small" and len(slides) == 7
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD)
    assert "(and 1 more: `plyground lesson check` lists them)" in one_error_line(
        "lesson", "run", str(bad))
    assert "no lesson file 'nosuch'" in one_error_line("lesson", "run", "nosuch")
    assert "No such file" in one_error_line("lesson", "run", str(tmp_path / "x.toml"))
    assert len(opened) == 1


def test_export_writes_the_same_slides_every_time(tmp_path, small):
    first, second = tmp_path / "first", tmp_path / "second"
    assert invoke("lesson", "export", str(small), "--svg", str(first)).exit_code == 0
    result = invoke("lesson", "export", str(small), "--svg", str(second), "--html",
                    "--size", "100x30")
    assert result.exit_code == 0, result.output
    names = [f"slide-{n}.svg" for n in range(1, 8)]
    assert sorted(path.name for path in first.iterdir()) == names
    assert sorted(path.name for path in second.iterdir()) == ["index.html", *names]
    again = tmp_path / "again"
    invoke("lesson", "export", str(small), "--svg", str(again))
    for name in names:
        assert (first / name).read_text() == (again / name).read_text()
    svg = (first / "slide-7.svg").read_text()
    assert "A&#160;cut-off." in svg and "Small" in svg
    page = (second / "index.html").read_text()
    assert page.count('<section class="slide"') == 7
    assert all((second / name).read_text() in page for name in names)
    assert "viewBox" in page and 'width="' in (second / "slide-1.svg").read_text()


def test_export_says_what_is_wrong_with_its_options(tmp_path, small):
    assert "export needs --svg DIR" in one_error_line("lesson", "export", str(small))
    assert "--size '80'" in one_error_line("lesson", "export", str(small), "--svg",
                                           str(tmp_path / "out"), "--size", "80")
    file = tmp_path / "file"
    file.write_text("")
    assert "it is a file" in one_error_line("lesson", "export", str(small), "--svg",
                                            str(file))
    assert not (tmp_path / "out").exists()


def test_the_slides_a_lesson_file_gives_are_what_check_counts(small):
    assert len(load_lesson(small)[1]) == 7
