"""Text from outside is shown, never obeyed: a record's headers, comments and players, a
net's info and an engine's name may hold terminal escapes (erase a line, conceal, set the
window title, clear the screen, colours, write the clipboard, C1 controls) and the bidi
and zero-width characters that reorder or hide text. Every place that shows such text,
on the command line (on a terminal and in a pipe) and in the app, shows each of them as
its escape (`\\x1b[2J`), and none reaches the terminal as it was; the consent dialog
refuses an agent whose spec holds one outright.

Each injected sequence follows a marker (`F3~` is the fourth sequence in the First
header), so that a test finds the sequence itself where it was injected, never one
of plyground's own colours, and finds its escaped form shown in its place."""
from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from plyground.core.errors import visible

ROOT = Path(__file__).resolve().parents[2]
FAKES = ROOT / "tests" / "fakes"

SEQUENCES = (
    "\x1b[2K\x1b[1G",  # erase the line, back to its start
    "\x1b[8m",  # conceal what follows
    "\x1b]0;pwned\x07",  # the window's title (OSC 0)
    "\x1b[2J\x1b[H",  # clear the screen
    "\x1b[31m",  # a colour
    "\x1b]52;c;ZWNobyBoaQ==\x07",  # write the clipboard (OSC 52)
    "\x9b2J",  # clear the screen by the C1 CSI
    "\u202e",  # right-to-left override
    "\u2066",  # left-to-right isolate
    "\u200b",  # zero-width space
)
# what plyground itself never writes, anywhere
NEVER = ("\x1b]0;", "\x1b]52;", "\x9b", "\u202e", "\u2066", "\u200b", "\x07", "\x1b[8m",
         "\x1b[2J")
TERMINAL = (60, 400)  # rows, columns: wide, so that no line of the test's folds


def hostile(tag: str, between: str = "") -> str:
    """Every sequence, each after its marker: `tag0~ESC[2K ESC[1G tag1~ESC[8m ...`
    (`between` them: a space lets a narrow column wrap between two)."""
    return between.join(f"{tag}{index}~{sequence}"
                        for index, sequence in enumerate(SEQUENCES))


def assert_shown_not_obeyed(output: str, tags: str) -> None:
    """Each sequence injected after a marker of `tags` is shown as its escape and
    reaches `output` nowhere as it was."""
    for tag in tags:
        for index, sequence in enumerate(SEQUENCES):
            marker = f"{tag}{index}~"
            assert marker + sequence not in output, \
                f"{sequence!r} (after {marker}) reached the terminal as it was"
            assert marker + visible(sequence) in output, \
                f"{sequence!r} (after {marker}) is not shown as its escape"
    for sequence in NEVER:
        assert sequence not in output, f"{sequence!r} reached the terminal"


# --- a record that holds them --------------------------------------------------------

def hostile_record_text() -> str:
    """A tic-tac-toe record: escapes in its players, date, an extra header, the result's
    reason and the comments."""
    return (f'[Game "tictactoe"]\n[First "{hostile("F")}"]\n[Second "{hostile("S")}"]\n'
            f'[Date "{hostile("D")}"]\n[Event "{hostile("E")}"]\n[Result "1-0"]\n'
            f'[Reason "{hostile("R")}"]\n\n'
            f'1. b2 {{{hostile("C")}}} a1 2. c3 {{{hostile("K")}}} 1-0\n')


@pytest.fixture
def stored(tmp_path, monkeypatch) -> int:
    """The hostile record imported into a history of the test's own; its id."""
    from plyground.core.records.history import History
    from plyground.core.records.record import parse_record

    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path / "home"))
    with History() as history:
        return history.add(parse_record(hostile_record_text()), "import")


# --- the command line: on a terminal and in a pipe ------------------------------------

def clean_env() -> dict[str, str]:
    env = {name: value for name, value in os.environ.items()
           if name not in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE",
                           "TERM", "COLUMNS", "LINES")}
    return {**env, "TERM": "xterm-256color", "COLUMNS": str(TERMINAL[1]),
            "LINES": str(TERMINAL[0])}


