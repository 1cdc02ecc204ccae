"""Lesson files (core/study/lesson.py): the shipped lessons play through without a fault;
every kind of fault is named with its file, line and scene; steps land where they say."""
from __future__ import annotations

from pathlib import Path

import pytest

from plyground.core import get_game
from plyground.core.catalogue import parse_agent
from plyground.core.study.lesson import (LessonError, check_lesson, compile_lesson,
                                         load_lesson, read_lesson)
from plyground.core.study.lessons import FOLDER, lesson_file, shipped
from plyground.core.play.match import Match
from plyground.core.records.record import record_of, save_record
from plyground.core.search.events import NodeEntered, NodeLeft, Recorder
from plyground.core.search.replay import MctsReplay, TreeReplay, replay_for

SHIPPED = sorted(FOLDER.glob("*.toml"))


@pytest.mark.parametrize("path", SHIPPED, ids=[path.stem for path in SHIPPED])
def test_every_shipped_lesson_plays_through_without_a_fault(path):
    slides, faults = check_lesson(path)
    assert faults == []
    lesson, _ = read_lesson(path)
    assert len(slides) == sum(1 + len(scene.steps) for scene in lesson.scenes)
    assert any(slide.search is not None and slide.search.index is not None
               for slide in slides), "a lesson steps through a search"


def test_the_shipped_lessons_are_four_and_the_minimax_one_fits_the_machine(
        monkeypatch):
    lessons = shipped()
    assert sorted(lessons) == ["alphazero", "deepening", "mcts", "minimax"]
    assert lesson_file("minimax") == lessons["minimax"] == FOLDER / "minimax.toml"
    [game] = {scene.game.id for scene in read_lesson(lessons["minimax"])[0].scenes}
    # without that game's package, its `otherwise`: the same lesson on Connect 4
    from plyground.core.study import lessons as module

    installed = [entry for entry in module.game_entries() if entry.id != game]
    monkeypatch.setattr(module, "game_entries", lambda: installed)
    instead = shipped()["minimax"]
    assert instead == FOLDER / "minimax-connect4.toml"
    assert {scene.game.id for scene in read_lesson(instead)[0].scenes} == {"connect4"}
    assert read_lesson(instead)[0].title == read_lesson(lessons["minimax"])[0].title


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "lesson.toml"
    path.write_text(text)
    return path


def line_of(text: str, fragment: str) -> int:
    """The 1-based line of the one line holding `fragment`."""
    [number] = [n for n, line in enumerate(text.splitlines(), 1) if fragment in line]
    return number


GOOD_SCENE = '''
[[scene]]
title = "fine"
game = "connect4"
position = "4453"
'''

FAULTY = '''title = "Faults"

[[scene]]
game = "chess"

[[scene]]
game = "connect4"
position = "44444444"

[[scene]]
game = "connect4"
sides = ["human", "wizard"]

[[scene]]
game = "connect4"
colour = "red"

[[scene]]
game = "connect4"

[[scene.step]]
play = ["4", "8"]

[[scene.step]]
caption = "never reached: the move before failed"
play = "4"

[[scene]]
game = "connect4"
position = "4453"

[[scene.step]]
show = 3

[[scene.step]]
search = "alphabeta:time=1"

[[scene.step]]
search = "minimax:depth=2"

[[scene.step]]
show = 100000

[[scene.step]]
show = "next expansion"

[[scene.step]]
show = "next cutoff"

[[scene.step]]
show = "sideways"

[[scene.step]]
search = true

[[scene.step]]
play = "5"
search = true

[[scene.step]]
caption = "never read: the moves before it did not read"
''' + GOOD_SCENE


def test_every_fault_is_named_with_its_line_and_scene(tmp_path):
    path = write(tmp_path, FAULTY)
    slides, faults = check_lesson(path)
    found = {(fault.line, fault.scene): fault.problem for fault in faults}
    expected = {
        (line_of(FAULTY, '"chess"'), 1): "unknown game 'chess'",
        (line_of(FAULTY, '"44444444"'), 2): "position: bad position",
        (line_of(FAULTY, '"wizard"'), 3): "unknown agent 'wizard'",
        (line_of(FAULTY, "colour"), 4): "unknown key 'colour'",
        (line_of(FAULTY, '["4", "8"]') - 1, 5): "play: ",
        (line_of(FAULTY, "show = 3") - 1, 6): "there is no search to show",
        (line_of(FAULTY, "time=1") - 1, 6): "not by the clock",
        (line_of(FAULTY, "100000") - 1, 6): "event 100000: the search has",
        (line_of(FAULTY, "next expansion") - 1, 6): "is for MCTS searches",
        (line_of(FAULTY, 'play = "5"') - 1, 6): "a step does one thing",
        (line_of(FAULTY, "sideways") - 1, 6): "show 'sideways'",
    }
    for (line, scene), problem in expected.items():
        assert problem in found.get((line, scene), ""), (line, scene, problem, faults)
    # minimax makes no cut-off; the last step's side to move is a human
    assert any("no cut-off" in problem for problem in found.values())
    assert any("played by a human" in problem for problem in found.values())
    assert not any("never" in str(fault) for fault in faults)
    assert all(str(fault).startswith(f"{path}:") for fault in faults)
    # the good scene still plays: one slide, its opening
    assert [slide.scene.title for slide in slides if slide.scene.title] == ["fine"]
    with pytest.raises(LessonError, match="lesson check"):
        load_lesson(path)


