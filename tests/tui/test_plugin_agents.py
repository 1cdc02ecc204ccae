"""Agents from outside plyground in the app: a bot's reports in the inspector, and a
bot that fails forfeits the game, which goes on with another player."""
from __future__ import annotations

from textwrap import dedent

from plyground.tui.screens.opponent import OpponentScreen
from plyground.tui.screens.result import ResultScreen
from plyground.tui.widgets.inspector.info_view import InfoView

from .helpers import make_app, settled, status_text, wait_until

TALKING_BOT = '''
from plyground.core.agents.bot import Bot

class Talker(Bot):
    """Plays the first legal move and says so."""

    def decide(self, state, budget):
        move = state.moves()[0]
        self.report(depth=1, score=7, pv=[move], nodes=42, text="first legal move")
        return move
'''

FAILING_BOT = '''
from plyground.core.agents.bot import Bot

class Failing(Bot):
    def decide(self, state, budget):
        return 1 / 0
'''


def bot_file(tmp_path, name: str, source: str):
    path = tmp_path / f"{name}.py"
    path.write_text(dedent(source))
    return path


async def play_and_wait_for_the_answer(pilot, app) -> None:
    """X drops in column 4, and the agent playing O answers."""
    await pilot.press("4")  # drops at once: no Enter, which the next screen would take
    await wait_until(pilot, lambda: len(app.game_screen.match.moves) == 2)
    await settled(pilot, app)


async def test_a_bots_reports_show_in_the_inspector(tmp_path):
    spec = f"{bot_file(tmp_path, 'talker', TALKING_BOT)}:Talker"
    app = make_app("connect4", ("human", spec))
    async with app.run_test(size=(160, 50)) as pilot:
        await play_and_wait_for_the_answer(pilot, app)
        inspector = app.game_screen.inspector
        assert inspector.live_view == "info-view"
        reports = app.game_screen.query_one(InfoView).reports
        assert [(r.depth, r.score, r.nodes, r.text) for r in reports] == \
            [(1, 7, 42, "first legal move")]
        summary = str(inspector.query_one("#inspector-summary").content)
        assert "played 1" in summary and "42 nodes" in summary


async def test_a_failing_bot_forfeits_and_the_game_goes_on_with_another_player(tmp_path):
    spec = f"{bot_file(tmp_path, 'failing', FAILING_BOT)}:Failing"
    app = make_app("connect4", ("human", spec))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("4")  # drops at once: no Enter, which the next screen would take
        screen = app.game_screen
        await wait_until(pilot, lambda: screen.match.forfeit is not None)
        forfeit = screen.match.forfeit
        assert forfeit.winner == 0
        assert forfeit.reason.startswith("O forfeits: Failing (1s) raised ZeroDivisionError")
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        assert screen.match.moves == [3]  # the game is kept as it was
        await pilot.press("o")  # another player for O
        await wait_until(pilot, lambda: isinstance(app.screen, OpponentScreen))
        await pilot.press("enter")  # the default opponent
        await wait_until(pilot, lambda: len(screen.match.moves) == 2)
        await settled(pilot, app)
        assert screen.match.forfeit is None and screen.match.moves[0] == 3
        assert "forfeits" not in status_text(app)


async def test_the_setup_screens_other_agent_takes_a_plugin_spec(tmp_path):
    from textual.widgets import Input, Select

    from plyground.tui.screens.setup import OTHER, SetupScreen

    spec = f"{bot_file(tmp_path, 'talker', TALKING_BOT)}:Talker"
    app = make_app(game_id=None)
    async with app.run_test(size=(160, 50)) as pilot:
        assert isinstance(app.screen, SetupScreen)
        row = app.screen.rows()[1]
        row.query_one(Select).value = OTHER
        await pilot.pause()
        box = row.query_one(Input)
        assert not box.disabled and box.value == ""
        box.value = f"{tmp_path}/missing.py:Talker"
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)  # a bad plugin keeps you here
        assert "there is no file" in str(app.screen.query_one("#setup-error").content)
        box.value = spec
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.game_screen is not None)
        assert app.game_screen.match.sides[1] == spec
        await play_and_wait_for_the_answer(pilot, app)
        await pilot.press("escape")  # back to the setup: the plugin is still chosen
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
        row = app.screen.rows()[1]
        assert row.kind == OTHER and row.query_one(Input).value == spec


def test_a_plugin_from_the_command_line_gets_its_own_menu_entry(tmp_path):
    from plyground.tui.screens.setup import row_from_spec, spec_for

    spec = f"{bot_file(tmp_path, 'talker', TALKING_BOT)}:Talker"
    assert row_from_spec(spec) == (spec, "", [("Talker", spec)])
    assert row_from_spec(f"{spec}:time=0.5") == (spec, "0.5", [("Talker", spec)])
    assert spec_for(spec, "0.5") == f"{spec}:time=0.5"


HUNG_BOT = '''
import time
from plyground.core.agents.bot import Bot

class Hung(Bot):
    def decide(self, state, budget):
        time.sleep(60)  # never looks at the clock
'''


async def test_a_bot_that_never_answers_forfeits_and_its_process_is_stopped(tmp_path):
    spec = f"{bot_file(tmp_path, 'hung', HUNG_BOT)}:Hung:time=0.1"
    app = make_app("connect4", ("human", spec), clock="real")
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("4")  # drops at once: no Enter, which the next screen would take
        screen = app.game_screen
        await wait_until(pilot, lambda: screen.search is not None)
        pid = app.engine.pid
        await wait_until(pilot, lambda: screen.match.forfeit is not None, timeout=30)
        assert "Hung (0.1s) did not answer within 3 s" in screen.match.forfeit.reason
        assert app.engine.pid is None  # the hung process is gone, not left running
        assert pid is not None


async def test_an_engines_info_lines_show_live_in_the_inspector():
    import sys
    from pathlib import Path

    engine = Path(__file__).resolve().parents[2] / "examples" / "reference_engine.py"
    spec = f'engine:cmd="{sys.executable} {engine}",time=0.2'
    app = make_app("connect4", ("human", spec))
    async with app.run_test(size=(160, 50)) as pilot:
        await play_and_wait_for_the_answer(pilot, app)
        reports = app.game_screen.query_one(InfoView).reports
        assert reports and [r.depth for r in reports] == list(range(1, len(reports) + 1))
        last = reports[-1]
        assert last.pv and last.nodes > 0 and last.score is not None
        assert app.game_screen.inspector.border_title.startswith(
            "Inspector — O: Reference (engine, 0.2s)")
