"""Ctrl-C in any CLI command (issue 17, item 6): the command ends with code 130 and a
line that says so, prints no traceback, leaves none of its processes running and no
partial file. Each command runs for real, as the leader of a session of its own, and
gets SIGINT as a terminal sends it: to every process of its group, workers too.

Each is interrupted at a moment its output marks (it is at work, its workers started),
and one is interrupted while Python is still loading the CLI (the marker: numpy is in
its memory, so the CLI's imports have begun)."""
from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from plyground.core.agents.learned.net import load_net
from plyground.core.ga.profile import load_profile
from tests.processes import as_from_a_terminal, descendants, in_session, still_running
from tests.security.test_serve import free_port

RECORD = """[Game "connect4"]

1. 3 5 2. 2 4 3. 1 7 4. 6 3 5. 2 5 6. 2 4
"""


@dataclass
class Case:
    args: list[str]
    # text in stdout or stderr once the command is at work; "" for a command that
    # prints nothing until it is done (analyze, review)
    at_work: str
    stdin: str | None = None


CASES = {
    "demo": Case(["demo", "connect4", "--x", "mcts:time=1", "--o", "alphabeta:time=1",
                  "--seed", "1"], "1. X plays"),
    "match": Case(["match", "connect4", "--first", "greedy", "--second", "mcts:time=0.3",
                   "--games", "40", "--jobs", "2", "--seed", "1"], "[1/40"),
    "tournament": Case(["tournament", "connect4", "--agents", "greedy", "random",
                        "mcts:time=0.3", "--games", "10", "--jobs", "2", "--seed", "1"],
                       "[1/30"),
    "train": Case(["train", "connect4-ga", "--population", "4", "--survivors", "2",
                   "--generations", "200", "--jobs", "2", "--seed", "1", "--out",
                   "best.json"], "generation   1"),
    "analyze": Case(["analyze", "connect4", "--agent", "alphabeta:time=60"], ""),
    "perft": Case(["perft", "connect4", "--depth", "30"], "\n5 "),
    "solve": Case(["solve", "connect4"], "\n", stdin="4453\n"),  # then waits for more
    "build a book": Case(["solve", "connect4", "--build-book", "8", "--jobs", "2",
                          "--out", "book.json"], "1/"),
    "review": Case(["review", "game.txt", "--agent", "alphabeta:time=30"], ""),
}


