"""Text stays whole at the sizes the app is laid out for (80×24 and 160×50): the setup
screen's placeholders, ... ; below 80×24 the app says, in one line, that the terminal
is too small and what it needs, until it is made larger, and the screen underneath
comes back as it was."""
from __future__ import annotations

import re

import pytest
from rich.cells import cell_len
from textual.widgets import Input, Select

from plyground.tui.minimum_size import TooSmall
from plyground.tui.placeholders import room
from plyground.tui.screens.setup import OTHER, SetupScreen, playable_games

from .helpers import SIZE, SMALL, make_app, settled, wait_until

BOTH_SIZES = pytest.mark.parametrize("size", [SMALL, SIZE], ids=["80x24", "160x50"])
TOO_SMALL = pytest.mark.parametrize("size", [(60, 20), (40, 12), (79, 24), (80, 23)],
                                    ids=["60x20", "40x12", "79x24", "80x23"])


def whole(box: Input) -> bool:
    return 0 < cell_len(box.placeholder) <= room(box)


@BOTH_SIZES
async def test_the_start_positions_placeholder_is_whole_for_each_game(size):
    app = make_app(game_id=None)
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        box = screen.query_one("#position", Input)
        for entry in playable_games():
            screen.query_one("#game", Select).value = entry.id
            await pilot.pause()
            await pilot.pause()
            assert box.placeholder.startswith("empty: "), box.placeholder
            assert whole(box), (entry.id, box.placeholder, room(box))


@BOTH_SIZES
async def test_the_other_agents_placeholder_is_whole(size):
    app = make_app(game_id=None)
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        for side in (0, 1):
            screen.query_one(f"#player-{side}", Select).value = OTHER
            await pilot.pause()
            await pilot.pause()
            box = screen.query_one(f"#setting-{side}", Input)
            assert "bot.py:Class" in box.placeholder
            assert whole(box), (box.placeholder, room(box))


def cover(app) -> list[str]:
    """The too-small message's text over the whole of the screen on top, wherever
    the screen is scrolled (none: [])."""
    return [str(message.content) for message in app.screen.query(TooSmall)
            if message.display and message.region == app.screen.region
            and app.screen.get_widget_at(*message.region.center)[0] is message]


