"""A visitor of `plyground serve` changes nothing that is not its own: the Games screen
is read-only (its `d` deletes nothing), the visitor's games go into no history, each
visitor saves into a folder of its own inside the server's save folder and only up to
the server's quota. Served apps are made as `serve` makes them (ServedLimits), driven
by Pilot; the last test drives a real server through its websocket, as a browser does."""
from __future__ import annotations

import asyncio
import re
import shlex
from pathlib import Path

import aiohttp
import pytest
from typer.testing import CliRunner

from plyground.core import get_game
from plyground.core.records.history import History, played_record
from plyground.core.records.record import format_record
from plyground.tui import app as tui_app
from plyground.tui import cli
from plyground.tui.app import ServedLimits
from plyground.tui.screens.games import READ_ONLY, SERVED_EMPTY, ConfirmDelete, GamesScreen, \
    GameTable
from plyground.tui.screens.result import ResultScreen
from plyground.tui.screens.save import SaveScreen
from plyground.tui.served_saves import SESSION_PREFIX
from tests.security.test_files import save_as
from tests.security.test_serve import WAIT_SECONDS, first_screen, serving
from tests.tui.helpers import SIZE, make_app, wait_until
from tests.tui.test_arena_driver import thread_pool
from tests.tui.test_match_screen import decided, open_match

C4 = get_game("connect4")


def connect4(moves: str, players=("human", "human")):
    start = C4.start()
    line = C4.parse_line(start, moves)
    final = C4.play_moves(start, list(moves))
    return played_record(C4, start, line, final.outcome(), players,
                         reason="" if final.outcome() else "abandoned")


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """The server's data folder, its history holding two games: a finished one and,
    newest, an unfinished one a visitor could go on with."""
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path / "home"))
    with History() as history:
        history.add(connect4("1212121", ("random", "greedy")), "demo")
        history.add(connect4("44"), "app")
    return tmp_path / "home"


def the_history() -> dict[int, str]:
    """Each game of the history by id, as its record's text."""
    with History() as history:
        return {game.id: format_record(history.get(game.id)) for game in history.list()}


def served(tmp_path: Path, **limits) -> ServedLimits:
    saves = tmp_path / "saves"
    saves.mkdir(exist_ok=True)
    return ServedLimits(save_dir=saves, **limits)


async def games_screen(pilot, app) -> GamesScreen:
    await pilot.press("ctrl+g")  # from the setup screen
    await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen)
                     and app.screen.query_one(GameTable).row_count > 0)
    return app.screen


async def test_d_on_the_served_games_screen_deletes_nothing(home, tmp_path):
    before = the_history()
    app = make_app(None, served=served(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        screen = await games_screen(pilot, app)
        shown = [item.binding.description for item in screen.active_bindings.values()
                 if item.binding.show]
        assert "Delete" not in shown and "Back" in shown  # not offered in the footer
        for key in ("d", "delete"):
            await pilot.press(key)
            await pilot.pause()
            if isinstance(app.screen, ConfirmDelete):  # as a visitor would: confirm
                await pilot.click("#delete")
                await wait_until(pilot, lambda: app.screen is screen)
            assert app.screen is screen
            assert str(screen.query_one("#games-message").content) == READ_ONLY
        assert screen.query_one(GameTable).row_count == 2  # still listed
        await pilot.press("enter")  # and opened
        await wait_until(pilot, lambda: app.game_screen is not None)
    assert the_history() == before


async def test_a_served_games_screen_makes_no_history(tmp_path, monkeypatch):
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path / "home"))
    app = make_app(None, served=served(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+g")
        await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen))
        await pilot.pause()
        assert str(app.screen.query_one("#games-message").content) == SERVED_EMPTY
    assert not (tmp_path / "home" / "history.sqlite3").exists()


async def test_a_visitors_games_new_or_opened_change_nothing_in_the_history(home,
                                                                             tmp_path):
    before = the_history()
    unfinished = max(before)
    app = make_app("connect4", ("human", "human"), served=served(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        for column in "1212121":  # a game played to its end
            await pilot.press(column)
            await pilot.pause()
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.press("g")  # the server's unfinished game, opened and played on
        await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen)
                         and app.screen.query_one(GameTable).row_count > 0)
        table = app.screen.query_one(GameTable)
        table.move_cursor(row=table.get_row_index(str(unfinished)))
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.game_screen is not screen
                         and app.game_screen.history_id == unfinished)
        opened = app.game_screen
        await wait_until(pilot, lambda: opened.match.state.ply == 2)
        await pilot.press("5")
        await wait_until(pilot, lambda: opened.match.state.ply == 3)
        await pilot.press("n")  # a new game: the one left would be kept
        await pilot.pause()
    assert the_history() == before