def on_a_terminal(*args: str, cwd: Path = ROOT, timeout: float = 180) -> str:
    """What `plyground args` writes to a terminal (a pty: stdout and stderr both), as
    the terminal receives it."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", *TERMINAL, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "plyground", *args], cwd=cwd,
                               stdin=slave, stdout=slave, stderr=slave, env=clean_env(),
                               close_fds=True)
    os.close(slave)
    received = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1.0)
            if not ready:
                if process.poll() is not None:
                    break
                continue
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the command closed the terminal (it ended)
                break
            if not data:
                break
            received += data
        else:
            raise AssertionError(f"plyground {' '.join(args)} did not end")
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=60)
        os.close(master)
    return received.decode("utf-8", errors="replace")


def in_a_pipe(*args: str, cwd: Path = ROOT) -> str:
    """What `plyground args` writes to a pipe, stdout then stderr."""
    done = subprocess.run([sys.executable, "-m", "plyground", *args], cwd=cwd,
                          capture_output=True, env=clean_env(), timeout=180)
    return (done.stdout + done.stderr).decode("utf-8", errors="replace")


RUN = {"terminal": on_a_terminal, "pipe": in_a_pipe}
COMMANDS = {  # what each shows of the record: the tags of the text it holds
    "games list": (["games", "list"], "FS"),  # (and the date, cut to 16 characters)
    "games show": (["games", "show", "{id}"], "FSDERCK"),
    "games export": (["games", "export", "{id}"], "FSDERCK"),
    "review": (["review", "{id}"], "FSR"),
}


@pytest.mark.parametrize("where", RUN)
@pytest.mark.parametrize("command", COMMANDS)
def test_the_commands_that_show_a_record_show_its_escapes(stored, command, where):
    args, tags = COMMANDS[command]
    output = RUN[where](*(arg.format(id=stored) for arg in args))
    assert "Traceback" not in output
    assert_shown_not_obeyed(output, tags)


def test_import_and_export_to_a_file_keep_the_record_as_it_was(tmp_path, monkeypatch):
    """A record is data: `games import` keeps its escapes, and `games export --out`
    writes them back as they were; printed, the same record shows them escaped."""
    from plyground.core.records.history import History

    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path / "home"))
    given, out = tmp_path / "given.txt", tmp_path / "kept.txt"
    given.write_text(hostile_record_text(), encoding="utf-8")
    in_a_pipe("games", "import", str(given))
    with History() as history:
        [game] = history.list()
        kept = history.text(game.id)
    assert hostile("F") in kept and hostile("C") in kept and hostile("E") in kept
    in_a_pipe("games", "export", str(game.id), "--out", str(out))
    assert out.read_text(encoding="utf-8") == kept
    printed = in_a_pipe("games", "export", str(game.id))
    assert_shown_not_obeyed(printed, "FC")


# --- the app: what its driver would write to the terminal -----------------------------

def screen_output(app) -> str:
    """The whole screen as the app's driver would write it to the terminal (the
    escape sequences of a full redraw), with the screens under a dialog."""
    update = app.screen._compositor.render_update(full=True,
                                                  screen_stack=app._background_screens)
    return update.render_segments(app.console)


def on_screen(app) -> str:
    """The screen's text as a person reads it, and as the driver writes it."""
    return app.export_screenshot() + screen_output(app)


async def test_the_games_screen_shows_a_records_escapes_in_its_table_and_detail(stored):
    from textual.app import App

    from plyground.tui.screens.games import GamesScreen
    from tests.tui.helpers import wait_until

    class GamesApp(App):
        def on_mount(self) -> None:
            self.push_screen(GamesScreen())

    app = GamesApp()
    async with app.run_test(size=(TERMINAL[1], 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen)
                         and app.screen.games)
        await pilot.pause()
        detail = str(app.screen.query_one("#games-detail").render())
        assert_shown_not_obeyed(detail, "FSR")  # the detail line: the game in full
        assert_shown_not_obeyed(screen_output(app), "FS")  # the table too
        for sequence in NEVER:
            assert sequence not in app.export_screenshot()


# --- an engine's name and info, a net's info -----------------------------------------

ENGINE = f"engine:cmd=\"{sys.executable} {FAKES / 'engine_escapes.py'}\",time=0.5"


@pytest.mark.parametrize("where", RUN)
def test_an_engines_name_and_info_are_shown_with_their_escapes(where):
    output = RUN[where]("analyze", "connect4", "--agent", ENGINE)
    assert "Traceback" not in output
    assert_shown_not_obeyed(output, "NI")  # its name (the label), its info string