@TOO_SMALL
async def test_below_80x24_one_line_says_the_terminal_is_too_small(size):
    app = make_app("connect4", ("human", "human"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("4", "3")
        await settled(pilot, app)
        screen, state = app.game_screen, app.game_screen.match.state
        assert cover(app) == []
        await pilot.resize_terminal(*size)
        await wait_until(pilot, lambda: cover(app))
        width, height = size
        text, = cover(app)
        assert text == f"Terminal too small: needs 80×24\n(now {width}×{height})"
        message = app.screen.query_one(TooSmall)
        assert message.region == app.screen.region  # over everything
        assert app.screen.get_widget_at(width // 2, height // 2)[0] is message
        await pilot.press("5", "escape", "s")  # held back: the game is hidden
        await pilot.pause()
        assert app.screen is screen and screen.match.state is state
        await pilot.resize_terminal(*SMALL)
        await wait_until(pilot, lambda: not app.screen.query(TooSmall))
        assert app.screen is screen and screen.match.state is state
        await pilot.press("5")  # and it goes on
        await wait_until(pilot, lambda: screen.match.state.ply == 3)


async def test_started_small_the_app_says_so_and_a_game_of_agents_goes_on():
    agent = "mcts:iterations=3000,seed=1"
    app = make_app("connect4", (agent, agent))
    async with app.run_test(size=(40, 12)) as pilot:
        await wait_until(pilot, lambda: cover(app) == [
            "Terminal too small: needs 80×24\n(now 40×12)"])
        screen = app.game_screen
        ply = screen.match.state.ply
        assert screen.match.outcome is None
        await wait_until(pilot, lambda: screen.match.state.ply > ply)  # it plays on
        await pilot.resize_terminal(*SIZE)
        await wait_until(pilot, lambda: not app.screen.query(TooSmall))
        assert app.game_screen is screen


@pytest.mark.parametrize("size", [(60, 20), (40, 12)], ids=["60x20", "40x12"])
async def test_the_setup_screen_and_one_that_comes_on_top_while_small_are_covered(size):
    app = make_app(game_id=None)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: cover(app))
        assert isinstance(app.screen, SetupScreen)
        app.push_screen(HelpLike())
        await wait_until(pilot, lambda: isinstance(app.screen, HelpLike) and cover(app))
        await pilot.resize_terminal(*SMALL)
        await wait_until(pilot, lambda: not cover(app))
        assert isinstance(app.screen, HelpLike)


from textual.screen import ModalScreen  # noqa: E402
from textual.widgets import Static  # noqa: E402


class HelpLike(ModalScreen):
    def compose(self):
        yield Static("a dialog")


def boom_record(reason: str):
    from plyground.core import get_game
    from plyground.core.game import Outcome, Termination
    from plyground.core.records.history import played_record

    boom = get_game("boom")
    start = boom.start()
    moves = boom.parse_line(start, "1234")
    record = played_record(boom, start, moves, Outcome(0, Termination.DECLARED, reason),
                           ("alphabeta:depth=6,time=2,seed=3", "mcts:iterations=5000,seed=7,uct=plain"), reason=reason)
    record.date = "2026-01-06T12:00:00"
    return record


BOOM_REASONS = ("Red has four in a row after Blue's BOOM",
                "both sides have four in a row after Blue's BOOM: Red, who acted, loses")


@BOTH_SIZES
async def test_the_games_screen_shows_a_boom_reason_whole(size, tmp_path, monkeypatch):
    from plyground.core.records.history import History
    from plyground.tui.screens.games import GamesScreen, GameTable, result_cell

    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path))
    with History() as history:
        ids = [history.add(boom_record(reason), "app") for reason in BOOM_REASONS]
    app = make_app(game_id=None)
    async with app.run_test(size=size) as pilot:
        app.push_screen(GamesScreen())
        await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen)
                         and app.screen.games)
        await pilot.pause()
        screen = app.screen
        table = screen.query_one(GameTable)
        for row, id in enumerate(reversed(ids)):
            cells = table.get_row_at(row)
            wanted = result_cell(screen.games[id])
            shown = str(cells[4])
            assert "…" not in shown and " ".join(shown.split()) == wanted, shown
            assert table.rows[table.coordinate_to_cell_key((row, 0)).row_key].height \
                == len(shown.splitlines())
        assert table.virtual_size.width <= table.scrollable_content_region.width


@BOTH_SIZES
@pytest.mark.parametrize("name", ["minimax", "mcts", "deepening", "alphazero"])
async def test_a_lessons_title_keeps_its_counts(size, name):
    from plyground.core.study.lesson import load_lesson
    from plyground.core.study.lessons import shipped
    from plyground.tui.app import create_app
    from plyground.tui.screens.lesson import LessonScreen

    lesson, slides = load_lesson(shipped()[name])
    app = create_app(lesson=(lesson, slides), animations=False)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LessonScreen))
        screen = app.screen
        line = screen.query_one("#lesson-title")
        for index, slide in enumerate(slides):
            screen.jump_to(index)
            await pilot.pause()
            text = str(line.render())
            scene = slide.scene
            counts = [f"scene {scene.number} of {len(lesson.scenes)}",
                      f"step {slide.step} of {len(scene.steps)}" if slide.step
                      else "opening", f"slide {index + 1} of {len(slides)}"]
            assert all(count in text for count in counts), text
            assert text.endswith(counts[-1]) and cell_len(text) <= line.content_size.width
        other = SIZE if size == SMALL else SMALL  # and after a resize, either way
        await pilot.resize_terminal(*other)

        def fitted() -> bool:
            text = str(line.render())
            return app.size == other and all(count in text for count in counts) \
                and cell_len(text) <= line.content_size.width
        await wait_until(pilot, fitted, timeout=10)