async def test_a_visitors_match_run_adds_nothing_to_the_history(home, tmp_path):
    before = the_history()
    app = make_app(None, None, served=served(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_match(pilot, app, pool=thread_pool)
        await decided(pilot, screen)
        assert screen.view.finished  # games were played, and none was kept
        assert {game.history_id for game in screen.view.finished} == {None}
    assert the_history() == before


async def test_two_visitors_saving_the_same_name_write_two_files(tmp_path):
    limits = served(tmp_path)
    written = []
    for column in "43":  # two visitors, each its own game
        app = make_app("connect4", ("human", "human"), served=limits)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press(column)
            await pilot.pause()
            said = await save_as(pilot, app, "mine.txt")
            if said.endswith("press Save again to replace it."):
                said = await save_as(pilot, app, "mine.txt")  # as a visitor would
            assert said == ""
            written.append(format_record(app.game_screen.record()))
    files = sorted(limits.save_dir.glob("*/mine.txt"))
    assert len(files) == 2 and len({file.parent for file in files}) == 2
    assert all(file.parent.name.startswith(SESSION_PREFIX) for file in files)
    assert sorted(file.read_text() for file in files) == sorted(written)
    assert not (limits.save_dir / "mine.txt").exists()


@pytest.mark.parametrize("quota", ["files", "bytes"])
async def test_a_save_past_the_quota_is_refused_and_the_game_stays_open(tmp_path, quota):
    record_bytes = len(format_record(connect4("4")).encode())
    # room for two files: a third is past the quota (of files, or of bytes)
    limits = served(tmp_path, **({"save_quota_files": 2} if quota == "files" else
                                 {"save_quota_bytes": 2 * record_bytes + 50}))
    app = make_app("connect4", ("human", "human"), served=limits)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4")
        await pilot.pause()
        assert await save_as(pilot, app, "a.txt") == ""
        assert await save_as(pilot, app, "b.txt") == ""
        said = await save_as(pilot, app, "c.txt")
        mb = f"{limits.save_quota_bytes / 1_000_000:g}"
        assert said == (f"Not saved: this session may save at most "
                        f"{limits.save_quota_files} files and {mb} MB (the server's "
                        "quota), and this file would pass it. The game is still open.")
        assert isinstance(app.screen, SaveScreen)  # the dialog stays, the game under it
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.game_screen)
        assert len(app.game_screen.match.moves) == 1
        # replacing a file of its own takes no more room: allowed
        assert await save_as(pilot, app, "a.txt") != ""
        assert await save_as(pilot, app, "a.txt") == ""
        folder = app.visitor_folder
    assert sorted(path.name for path in folder.iterdir()) == ["a.txt", "b.txt"]


def test_the_quota_options_reach_each_served_app_and_empty_sessions_go(monkeypatch,
                                                                       tmp_path):
    """`serve --save-quota-files/--save-quota-mb` become the hidden root options each
    app starts with, and those its ServedLimits; the session folders left empty are
    removed when the server stops, those with saves kept."""
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path))
    commands = []

    class FakeServer:
        def __init__(self, command, **settings):
            self.command = command

        def serve(self):
            commands.append(self.command)
            folder = Path(option(self.command, "--served-save-dir"))
            (folder / f"{SESSION_PREFIX}empty").mkdir()
            (folder / f"{SESSION_PREFIX}saved").mkdir()
            (folder / f"{SESSION_PREFIX}saved" / "game.txt").write_text("a game")

    monkeypatch.setattr("plyground.tui.serve_gate.GatedServer", FakeServer)
    result = CliRunner().invoke(cli.app, ["serve", "--save-quota-files", "3",
                                          "--save-quota-mb", "2"])
    assert result.exit_code == 0, result.output
    [command] = commands
    folder = Path(option(command, "--served-save-dir"))
    assert sorted(path.name for path in folder.iterdir()) == [f"{SESSION_PREFIX}saved"]

    monkeypatch.setattr(tui_app, "SERVED", None)
    monkeypatch.setattr(tui_app.PlygroundApp, "run", lambda self: None)
    words = shlex.split(command)[3:]  # (python -m plyground)
    assert CliRunner().invoke(cli.app, words).exit_code == 0
    assert tui_app.SERVED == ServedLimits((), folder, save_quota_files=3,
                                          save_quota_bytes=2_000_000)

    for bad in (["--save-quota-files", "0"], ["--save-quota-mb", "1000000000"]):
        result = CliRunner().invoke(cli.app, ["serve", *bad])
        assert result.exit_code == 2 and bad[0] in result.stderr
        assert len(result.stderr.splitlines()) == 1
    assert len(commands) == 1


def option(command: str, name: str) -> str:
    words = shlex.split(command)
    return words[words.index(name) + 1]


# --- over the real websocket ------------------------------------------------------------

ESCAPES = re.compile(rb"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|.)")


def screen_text(received: bytes) -> str:
    """What the app drew, without its escape sequences (text runs only)."""
    return ESCAPES.sub(b"", received).decode("utf-8", "replace")


def test_over_the_websocket_a_visitors_d_leaves_the_servers_games(tmp_path):
    """As the review did it: games [1, 2] in the server's history, a visitor opens
    the Games screen and deletes the highlighted one (d, then the dialog's Delete)."""
    home = tmp_path / "home"
    home.mkdir()
    with History(home / "history.sqlite3") as history:
        history.add(connect4("1212121", ("random", "greedy")), "demo")
        history.add(connect4("44"), "app")

    with serving(tmp_path) as server:

        async def visit() -> str:
            async with aiohttp.ClientSession() as session:
                websocket, first = await first_screen(
                    session, f"{server.base}/ws/{server.token}", Origin=server.base)
                received = bytearray(first)

                async def until(*words: str) -> str:
                    while not any(word in screen_text(received) for word in words):
                        message = await websocket.receive()
                        if message.type != aiohttp.WSMsgType.BINARY:
                            raise AssertionError(f"the websocket ended: {message}")
                        received.extend(message.data)
                    return next(word for word in words if word in screen_text(received))

                async def press(keys: str) -> None:
                    received.clear()
                    await websocket.send_json(["stdin", keys])

                await until("Games played")  # the setup screen's footer
                await press("\x07")  # ctrl+g: the Games screen
                await until("opens one")
                await press("d")
                seen = await until("read-only", "Delete game")
                if seen == "Delete game":  # the dialog: Delete is left of Cancel
                    await press("\x1b[Z")  # shift+tab
                    await asyncio.sleep(0.5)
                    await press("\r")
                    await until("deleted")
                await websocket.close()
                return seen

        seen = asyncio.run(asyncio.wait_for(visit(), WAIT_SECONDS))
    with History(home / "history.sqlite3") as history:
        assert [game.id for game in history.list()] == [2, 1]
    assert seen == "read-only"