def hostile_net(tmp_path: Path) -> Path:
    """A Connect 4 network whose info says it was trained on a game named with
    escapes."""
    from plyground.core import parse_game
    from plyground.core.agents.learned.net import Net, NetConfig, save_net

    encoding = parse_game("connect4").encoding()
    path = tmp_path / "net.npz"
    save_net(Net.new(NetConfig(encoding.shape, encoding.policy_size, channels=4,
                               blocks=1), 1), path, {"game": hostile("G")})
    return path


def test_the_refusal_of_a_net_for_another_game_shows_its_escapes(tmp_path):
    from plyground.core import PlygroundError, parse_game
    from plyground.core.agents.learned.agent import load_for

    with pytest.raises(PlygroundError) as refused:
        load_for(hostile_net(tmp_path), parse_game("connect4"))
    assert_shown_not_obeyed(str(refused.value), "G")  # as the app and the CLI say it


@pytest.mark.parametrize("where", RUN)
def test_the_command_line_says_a_nets_refusal_with_its_escapes(tmp_path, where):
    net = hostile_net(tmp_path)
    output = RUN[where]("analyze", "connect4", "--agent", f"az:net={net}")
    assert "error: " in output and "Traceback" not in output
    assert_shown_not_obeyed(output, "G")


# --- the app: the game screen, the result, the consent dialog ---------------------------

async def test_a_record_opened_in_the_app_shows_its_reason_with_its_escapes():
    """Its players name no agent (they are played by hand, as a notification says);
    its result's reason is the status line's and the result dialog's."""
    from plyground.core.records.record import parse_record
    from plyground.tui.screens.result import ResultScreen
    from tests.tui.helpers import make_app, record_notifications, status_text, wait_until

    app = make_app("tictactoe", record=parse_record(hostile_record_text()))
    said = record_notifications(app)
    async with app.run_test(size=(TERMINAL[1], 50)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        await pilot.pause()
        assert_shown_not_obeyed(status_text(app), "R")
        reason = str(app.screen.query_one("#result-reason").render())
        assert_shown_not_obeyed(reason, "R")
        for sequence in NEVER:
            assert sequence not in screen_output(app)
            assert sequence not in "\n".join(said)


async def test_the_result_dialog_shows_a_reason_with_its_escapes_and_no_markup():
    from textual.app import App

    from plyground.tui.screens.result import ResultScreen
    from tests.tui.helpers import wait_until

    class ResultApp(App):
        def on_mount(self) -> None:
            self.push_screen(ResultScreen("X wins", "[bold]loud[/bold] " + hostile("R")))

    app = ResultApp()
    async with app.run_test(size=(TERMINAL[1], 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        await pilot.pause()
        reason = str(app.screen.query_one("#result-reason").render())
        assert "[bold]loud[/bold]" in reason  # shown as written, not read as markup
        assert_shown_not_obeyed(reason, "R")
        for sequence in NEVER:
            assert sequence not in screen_output(app)


async def test_the_game_screen_shows_an_engines_name_and_info_with_their_escapes():
    """The players' bar and the inspector's title (its name, which ends in markup shown
    as written), the inspector (its info string)."""
    from textual.content import Content

    from plyground.tui.screens.game import GameScreen
    from tests.tui.helpers import make_app, wait_until

    app = make_app("connect4", sides=(ENGINE, "human"))
    async with app.run_test(size=(TERMINAL[1], 50)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen)
                         and len(app.game_screen.match.moves) == 1)
        await pilot.pause()
        players = str(app.screen.query_one("#players").render())
        assert_shown_not_obeyed(players, "N")
        title = Content.from_markup(app.game_screen.inspector.border_title).plain
        assert_shown_not_obeyed(title, "N")
        assert "[b]markup[/b]" in title
        assert_shown_not_obeyed(screen_output(app), "NI")


HIDDEN = "\x1b[2K\x1b[1G  runs the command python3 bots/alice.py\x1b[8m"


async def test_the_consent_dialog_never_asks_about_a_spec_that_hides_text(tmp_path,
                                                                         monkeypatch):
    """The review's record: its First header draws a harmless command over the one
    that would run. It is refused outright, its side played by hand, and the line that
    says so shows its escapes; the command never runs."""
    from plyground.core.records.record import parse_record
    from plyground.tui.screens.game import GameScreen
    from plyground.tui.screens.trust import TrustScreen
    from tests.tui.helpers import make_app, record_notifications, wait_until

    monkeypatch.chdir(tmp_path)
    spec = f'engine:cmd="touch {tmp_path / "started"}"{HIDDEN}'
    quoted = spec.replace("\\", "\\\\").replace('"', '\\"')
    record = parse_record(f'[Game "connect4"]\n[First "{quoted}"]\n\n1. 4 4 2. 3\n')
    app = make_app(record=record)
    said = record_notifications(app)
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, (GameScreen, TrustScreen)))
        assert not isinstance(app.screen, TrustScreen), "it asked about a hidden command"
        assert app.game_screen.match.sides == ("human", "human")
        [line] = [message for message in said if "Not run" in message]
        assert visible(HIDDEN) in line and "Never asked" in line
        assert "\x1b" not in line
    assert not (tmp_path / "started").exists()