@BOTH_SIZES
async def test_quarto_shows_its_piece_numbers_and_legends(size):
    from plyground.tui.widgets.boards.quarto import QuartoBoard

    app = make_app("quarto", ("human", "human"), "8.a./.5c./3..6/.... f")
    async with app.run_test(size=size) as pilot:
        await settled(pilot, app)
        board = app.game_screen.query_one(QuartoBoard)
        left = app.game_screen.query_one("#left")
        assert board.region.right <= left.content_region.right
        lines = board.render().plain.splitlines()
        assert max(cell_len(line) for line in lines) <= board.content_size.width
        assert len(lines) <= board.content_size.height
        shown = "\n".join(lines)
        for words in ("■● solid", "□○ hollow", "TDSH: tall dark square hollow",
                      "short light round solid"):
            assert words in shown, shown
        pool = [line[board.pool_left:] for line in lines]
        for piece in board.state.pool():  # its number, in its place in the pool
            row, col = divmod(piece, 4)
            pitch = 4 if board.large else 5
            top = board.board_top + row * board.square_pitch[1]
            slot = " | ".join(line[col * pitch:(col + 1) * pitch]
                              for line in pool[top:top + board.square_pitch[1]])
            assert re.search(rf"(?<!\d){piece}(?!\d)", slot), (piece, slot)


async def test_the_az_table_at_80x24_says_it_scrolls_and_stays_in_its_frame():
    from plyground.tui.widgets.inspector.mcts_view import MctsView

    app = make_app("connect4", ("human", "az:sims=60,seed=1"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("4")
        await settled(pilot, app)
        screen = app.game_screen
        table = screen.query_one(MctsView)
        frame = screen.inspector.content_region
        assert table.row_count == 7
        assert table.region.bottom <= frame.bottom  # nothing runs out of the frame
        sign = screen.inspector.query_one("#more-rows")
        await wait_until(pilot, lambda: sign.display)
        await pilot.pause()
        window = table.scrollable_content_region.height - table.header_height
        assert 0 < window < 7
        assert table.region.bottom <= sign.region.y and sign.region.bottom <= frame.bottom
        await wait_until(pilot, lambda: str(sign.content)
                         == f"↓ {7 - window} more moves: i, ↓ scrolls", timeout=5)
        await pilot.press("i", "down")
        await wait_until(pilot, lambda: str(sign.content).startswith("↑ 1 · ↓"), timeout=5)
        await pilot.press(*["down"] * 6)
        await wait_until(pilot, lambda: str(sign.content).startswith(f"↑ {7 - window} "))


def test_in_a_real_terminal_the_message_comes_and_goes_with_its_size(tmp_path):
    """The app in a pty of 40×12: the message; made 80×24 (as a terminal window is
    resized), the setup screen; Ctrl+Q still quits."""
    import fcntl
    import os
    import pty
    import signal
    import struct
    import sys
    import termios

    from tests.processes import as_from_a_terminal, running
    from tests.tui.test_nothing_left_behind import read_for, wait_for_exit

    def set_size(fd: int, columns: int, rows: int) -> None:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

    MESSAGE = "Terminal too small: needs 80×24".encode()
    env = {**os.environ, "PLYGROUND_HOME": str(tmp_path), "TERM": "xterm-256color"}
    env.pop("COLUMNS", None), env.pop("LINES", None)
    pid, fd = pty.fork()
    if pid == 0:  # the child: the app, in the pty
        os.chdir(tmp_path)
        as_from_a_terminal()
        set_size(0, 40, 12)
        os.execve(sys.executable, [sys.executable, "-m", "plyground"], env)
    try:
        set_size(fd, 40, 12)
        shown = b""
        for _ in range(120):  # a cold start on a loaded machine takes a while
            shown += read_for(fd, 0.5)
            if MESSAGE in shown and b"(now 40" in shown:
                break
        assert MESSAGE in shown and "(now 40×12)".encode() in shown, shown[-2000:]
        assert b"Start game" not in shown.split("Terminal too small".encode())[-1]
        set_size(fd, 80, 24)
        os.kill(pid, signal.SIGWINCH)
        shown = b""
        for _ in range(40):
            shown += read_for(fd, 0.5)
            if b"Start game" in shown:
                break
        assert b"Start game" in shown
        os.write(fd, b"\x11")  # Ctrl+Q
        assert wait_for_exit(pid, fd, 30)
    finally:
        if running(pid):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)