@pytest.mark.parametrize("text, problem", [
    ('title = "x"\n[[scene]\ngame = "connect4"\n', "not TOML"),
    (GOOD_SCENE, "needs a title"),
    ('title = "x"\n', "no scenes"),
    ('title = "x"\nauthor = "me"\n' + GOOD_SCENE, "unknown key 'author'"),
    ('title = "x"\notherwise = "gone.toml"\n' + GOOD_SCENE, "not a lesson file"),
])
def test_a_file_that_is_not_a_lesson_says_why(tmp_path, text, problem):
    _, faults = check_lesson(write(tmp_path, text))
    assert any(problem in fault.problem for fault in faults), faults


def test_a_missing_or_binary_file_is_a_fault_not_a_crash(tmp_path):
    _, faults = check_lesson(tmp_path / "none.toml")
    assert [fault.problem for fault in faults] == ["cannot read it: No such file or directory"]
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    assert "not UTF-8" in check_lesson(binary)[1][0].problem


SEARCHED = '''title = "Steps"

[[scene]]
game = "connect4"
position = "4453"
sides = ["alphabeta:depth=4", "human"]

[[scene.step]]
search = true

[[scene.step]]
show = 5

[[scene.step]]
show = "next cutoff"

[[scene.step]]
show = "next iteration"

[[scene.step]]
show = "end"

[[scene.step]]
play = ["4", "4"]

[[scene.step]]
highlight = ["3", "5"]

[[scene]]
game = "cephalopod:rows=3,cols=3"
sides = ["human", "mcts:iterations=40,seed=7"]

[[scene.step]]
play = "b2"

[[scene.step]]
search = true

[[scene.step]]
show = "next playout"

[[scene.step]]
show = "next phase"
'''


def test_steps_land_where_they_say(tmp_path):
    slides = load_lesson(write(tmp_path, SEARCHED))[1]
    searched, at5, cut, iteration, end, played, marked = slides[1:8]
    game = get_game("connect4")
    # the search is the agent's own, recorded as the app's step mode records it
    recorder = Recorder(trace=True)
    agent = parse_agent("alphabeta:depth=4")
    done = agent.decide(game.parse_position("4453"), agent.budget(), observer=recorder)
    replay = replay_for(recorder.events)
    assert isinstance(searched.search.replay, TreeReplay)
    assert searched.search.done.best_move == done.best_move
    assert len(searched.search.replay) == len(replay) and searched.search.index is None
    assert at5.search.index == 4  # event 5, as step mode numbers them from 1
    events = replay.events
    first_cut = next(i for i, e in enumerate(events) if isinstance(e, NodeLeft) and e.cutoff)
    assert cut.search.index == first_cut
    following = next(i for i in replay.starts if i > first_cut)
    assert iteration.search.index == following
    assert isinstance(events[following], NodeEntered) and events[following].path == ()
    assert end.search.index == len(replay) - 1
    # moves: the position, and the one before the last move, for the board's mark
    assert played.state == game.parse_position("445344")
    assert played.before == game.parse_position("44534")
    assert played.search is None and marked.highlight == (2, 4)
    assert marked.state == played.state
    playout, phase = slides[-2:]
    assert isinstance(playout.search.replay, MctsReplay)
    assert playout.search.replay.frame(playout.search.index).phase == "playout"
    assert phase.search.index == playout.search.index + 1


def test_a_lesson_gives_the_same_slides_every_time(tmp_path):
    path = write(tmp_path, SEARCHED)

    def summary(slides):
        return [(slide.state, slide.caption, slide.highlight,
                 slide.search and (slide.search.done.best_move, slide.search.done.value,
                                   slide.search.done.work, slide.search.index,
                                   len(slide.search.replay)))
                for slide in slides]

    assert summary(load_lesson(path)[1]) == summary(load_lesson(path)[1])


def test_a_scene_opens_a_saved_game_record_at_its_last_position(tmp_path):
    game = get_game("connect4")
    match = Match(game, ("human", "greedy:seed=1"))
    for move in (3, 3, 2):
        match.play(move)
    save_record(tmp_path / "game.txt", record_of(match))
    path = write(tmp_path, 'title = "x"\n[[scene]]\nrecord = "game.txt"\n'
                           '[[scene.step]]\nplay = "5"\n')
    slides = load_lesson(path)[1]
    assert slides[0].state == game.parse_position("443")
    assert slides[0].scene.sides == ("human", "greedy:seed=1")
    assert slides[1].state == game.parse_position("4435")
    (tmp_path / "game.txt").write_text("not a record")
    _, faults = check_lesson(path)
    assert faults and faults[0].scene == 1 and faults[0].line == 3
