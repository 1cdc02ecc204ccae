"""The game-over dialog opens once an ending: closed, it stays closed while the user
steps through a search (`s`), however the game came to the board (played here, opened
from the Match screen's list, `play --load`); and a game opened from a record offers
no "Play again" (it is there to be looked at), but closing and going back to where it
came from."""
from __future__ import annotations

import pytest
from textual.widgets import Button

from plyground.core import get_game
from plyground.core.records.history import History
from plyground.core.records.record import load_record
from plyground.tui.screens.result import ResultScreen
from plyground.tui.screens.setup import SetupScreen

from .helpers import SIZE, SMALL, make_app, status_text, wait_until

MCTS = "mcts:iterations=300"
# X by hand wins with its fourth 1; O's moves were MCTS's (step mode replays its last)
FINISHED = (f'[Game "connect4"]\n[First "human"]\n[Second "{MCTS}"]\n[Seed "7"]\n\n'
            '1. 1 2 2. 1 2 3. 1 2 4. 1 1-0\n')


async def result_shown(pilot, app) -> ResultScreen:
    await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
    await pilot.pause()
    return app.screen


async def closed_then_stepped_through(pilot, app) -> None:
    """Esc on the dialog, `s`, and the replay recorded and shown: the dialog must not
    come back (it did, once the recording ended and the position was redrawn)."""
    screen = app.game_screen
    await pilot.press("escape")
    await wait_until(pilot, lambda: app.screen is screen)
    await pilot.press("s")
    # the recording done, its step view open, and nothing left scheduled (the old
    # code's dialog was scheduled here, and pushed at once)
    await wait_until(pilot, lambda: screen.inspector.stepping and screen.search is None
                     and screen.timer is None)
    await pilot.pause()
    await pilot.pause()
    assert app.screen is screen, f"{type(app.screen).__name__} came back over step mode"
    assert screen.inspector.stepping
    assert "wins" in status_text(app) or "won" in status_text(app).lower()


def buttons(dialog: ResultScreen) -> dict[str, str]:
    return {button.id: str(button.label) for button in dialog.query(Button)}


async def test_a_live_games_dialog_stays_closed_after_step_mode():
    app = make_app(sides=(MCTS, "human"), position="121212")  # X wins with its 1
    async with app.run_test(size=SIZE) as pilot:
        dialog = await result_shown(pilot, app)
        assert buttons(dialog) == {"again": "Play again", "setup": "Setup",
                                   "close": "Close"}  # a game played here: again
        await closed_then_stepped_through(pilot, app)
        await pilot.press("escape")  # step mode left: still no dialog
        await pilot.pause()
        assert app.screen is app.game_screen


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["160x50", "80x24"])
async def test_a_loaded_games_dialog_offers_no_play_again_and_stays_closed(
        tmp_path, size):
    path = tmp_path / "game.txt"
    path.write_text(FINISHED)
    app = make_app(record=load_record(path))  # as `play connect4 --load FILE` opens it
    async with app.run_test(size=size) as pilot:
        dialog = await result_shown(pilot, app)
        assert buttons(dialog) == {"close": "Close", "setup": "Setup"}
        assert dialog.query_one("#close", Button).has_focus
        await pilot.press("a")  # no "again" key either
        await pilot.pause()
        assert app.screen is dialog and len(app.game_screen.match.moves) == 7
        await closed_then_stepped_through(pilot, app)


async def test_a_match_lists_game_goes_back_to_the_match_and_its_dialog_stays_closed(
        tmp_path, monkeypatch):
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path / "home"))
    path = tmp_path / "game.txt"
    path.write_text(FINISHED)
    with History() as history:
        history_id = history.add(load_record(path), "match")
    app = make_app(game_id=None)
    async with app.run_test(size=SMALL) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
        app.open_match(get_game("connect4"), (None, None))
        await pilot.pause()
        match_screen = app.screen
        app.open_history_game(history_id)  # as choosing it in the finished games does
        dialog = await result_shown(pilot, app)
        assert buttons(dialog) == {"close": "Close", "setup": "Back to the match"}
        await closed_then_stepped_through(pilot, app)
        app.game_screen.end.show_result()  # (what a key to reopen it would do)
        dialog = await result_shown(pilot, app)
        await pilot.click("#setup")
        await wait_until(pilot, lambda: app.screen is match_screen)
