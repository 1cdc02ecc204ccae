"""The app started with no terminal (from a script, its input from /dev/null) says
in one line that it needs one, names the commands that do not, and exits with code 2,
instead of waiting, busy, for keys that never come; in a terminal it opens as ever.
(`serve` runs it without a terminal too, under textual-serve's web driver: see
tests/security/test_serve.py and tests/tui/test_browser.py.)"""
from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time

import pytest

from plyground.core import get_game
from plyground.core.records.tree import GameTree
from plyground.core.records.record import GameRecord, save_record
from plyground.tui.terminal import NO_TERMINAL

HANG_GUARD = 120  # seconds: a hang fails the test, however busy the machine


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    return tmp_path


def plyground(*args: str, **streams) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "plyground", *args], **streams)


@pytest.mark.parametrize("args", [
    (), ("play", "connect4"), ("play", "quarto", "--x", "human", "--o", "greedy"),
    ("play", "connect4", "--load", "{record}"), ("lesson", "run", "minimax")])
def test_without_a_terminal_it_says_so_in_one_line(home, args):
    record = home / "game.txt"
    game = get_game("connect4")
    save_record(record, GameRecord(game, GameTree.from_moves(game.start(), [3]),
                                   ("human", "human")))
    args = [arg.format(record=record) for arg in args]
    process = plyground(*args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True)
    try:
        out, err = process.communicate(timeout=HANG_GUARD)
    finally:
        process.kill()
    assert process.returncode == 2
    assert err.splitlines()[-1] == f"error: {NO_TERMINAL}"
    assert "Traceback" not in err and out == ""


def in_a_terminal() -> tuple[int, int]:
    """A pseudo-terminal of 160×50: (leader, follower)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 160, 0, 0))
    return leader, follower


def controlled_by_stdin() -> None:
    """In the child: a session of its own, whose controlling terminal is its stdin."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def read_until(leader: int, done) -> bytes:
    """What the app draws, until `done(drawn)` (or the hang guard)."""
    drawn, deadline = b"", time.monotonic() + HANG_GUARD
    while not done(drawn) and time.monotonic() < deadline:
        if select.select([leader], [], [], 0.2)[0]:
            try:
                drawn += os.read(leader, 65536)
            except OSError:  # the app ended: the terminal has no other end
                break
    return drawn


def test_in_a_terminal_it_opens_and_quits(home):
    leader, follower = in_a_terminal()
    process = plyground("play", "connect4", "--x", "human", "--o", "human",
                        stdin=follower, stdout=follower, stderr=follower,
                        env={**os.environ, "TERM": "xterm-256color"},
                        preexec_fn=controlled_by_stdin)
    os.close(follower)
    try:
        drawn = read_until(leader, lambda drawn: b"Connect 4" in drawn)
        assert b"Connect 4" in drawn and b"needs a terminal" not in drawn
        os.write(leader, b"\x11")  # ctrl+q
        read_until(leader, lambda drawn: process.poll() is not None)
        assert process.wait(timeout=HANG_GUARD) == 0
    finally:
        process.kill()
        os.close(leader)