async def test_the_consent_dialog_shows_what_would_run_one_argument_a_line(tmp_path,
                                                                          monkeypatch):
    from plyground.core.records.record import parse_record
    from plyground.tui.screens.trust import TrustScreen
    from tests.tui.helpers import make_app, wait_until
    from textual.widgets import Static

    monkeypatch.chdir(tmp_path)
    record = parse_record('[Game "connect4"]\n'
                          '[First "engine:cmd=\\"./carol \'--book=my book.txt\' -v\\""]\n'
                          '[Second "bots/mybot.py:MyBot"]\n\n1. 4 4\n')
    app = make_app(record=record)
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TrustScreen))
        lines = str(app.screen.query_one("#trust-what", Static).render()).splitlines()
        assert lines[:5] == ["engine:cmd=\"./carol '--book=my book.txt' -v\"",
                             "  runs the command:", "    ./carol",
                             "    '--book=my book.txt'", "    -v"]
        assert lines[5:8] == ["bots/mybot.py:MyBot",
                              "  runs the class MyBot of the Python file:",
                              f"    {tmp_path / 'bots' / 'mybot.py'}"]


async def test_a_lessons_titles_and_caption_are_shown_with_their_escapes(tmp_path):
    """A lesson file's title, scene title and caption (TOML writes each sequence as
    `\\u001b`, and the lesson reads back the characters)."""
    import json

    from plyground.core.study.lesson import load_lesson
    from plyground.tui.app import create_app
    from plyground.tui.screens.lesson import LessonScreen
    from tests.tui.helpers import wait_until

    path = tmp_path / "lesson.toml"
    path.write_text(f"title = {json.dumps(hostile('T'))}\n\n[[scene]]\n"
                    f"title = {json.dumps(hostile('U'))}\ngame = \"tictactoe\"\n"
                    f"position = \"b2 a1\"\nsides = [\"human\", \"human\"]\n"
                    f"caption = {json.dumps(hostile('P', ' '))}\n", encoding="utf-8")
    app = create_app(lesson=load_lesson(path), animations=False)
    async with app.run_test(size=(TERMINAL[1], 50)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LessonScreen))
        await pilot.pause()
        title = str(app.screen.query_one("#lesson-title").render())
        assert_shown_not_obeyed(title, "TU")
        output = screen_output(app)
        assert_shown_not_obeyed(output, "TUP")


# --- an agent's fault, said where a game ends ---------------------------------------

@pytest.fixture
def failing_bot(tmp_path) -> str:
    """A bot whose exception's message holds every sequence: its spec."""
    (tmp_path / "failing.py").write_text(
        "from plyground.core.agents.bot import Bot\n"
        f"WORDS = {hostile('B')!r}\n"
        "class Failing(Bot):\n"
        "    def decide(self, state, budget):\n"
        "        raise RuntimeError(WORDS)\n", encoding="utf-8")
    return f"{tmp_path / 'failing.py'}:Failing"


@pytest.mark.parametrize("where", RUN)
def test_a_forfeit_says_the_agents_fault_with_its_escapes(failing_bot, tmp_path, where):
    """demo's forfeit line, and a match's game lines and forfeits."""
    run = RUN[where]
    demo = run("demo", "connect4", "--x", failing_bot, "--o", "random", "--no-record",
               cwd=tmp_path)
    assert "Traceback" not in demo
    assert_shown_not_obeyed(demo, "B")
    match = run("match", "connect4", "--first", failing_bot, "--second", "random",
                "--games", "2", "--no-record", cwd=tmp_path)
    assert "forfeits" in match and "Traceback" not in match
    assert_shown_not_obeyed(match, "B")
