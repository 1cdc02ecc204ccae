"""In the app, a Python bot from outside decides in the same box as in a `demo` or a
`match` (core/play/isolation.py): a process of its own under its memory limit, whose group
is killed when its game or the app ends, and whose reports still reach the inspector
live. The bots are those of tests/plugins/bots."""
from __future__ import annotations

import os
from pathlib import Path
from textwrap import dedent

from plyground.tui.screens.opponent import OpponentScreen
from plyground.tui.screens.result import ResultScreen
from plyground.tui.widgets.inspector.info_view import InfoView
from tests.processes import still_running
from tests.tui.helpers import make_app, record_notifications, settled, status_text, \
    wait_until

BOTS = Path(__file__).resolve().parents[1] / "plugins" / "bots"
WAIT_SECONDS = 30  # the most a killed process may take to go, on a busy machine

# Reports the process it decides in, then thinks until the test has seen that report
# (a file appears) or its time is up.
PATIENT_BOT = '''
import os
import time

from plyground.core.agents.bot import Bot

class Patient(Bot):
    settings = {"go": ""}

    def decide(self, state, budget):
        self.report(depth=1, nodes=os.getpid(), text="thinking")
        while not os.path.exists(self.go) and not self.should_stop():
            time.sleep(0.01)
        return state.moves()[0]
'''


def pids(path: Path) -> list[int]:
    """The pids a forker wrote: the process it decided in, and its helper's."""
    return [int(word) for word in path.read_text().split()]


async def test_a_bot_over_its_memory_limit_forfeits_naming_it_and_the_game_goes_on():
    app = make_app("connect4", ("human", f"{BOTS}/hog.py:Bot"))
    async with app.run_test(size=(160, 50)) as pilot:
        told = record_notifications(app)
        screen = app.game_screen
        await pilot.press("4")  # drops at once: no Enter, which the next screen would take
        await wait_until(pilot, lambda: screen.match.forfeit is not None
                         or len(screen.match.moves) > 1)
        reason = "O forfeits: Hog (1s) ran out of its memory limit (2 GiB; set mem= to " \
                 "change it)"
        assert screen.match.forfeit is not None, "the hog played on"
        assert screen.match.forfeit.reason == reason
        assert reason in told
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        assert screen.match.moves == [3]  # the game is kept as it was
        await pilot.press("escape")  # back to the game, which says so
        await wait_until(pilot, lambda: not isinstance(app.screen, ResultScreen))
        assert reason in status_text(app) and "o: another player" in status_text(app)
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, OpponentScreen))
        await pilot.press("enter")  # the default opponent
        await wait_until(pilot, lambda: len(screen.match.moves) == 2)
        await settled(pilot, app)
        assert screen.match.forfeit is None and screen.match.moves[0] == 3


async def test_a_bots_reports_reach_the_inspector_live_from_its_own_process(tmp_path):
    go = tmp_path / "go"
    bot = tmp_path / "patient.py"
    bot.write_text(dedent(PATIENT_BOT))
    app = make_app("connect4", ("human", f"{bot}:Patient:time=60,go={go}"))
    async with app.run_test(size=(160, 50)) as pilot:
        screen = app.game_screen
        await pilot.press("4")
        view = screen.query_one(InfoView)
        # seen while the bot still thinks: it waits for the file
        await wait_until(pilot, lambda: view.reports)
        assert screen.search is not None and len(screen.match.moves) == 1
        [report] = view.reports
        assert report.text == "thinking"
        assert report.nodes != app.engine.pid  # not the engine's process: a box
        go.touch()
        await wait_until(pilot, lambda: len(screen.match.moves) == 2)


async def test_a_bots_helper_does_not_outlive_its_game(tmp_path):
    written = tmp_path / "pids"
    app = make_app("connect4", (f"{BOTS}/forks.py:Bot:pids={written}", "random"))
    async with app.run_test(size=(160, 50)) as pilot:
        screen = app.game_screen
        await wait_until(pilot, lambda: screen.match.outcome is not None, timeout=120)
        decided_in, helper = pids(written)
        assert decided_in != app.engine.pid
        assert still_running([decided_in, helper], WAIT_SECONDS) == []
        assert app.engine.pid is not None  # the app goes on


async def forker_moved(pilot, app, written: Path) -> list[int]:
    """The human's 4 and the forking bot's answer played: the pids the bot wrote."""
    screen = app.game_screen
    await pilot.press("4")
    await wait_until(pilot, lambda: len(screen.match.moves) == 2)
    assert screen.match.outcome is None
    return pids(written)


async def test_a_bots_helper_does_not_outlive_the_app(tmp_path):
    written = tmp_path / "pids"
    app = make_app("connect4", ("human", f"{BOTS}/forks.py:Bot:pids={written}"))
    async with app.run_test(size=(160, 50)) as pilot:
        left = await forker_moved(pilot, app, written)
        assert os.getpid() not in left
    assert still_running(left, WAIT_SECONDS) == []


async def test_a_bots_helper_ends_when_its_game_is_left_while_the_app_goes_on(tmp_path):
    written = tmp_path / "pids"
    app = make_app("connect4", ("human", f"{BOTS}/forks.py:Bot:pids={written}"))
    async with app.run_test(size=(160, 50)) as pilot:
        left = await forker_moved(pilot, app, written)
        await pilot.press("escape")  # back to the setup screen: the game is left
        await wait_until(pilot, lambda: app.game_screen is None)
        assert still_running(left, WAIT_SECONDS) == []
        assert app.engine.pid is not None  # the app goes on
