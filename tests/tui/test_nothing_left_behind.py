"""The app in a real terminal (a pty): quitting it while its agents think, or closing
its terminal, ends it and leaves none of its processes running (issue 17, item 6)."""
from __future__ import annotations

import os
import pty
import select
import signal
import sys
import time

import pytest

from tests.processes import as_from_a_terminal, descendants, running, still_running

WATCH = ["play", "connect4", "--x", "mcts:time=30", "--o", "mcts:time=30"]


def read_for(fd: int, seconds: float) -> bytes:
    """What the terminal shows over `seconds` (the app must keep drawing)."""
    out, deadline = b"", time.monotonic() + seconds
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                out += os.read(fd, 65536)
            except OSError:
                break
    return out


def wait_for_exit(pid: int, fd: int | None, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if fd is None:
            time.sleep(0.1)
        else:
            read_for(fd, 0.1)  # a full pty would block the app's last writes
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            return True
    return False


@pytest.mark.parametrize("how", ["quit with q", "close the terminal"])
def test_the_app_leaves_no_process_behind(how, tmp_path):
    env = {**os.environ, "PLYGROUND_HOME": str(tmp_path), "TERM": "xterm-256color",
           "COLUMNS": "120", "LINES": "40"}
    pid, fd = pty.fork()
    if pid == 0:  # the child: the app, in the pty
        os.chdir(tmp_path)
        as_from_a_terminal()
        os.execve(sys.executable, [sys.executable, "-m", "plyground", *WATCH], env)
    try:
        deadline = time.monotonic() + 90
        below: set[int] = set()
        while time.monotonic() < deadline and not below:  # its engine has started
            read_for(fd, 0.5)
            below = {p for p in descendants(pid) if running(p)}
        assert below, "the app started no engine process"
        read_for(fd, 2.0)  # the agents are thinking (30 s a move)
        below |= descendants(pid)
        if how == "quit with q":
            os.write(fd, b"q")
            assert wait_for_exit(pid, fd, 30)
        else:
            os.close(fd)  # the terminal goes away: the app gets a hangup
            assert wait_for_exit(pid, None, 30)
        assert still_running(below) == []
    finally:
        if running(pid):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        if how == "quit with q":
            os.close(fd)
