"""`plyground serve` admits only its own page: a real server on a free port of
127.0.0.1, asked by a real HTTP and websocket client (aiohttp's) as a page on another
site would ask it, and as its own page does. Nothing a refused request does may start
a copy of the app (the processes below the server are looked at)."""
from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from tests.processes import as_from_a_terminal, descendants, end_session, in_session, \
    still_running

WAIT_SECONDS = 60  # the most a server or an app may take to answer (a hang guard)
MARKER_AGENT = 'engine:cmd="touch {marker}"'


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Served:
    process: subprocess.Popen
    port: int
    token: str
    printed: str
    folder: Path | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def apps(self) -> set[int]:
        """The copies of the app running below the server."""
        found = set()
        for pid in descendants(self.process.pid):
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"--served" in command:
                found.add(pid)
        return found


def start(tmp_path: Path, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PLYGROUND_HOME": str(tmp_path / "home")}
    output = open(tmp_path / "serve.out", "wb")
    try:
        return subprocess.Popen([sys.executable, "-m", "plyground", "serve", *args],
                                env=env, stdout=output, stderr=subprocess.STDOUT,
                                start_new_session=True, preexec_fn=as_from_a_terminal)
    finally:
        output.close()


@contextmanager
def serving(tmp_path: Path, *args: str, host: str = "127.0.0.1"):
    port = free_port()
    process = start(tmp_path, "--host", host, "--port", str(port), *args)
    try:
        deadline = time.monotonic() + WAIT_SECONDS
        while not (found := re.search(r"\?token=(\S+)",
                                      (tmp_path / "serve.out").read_text())):
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError("the server did not start: "
                                     + (tmp_path / "serve.out").read_text())
            time.sleep(0.05)
        yield Served(process, port, found.group(1), (tmp_path / "serve.out").read_text())
    finally:
        end_session(process)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the tests that ask it one thing each; it allows one outside
    agent, a command that would leave a marker file if it ever ran."""
    folder = tmp_path_factory.mktemp("serve")
    agent = MARKER_AGENT.format(marker=folder / "marker")
    with serving(folder, "--allow-agent", agent,
                 "--save-dir", str(folder / "saved")) as served:
        served.folder = folder
        yield served
    assert not (folder / "marker").exists()
    # Ctrl-C, after sessions came and went, ends it cleanly, with Ctrl-C's code
    assert served.process.returncode == 130
    assert "Traceback" not in (folder / "serve.out").read_text()


def ask(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, WAIT_SECONDS))


async def get(url: str, **headers: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session:
        async with session.get(url, headers=headers) as response:
            return response.status, await response.text()


async def refused_websocket(url: str, **headers: str) -> int:
    """The status a websocket's handshake was refused with (fails if it got in)."""
    async with aiohttp.ClientSession() as session:
        try:
            websocket = await session.ws_connect(url, headers=headers)
        except aiohttp.WSServerHandshakeError as error:
            return error.status
        await websocket.close()
        raise AssertionError(f"{url} let the websocket in")


async def first_screen(session: aiohttp.ClientSession, url: str, **headers: str):
    """A websocket let in, and the first bytes the app (or the server) sent it."""
    websocket = await session.ws_connect(url + "?width=80&height=24", headers=headers)
    while True:
        message = await websocket.receive()
        if message.type == aiohttp.WSMsgType.BINARY:
            return websocket, message.data
        if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                            aiohttp.WSMsgType.ERROR):
            raise AssertionError(f"the websocket closed: {message}")


def test_the_page_needs_the_token_printed_at_start(server):
    assert server.printed.startswith(f"plyground serve: open {server.base}/?token=")
    for query in ("", "?token=", "?token=wrong" + server.token[5:]):
        status, page = ask(get(f"{server.base}/{query}"))
        assert status == 403 and "with its token" in page
    status, page = ask(get(f"{server.base}/?token={server.token}"))
    assert status == 200
    websocket = f"ws://127.0.0.1:{server.port}/ws/{server.token}"
    assert f'data-session-websocket-url="{websocket}"' in page


def test_a_name_that_points_here_from_elsewhere_is_refused(server):
    """A site whose name resolves to 127.0.0.1 (DNS rebinding) is still another site."""
    status, page = ask(get(f"{server.base}/?token={server.token}",
                           Host=f"evil.example.com:{server.port}"))
    assert status == 403 and "not as evil.example.com" in page


def test_a_websocket_without_the_right_token_is_refused_and_starts_nothing(server):
    before = server.apps()
    own = {"Origin": server.base}
    assert ask(refused_websocket(f"{server.base}/ws", **own)) == 403
    assert ask(refused_websocket(f"{server.base}/ws?token={server.token}", **own)) == 403
    assert ask(refused_websocket(f"{server.base}/ws/wrong{server.token}", **own)) == 403
    assert server.apps() - before == set()


