"""The Match screen's results and its form, at 80×24 and 160×50: Esc stops a run and
its score, finished games and `Stopped after … (Esc)` stay on screen (on a narrow
terminal Esc then shows the form, Ctrl+R the results again, each named in the footer);
the finished games say who won in A and B's words, as the history's record agrees; a
field the run refuses takes the cursor, its error line in sight."""
from __future__ import annotations

import pytest
from textual.widgets import Button

from plyground.core.records.history import History
from plyground.tui.screens.match import MatchScreen
from tests.tui.helpers import SIZE, SMALL, make_app, wait_until
from tests.tui.test_arena_driver import thread_pool
from tests.tui.test_match_screen import CHEAP, decided, open_match, text

# two even players: a test at these bounds takes hundreds of pairs to decide, so a
# run is still under way when Esc comes
EVEN = ("mcts:iterations=50",) * 2


def on_screen(screen, selector: str) -> bool:
    """Whether the widget is shown, wholly inside the terminal and above the footer."""
    region = screen.query_one(selector).region
    width, height = screen.app.size
    return bool(region.area) and region.right <= width and region.bottom <= height - 1


def footer_key(screen, key: str) -> str:
    """What the footer says `key` does now ("" when nothing)."""
    active = screen.active_bindings.get(key)
    return active.binding.description if active is not None and active.enabled else ""


def results_on_screen(screen) -> bool:
    return all(on_screen(screen, selector)
               for selector in ("#figures", "#finished", "#result-line"))


@pytest.mark.parametrize("size", [SMALL, SIZE])
async def test_esc_stops_a_run_and_its_results_stay_on_screen(size):
    app = make_app(None, None)
    async with app.run_test(size=size) as pilot:
        screen = await open_match(pilot, app, EVEN, pool=thread_pool, elo1="5")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: len(screen.view.finished) >= 2)
        stop_key = footer_key(screen, "escape")
        await pilot.press("escape")
        await wait_until(pilot, lambda: not screen.view.running)
        await pilot.pause()
        assert app.screen is screen and screen.view.stopped
        assert "(Esc)" in text(screen, "#result-line")
        assert "Score " in text(screen, "#figures")
        assert screen.query_one("#finished").row_count == len(screen.view.finished)
        assert results_on_screen(screen)
        assert stop_key == "Stop"
        if size == SIZE:  # the form is beside the results: Esc goes back
            assert on_screen(screen, "#match-start")
            assert footer_key(screen, "escape") == "Back"
            await pilot.press("escape")
            await wait_until(pilot, lambda: app.screen is not screen)
            return
        assert footer_key(screen, "escape") == "Form"
        await pilot.press("escape")
        await pilot.pause()
        assert on_screen(screen, "#match-start") and not results_on_screen(screen)
        assert isinstance(app.focused, Button) and app.focused.id == "match-start"
        assert footer_key(screen, "ctrl+r") == "Results"
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert results_on_screen(screen) and "(Esc)" in text(screen, "#result-line")
        await pilot.press("escape", "escape")  # the form, then the setup screen
        await wait_until(pilot, lambda: app.screen is not screen)


async def test_a_run_that_ends_by_itself_stays_on_screen_at_80x24():
    app = make_app(None, None)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_match(pilot, app, pool=thread_pool)
        await decided(pilot, screen)
        await pilot.pause()
        assert text(screen, "#result-line").startswith("H1 accepted")
        assert results_on_screen(screen)
        assert footer_key(screen, "ctrl+r") == ""  # the results are the ones shown
        assert footer_key(screen, "escape") == "Form"
        await pilot.press("escape")
        await pilot.pause()
        assert not results_on_screen(screen) and footer_key(screen, "ctrl+r") == "Results"
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert results_on_screen(screen)


async def test_the_finished_games_say_who_won_in_a_and_b_words():
    """Beside the history's record, whose result is X's and O's."""
    app = make_app(None, None)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_match(pilot, app, pool=thread_pool)
        await decided(pilot, screen)
        table = screen.query_one("#finished")
        assert "result" in [str(column.label) for column in table.columns.values()]
        history = History()
        try:
            for index, row in enumerate(screen.view.finished):
                shown = str(table.get_row_at(index)[3])
                words = {1.0: "A won", 0.5: "draw", 0.0: "B won"}[row.points]
                assert shown == f"{words} · {row.reason}"
                record = history.get(row.history_id)
                # A moved first when it played X: then X's result is A's
                x_points = row.points if row.first == "A" else 1 - row.points
                assert record.result == {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}[x_points]
        finally:
            history.close()


@pytest.mark.parametrize("size", [SMALL, SIZE])
@pytest.mark.parametrize("fields, at_fault, line", [
    ({"max-pairs": "x"}, "max-pairs", "max pairs: 'x' is not a whole number"),
    ({"elo0": "5", "elo1": "5"}, "elo0", "elo0 must be below elo1"),
    ({"beta": "0.7"}, "beta", "beta is a probability"),
    ({"match-seed": "-1"}, "match-seed", "seed: -1 is not a whole number"),
    ({"setting-1": "many"}, "setting-1", "Agent B: "),
    ({"openings": "\0file"}, "openings-file", "Openings: name a suite file"),
])
async def test_a_refused_field_takes_the_cursor(size, fields, at_fault, line):
    app = make_app(None, None)
    async with app.run_test(size=size) as pilot:
        screen = await open_match(pilot, app, ("alphabeta:depth=2", "mcts"),
                                  pool=thread_pool, **fields)
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert screen.driver is None
        assert text(screen, "#match-error").startswith(line)
        assert app.focused is screen.query_one(f"#{at_fault}")
        assert on_screen(screen, f"#{at_fault}") and on_screen(screen, "#match-error")
