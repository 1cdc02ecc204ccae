"""Presentation mode (`plyground lesson run`): the presenter's keys move through the
slides wherever the focus is, and each slide shows its board, caption and search."""
from __future__ import annotations

from plyground.core.study.lesson import load_lesson
from plyground.core.study.lessons import shipped
from plyground.tui.app import create_app
from plyground.tui.screens.lesson import LessonScreen
from plyground.tui.widgets.inspector import Inspector
from plyground.tui.widgets.inspector.live_tree import LiveTree
from plyground.tui.widgets.inspector.step_view import StepView
from tests.tui.helpers import SIZE, SMALL


def lesson_app(name="minimax"):
    lesson, slides = load_lesson(shipped()[name])
    return create_app(lesson=(lesson, slides), animations=False), slides


def text_of(screen, selector) -> str:
    return str(screen.query_one(selector).render())


async def test_the_keys_move_through_the_slides_and_each_shows_its_own():
    app, slides = lesson_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LessonScreen)
        assert f"slide 1 of {len(slides)}" in text_of(screen, "#lesson-title")
        for key, index in [("space", 1), ("right", 2), ("enter", 3), ("left", 2),
                           ("backspace", 1), ("end", len(slides) - 1),
                           ("space", len(slides) - 1), ("home", 0), ("left", 0)]:
            await pilot.press(key)
            await pilot.pause()
            assert screen.index == index, key
            slide = slides[index]
            assert f"slide {index + 1} of {len(slides)}" in text_of(screen,
                                                                  "#lesson-title")
            assert screen.board.state == slide.state
            assert screen.query_one("#caption").content.markup == slide.caption


async def test_a_step_slide_shows_the_event_it_names_and_a_highlight_marks_cells():
    app, slides = lesson_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        marked = next(i for i, slide in enumerate(slides) if slide.highlight)
        screen.jump_to(marked)
        await pilot.pause()
        assert screen.board.heat == {move: 1.0 for move in slides[marked].highlight}
        assert screen.board.marked  # a mark, not a share of visits
        step = next(i for i, slide in enumerate(slides)
                    if slide.search is not None and slide.search.index is not None)
        screen.jump_to(step)
        await pilot.pause()
        view = screen.query_one(StepView)
        search = slides[step].search
        assert view.display and view.index == search.index
        assert f"event {search.index + 1} of {len(search.replay)}" in text_of(
            screen, "#step-text")
        summary = str(screen.query_one(Inspector).summary)
        assert f"{search.done.work:,} nodes" in summary and " s\n" not in summary


async def test_the_presenters_keys_work_after_a_click_in_the_inspector():
    app, slides = lesson_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        searched = next(i for i, slide in enumerate(slides) if slide.search is not None)
        screen.jump_to(searched)
        await pilot.pause()
        await pilot.click(LiveTree)
        await pilot.pause()
        assert isinstance(app.focused, LiveTree)
        await pilot.press("right")
        await pilot.pause()
        assert screen.index == searched + 1


async def test_a_small_terminal_gets_a_compact_board_and_keeps_the_inspector():
    app, slides = lesson_app("deepening")
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.jump_to(len(slides) - 1)
        await pilot.pause()
        assert not screen.board.large
        assert screen.query_one(Inspector).region.width >= 40
        assert screen.board.region.right <= screen.query_one(Inspector).region.x