class Command:
    """A `plyground` command running in `folder`, its output gathered as it comes."""

    def __init__(self, args: list[str], folder: Path, stdin: str | None) -> None:
        env = {**os.environ, "PLYGROUND_HOME": str(folder / "home"),
               "PLYGROUND_PROFILES": str(folder / "profiles"), "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "plyground", *args], cwd=folder, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True, preexec_fn=as_from_a_terminal)
        if stdin is not None:
            self.process.stdin.write(stdin.encode())
            self.process.stdin.flush()  # and left open: solve waits for the next line
        self.output = {"stdout": b"", "stderr": b""}
        self.readers = [threading.Thread(target=self.gather, args=(name,), daemon=True)
                        for name in self.output]
        for reader in self.readers:
            reader.start()

    def gather(self, name: str) -> None:
        stream = getattr(self.process, name)
        while chunk := stream.read1(65536):
            self.output[name] += chunk

    def text(self, name: str) -> str:
        return self.output[name].decode(errors="replace")

    def wait_until(self, holds, what: str, seconds: float = 240) -> None:
        deadline = time.monotonic() + seconds
        while not holds():
            assert self.process.poll() is None, (
                f"it ended before {what}: {self.text('stderr')[-2000:]}")
            assert time.monotonic() < deadline, f"never {what}"
            time.sleep(0.05)

    def ctrl_c(self) -> int:
        """Ctrl-C, as a terminal sends it; the exit code once the command ends."""
        os.killpg(self.process.pid, signal.SIGINT)
        code = self.process.wait(timeout=120)
        for reader in self.readers:
            reader.join(timeout=10)
        self.process.stdin.close()
        return code

    def left_running(self) -> list[int]:
        """Its processes still running after a while (as soon as none is)."""
        return still_running(in_session(self.process.pid))

    def kill(self) -> None:
        for pid in in_session(self.process.pid):
            os.kill(pid, signal.SIGKILL)


def loading_the_cli(pid: int) -> bool:
    """Whether the process has begun to import the CLI: numpy, which the CLI's games
    load and Python's start does not, is in its memory."""
    try:
        with open(f"/proc/{pid}/maps") as maps:
            return "numpy" in maps.read()
    except OSError:
        return False


def check_files(folder: Path) -> None:
    """No temporary file is left, and every JSON file written reads whole."""
    for path in folder.rglob("*"):
        assert not path.name.endswith(".tmp"), f"left behind: {path}"
        if path.suffix == ".json" or path.name.endswith(".json.partial"):
            json.loads(path.read_text())


@pytest.mark.parametrize("name", CASES)
def test_ctrl_c_at_work(name, tmp_path):
    case = CASES[name]
    (tmp_path / "game.txt").write_text(RECORD)
    command = Command(case.args, tmp_path, case.stdin)
    try:
        if case.at_work:
            command.wait_until(lambda: case.at_work in command.text("stdout")
                               + command.text("stderr"), f"printed {case.at_work!r}")
        else:  # most likely searching by then; were it still loading, the checks
            command.wait_until(lambda: loading_the_cli(command.process.pid),  # hold too
                               "began to load the CLI")
            time.sleep(4)
        code = command.ctrl_c()
        stderr = command.text("stderr")
        assert "Traceback" not in stderr, stderr
        assert code == 130, stderr
        assert "interrupted" in stderr.lower() or "stopped" in stderr, stderr
        assert command.left_running() == []
        check_files(tmp_path)
    finally:
        command.kill()
    if name == "train":  # what it saves is whole and loads: the best profile so far
        assert load_profile(tmp_path / "best.json")
        assert load_profile(tmp_path / "profiles" / "best.json")
    if name == "build a book":  # the progress, kept to go on from; no book yet
        assert not (tmp_path / "book.json").exists()


def test_ctrl_c_while_loading(tmp_path):
    """Before any command runs, Python is importing the CLI: Ctrl-C then too gives
    the line, not a traceback of whatever import it cut short. (Should the imports be
    over by the time the signal comes, the match says it was interrupted instead.)"""
    command = Command(CASES["match"].args, tmp_path, None)
    try:
        command.wait_until(lambda: loading_the_cli(command.process.pid),
                           "began to load the CLI")
        code = command.ctrl_c()
        stderr = command.text("stderr")
        assert "Traceback" not in stderr, stderr
        assert code == 130, stderr
        assert "interrupted" in stderr, stderr
        assert command.left_running() == []
    finally:
        command.kill()


def test_ctrl_c_while_the_workers_load(tmp_path):
    """The match's workers take a second to import before they can ignore SIGINT, and
    Ctrl-C reaches them too: they start with it blocked, so none prints a traceback."""
    command = Command(CASES["match"].args, tmp_path, None)
    try:
        command.wait_until(lambda: descendants(command.process.pid), "started a worker")
        code = command.ctrl_c()
        stderr = command.text("stderr")
        assert "Traceback" not in stderr, stderr
        assert code == 130, stderr
        assert command.left_running() == []
    finally:
        command.kill()


# On a terminal: Ctrl-C is the byte ^C typed into it, which the terminal turns into
# SIGINT for the command's process group, and the command says at once, before it
# waits for anything, that it is stopping.

HANG_GUARD = 90  # seconds: far more than a stop takes, far less than the waits it cut
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def terminal_of_its_own() -> None:
    """In the child: a session whose controlling terminal is its stdin, SIGINT at its
    default as a shell leaves it."""
    as_from_a_terminal()
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class OnATerminal:
    """A `plyground` command on a pseudo-terminal of 100x24, what it shows gathered
    as it comes."""

    def __init__(self, args: list[str], folder: Path) -> None:
        self.leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
        env = {**os.environ, "PLYGROUND_HOME": str(folder / "home"), "TERM": "xterm"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "plyground", *args], cwd=folder, env=env,
            stdin=follower, stdout=follower, stderr=follower,
            preexec_fn=terminal_of_its_own)
        os.close(follower)
        self.shown = b""
        self.reader = threading.Thread(target=self.gather, daemon=True)
        self.reader.start()

    def gather(self) -> None:
        while True:
            try:
                chunk = os.read(self.leader, 65536)
            except OSError:  # every process of the command has let go of it
                return
            if not chunk:
                return
            self.shown += chunk

    def text(self) -> str:
        """What it showed, its escapes left out."""
        return ESCAPES.sub("", self.shown.decode(errors="replace")).replace("\r", "\n")

    def tail(self) -> str:
        return self.text()[-1500:]

    def wait_until(self, holds, what: str) -> None:
        deadline = time.monotonic() + 240
        while not holds():
            assert self.process.poll() is None, f"it ended before {what}: {self.tail()}"
            assert time.monotonic() < deadline, f"never {what}: {self.tail()}"
            time.sleep(0.05)

    def ctrl_c(self) -> int:
        """^C typed; the exit code once the command has ended (fails past the hang
        guard)."""
        os.write(self.leader, b"\x03")
        try:
            code = self.process.wait(timeout=HANG_GUARD)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running {HANG_GUARD} s after Ctrl-C: "
                                 f"{self.tail()}") from None
        self.reader.join(timeout=10)
        return code

    def end(self) -> None:
        for pid in in_session(self.process.pid):
            os.kill(pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        os.close(self.leader)


def stopped_in_order(text: str, last: str) -> None:
    """The stopping line, then the line the command ends with, and no traceback."""
    assert "Traceback" not in text, text
    assert "stopping" in text and last in text, text
    assert text.index("stopping") < text.index(last), text


AZ_TINY = ["--channels", "1", "--blocks", "1", "--steps", "1", "--batch", "4",
           "--buffer", "64", "--jobs", "2", "--seed", "1"]


def test_train_az_stops_its_games_under_way_at_once(tmp_path):
    """Each self-play game here would take many minutes (a million simulations a
    move): Ctrl-C cuts the games under way short instead of waiting for them."""
    command = OnATerminal(["train", "az", "connect4", "--out", "net.npz",
                           "--generations", "1", "--games-per-generation", "2",
                           "--sims", "1000000", "--eval-pairs", "0", *AZ_TINY], tmp_path)
    try:
        command.wait_until(lambda: "elapsed" in command.text()  # (its table's header)
                           and len(descendants(command.process.pid)) >= 2,
                           "started its workers")
        time.sleep(3)  # the games under way
        code = command.ctrl_c()
        text = command.text()
        assert code == 130, text
        stopped_in_order(text, "interrupted during generation 1: nothing saved")
        assert still_running(in_session(command.process.pid)) == []
        assert not (tmp_path / "net.npz").exists()
    finally:
        command.end()


def test_train_az_keeps_the_last_accepted_net(tmp_path):
    command = OnATerminal(["train", "az", "tictactoe", "--out", "net.npz",
                           "--minutes", "10", "--games-per-generation", "4",
                           "--sims", "8", "--eval-pairs", "0", *AZ_TINY], tmp_path)
    accepted = re.compile(r"^ +(\d+) +[\d,]+ .* accepted ", re.MULTILINE)
    try:
        command.wait_until(lambda: len(accepted.findall(command.text())) >= 2,
                           "accepted two generations")
        code = command.ctrl_c()
        text = command.text()
        assert code == 130, text
        stopped_in_order(text, "interrupted during generation")
        said = re.search(r"net.npz keeps the last accepted net \(generation (\d+)\)",
                         text)
        assert said, text
        # the last generation said is the one kept (every one is accepted here)
        assert int(said[1]) == int(accepted.findall(text)[-1]) >= 2
        assert load_net(tmp_path / "net.npz")[1]["generation"] == int(said[1])
        check_files(tmp_path)
    finally:
        command.end()


def test_serve_says_it_stops_and_exits_with_ctrl_c_code(tmp_path):
    command = OnATerminal(["serve", "--port", str(free_port())], tmp_path)
    try:
        command.wait_until(lambda: "Ctrl+C stops it" in command.text(), "listened")
        code = command.ctrl_c()
        text = command.text()
        assert code == 130, text
        assert "Traceback" not in text, text
        [line] = [line for line in text.splitlines() if "interrupted" in line]
        assert "the server stops" in line, text
        assert still_running(in_session(command.process.pid)) == []
    finally:
        command.end()