@pytest.mark.parametrize("origin", [
    "http://evil.example.com", "http://127.0.0.1:1", "https://127.0.0.1:{port}",
    "http://localhost:{port}", "null"])
def test_a_foreign_origin_is_refused_even_with_the_token(server, origin):
    before = server.apps()
    url = f"{server.base}/ws/{server.token}"
    assert ask(refused_websocket(url, Origin=origin.format(port=server.port))) == 403
    assert server.apps() - before == set()
    assert not (server.folder / "marker").exists()


def test_its_own_page_gets_an_app_told_what_visitors_may_do(server):
    before = server.apps()

    async def visit():
        async with aiohttp.ClientSession() as session:
            websocket, shown = await first_screen(
                session, f"{server.base}/ws/{server.token}", Origin=server.base)
            started = server.apps() - before
            await websocket.close()
            return shown, started

    shown, started = ask(visit())
    assert shown  # the app's first output
    [app] = started
    command = Path(f"/proc/{app}/cmdline").read_bytes().split(b"\0")
    at = command.index(b"--served-allow-agent")
    assert command[at + 1].decode() == MARKER_AGENT.format(
        marker=server.folder / "marker")
    at = command.index(b"--served-save-dir")
    assert command[at + 1].decode() == str(server.folder / "saved")
    assert (server.folder / "saved").is_dir()


def test_a_program_that_sends_no_origin_needs_the_token_alone(server):
    """Browsers always send an Origin with a websocket: a socket without one is a
    program's, and the token is proof enough."""

    async def visit():
        async with aiohttp.ClientSession() as session:
            websocket, shown = await first_screen(
                session, f"{server.base}/ws/{server.token}")
            await websocket.close()
            return shown

    assert ask(visit())


def test_one_more_session_than_max_sessions_is_told_the_server_is_full(tmp_path):
    with serving(tmp_path, "--max-sessions", "1") as server:
        url, own = f"{server.base}/ws/{server.token}", {"Origin": server.base}
        page = f"{server.base}/?token={server.token}"

        async def crowd():
            async with aiohttp.ClientSession() as session:
                first, _ = await first_screen(session, url, **own)
                second, said = await first_screen(session, url, **own)
                apps = server.apps()
                status, text = await get(page)
                await second.close()
                await first.close()
                return said.decode(), apps, status, text

        said, apps, status, text = ask(crowd())
        full = "plyground serve is full: 1 of 1 sessions are open"
        assert full in said and "--max-sessions" in said
        assert len(apps) == 1
        assert status == 503 and full in text
        printed = (tmp_path / "serve.out").read_text().splitlines()
        assert "session 1 started for 127.0.0.1 (1 of 1 open: the server is full)" \
            in printed
        assert "a visitor from 127.0.0.1 was turned away: the server is full (1 of 1 " \
            "sessions open)" in printed
        # the first session's end frees its place
        deadline = time.monotonic() + WAIT_SECONDS
        while ask(get(page))[0] != 200:
            assert time.monotonic() < deadline, "the session's place was never freed"
            time.sleep(0.1)


def test_ctrl_c_while_a_visitor_plays_ends_all_of_it_cleanly(tmp_path):
    with serving(tmp_path) as server:

        async def interrupt():
            async with aiohttp.ClientSession() as session:
                websocket, _ = await first_screen(
                    session, f"{server.base}/ws/{server.token}", Origin=server.base)
                apps = server.apps()
                os.kill(server.process.pid, signal.SIGINT)
                while server.process.poll() is None:
                    await asyncio.sleep(0.05)
                await websocket.close()
                return apps

        apps = ask(interrupt())
        assert server.process.returncode == 130
        assert len(apps) == 1 and still_running(apps) == []
        assert still_running(in_session(server.process.pid)) == []
        assert "Traceback" not in (tmp_path / "serve.out").read_text()


def test_an_address_other_machines_reach_needs_public(tmp_path):
    port = free_port()
    result = subprocess.run([sys.executable, "-m", "plyground", "serve", "--host",
                             "0.0.0.0", "--port", str(port)], capture_output=True,
                            text=True, timeout=WAIT_SECONDS,
                            env={**os.environ, "PLYGROUND_HOME": str(tmp_path)})
    assert result.returncode == 2 and result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("error: --host 0.0.0.0: ") and "--public" in line
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_a_public_page_points_at_the_host_the_browser_used(tmp_path):
    with serving(tmp_path, "--public", host="0.0.0.0") as server:
        assert "0.0.0.0" not in server.printed.splitlines()[0]
        for host in (f"class.example.org:{server.port}", f"10.1.2.3:{server.port}"):
            status, page = ask(get(f"{server.base}/?token={server.token}", Host=host))
            assert status == 200 and "0.0.0.0" not in page
            assert f'data-session-websocket-url="ws://{host}/ws/{server.token}"' in page
        status, _ = ask(get(f"{server.base}/?token=wrong", Host="class.example.org"))
        assert status == 403
