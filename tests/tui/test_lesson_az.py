"""A lesson's train step on the lesson screen: the slide shows what the training will
do, t starts it in a process of its own while the screen stays live, and the screen
shows its progress (the generation under way, a line per generation with the games
against perfect play) and its end, at 160x50 and 80x24."""
from __future__ import annotations

import pytest

from plyground.core.study.lesson import load_lesson
from plyground.tui.app import create_app
from plyground.tui.screens.lesson import LessonScreen
from tests.tui.helpers import SIZE, SMALL, wait_until

LESSON = """title = "t"

[[scene]]
game = "tictactoe"

[[scene.step]]
train = {seconds = 3, seed = 3, against = "ttt-perfect", games = 2, sims = 4, steps = 2, batch = 8, eval_pairs = 1, channels = 4, blocks = 1}
caption = "Press t."

[[scene.step]]
caption = "After."
"""


def text_of(screen, selector) -> str:
    return str(screen.query_one(selector).render())


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["160x50", "80x24"])
async def test_t_trains_live_and_the_screen_shows_its_progress_and_end(tmp_path, size):
    path = tmp_path / "train.toml"
    path.write_text(LESSON)
    app = create_app(lesson=load_lesson(path), animations=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LessonScreen)
        await pilot.press("t")  # not a train step's slide: nothing starts
        await pilot.pause()
        assert screen.runs == {}
        await pilot.press("space")
        await pilot.pause()
        assert not screen.query_one("#inspector").display
        assert "Press t to start the training" in text_of(screen, "#training")
        await pilot.press("t")
        await wait_until(pilot, lambda: screen.trainings[1].phase is not None)
        shown = text_of(screen, "#training")
        assert "won drawn lost" in shown and "of 0:03" in shown
        await wait_until(pilot, lambda: screen.trainings[1].done)  # hang guard: 60 s
        await pilot.pause()
        progress = screen.trainings[1]
        assert progress.failed is None
        shown = text_of(screen, "#training")
        done = progress.finished
        assert f"Done: {done.generations} generations" in shown
        untrained = progress.checked[0]
        row = next(line for line in shown.splitlines() if line.split()[:1] == ["0"])
        assert row.split()[-3:] == [str(untrained.won), str(untrained.drawn),
                                    str(untrained.lost)]
        assert untrained.games == 18
        await pilot.press("space")  # the next slide has no training: the inspector
        await pilot.pause()
        assert screen.query_one("#inspector").display
        await pilot.press("left")  # back: the finished training is still shown
        await pilot.pause()
        assert f"Done: {done.generations} generations" in text_of(screen, "#training")
    assert not screen.runs[1].process.is_alive()


def test_lesson_list_names_the_alphazero_lesson():
    from typer.testing import CliRunner

    from plyground.tui import cli

    result = CliRunner().invoke(cli.app, ["lesson", "list"])
    assert result.exit_code == 0
    [line] = [line for line in result.stdout.splitlines() if line.startswith("alphazero ")]
    assert "AlphaZero from nothing" in line and line.endswith("alphazero.toml)")
