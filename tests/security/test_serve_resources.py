"""What one visitor of `plyground serve` can take, and what the server's terminal
shows: each app ends when its visitor is idle too long or when it (with all it
starts) goes over its memory ceiling, each ended session is one line that says why,
a page that sends what no page sends is one line too, and the token never appears
after the address printed at start. A real server on 127.0.0.1, asked by aiohttp's
websocket client as its own page asks it (tests/security/test_serve.py's harness)."""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from plyground.core import PlygroundError
from plyground.core.agents.cgroup import folder, mounts
from plyground.core.agents.tree_box import TreeBox
from plyground.core.ranges import machine_memory
from plyground.tui.serve_box import GroupBox, members
from plyground.tui.serve_gate import MOST_HELD
from plyground.tui.serve_session import side
from plyground.tui.cli.serve_limits import idle_seconds, memory_ceiling
from tests.processes import in_session, still_running
from tests.security.test_serve import WAIT_SECONDS, ask, first_screen, get, serving


def output(served) -> str:
    return (served.folder / "serve.out").read_text()


def stopped(served) -> str:
    """What the server printed, once Ctrl-C has ended it."""
    served.process.send_signal(signal.SIGINT)
    served.process.wait(WAIT_SECONDS)
    return output(served)


def wait_for_line(served, text: str) -> str:
    """The server's line that holds `text`, once printed."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        for line in output(served).splitlines():
            if text in line:
                return line
        assert time.monotonic() < deadline, f"no line with {text!r}: {output(served)}"
        time.sleep(0.1)


async def told(websocket) -> str:
    """What the page's terminal is shown until the server closes its socket."""
    shown = b""
    while True:
        message = await websocket.receive()
        if message.type == aiohttp.WSMsgType.BINARY:
            shown += message.data
            if b"Reload the page" in shown:
                await websocket.close()
                return shown.decode(errors="replace")
        elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                              aiohttp.WSMsgType.ERROR):
            return shown.decode(errors="replace")


async def page_told(server) -> str:
    """A page opened that sends nothing: what its terminal was shown, from the app's
    first screen to the server's word on why its session ended."""
    async with aiohttp.ClientSession() as session:
        websocket = await session.ws_connect(
            f"{server.base}/ws/{server.token}?width=80&height=24",
            headers={"Origin": server.base})
        return await told(websocket)


@pytest.fixture
def served(tmp_path):
    def start(*args: str):
        context = serving(tmp_path, *args)
        server = context.__enter__()
        server.folder = tmp_path
        started.append(context)
        return server

    started: list = []
    yield start
    for context in started:
        context.__exit__(None, None, None)


def visit(server, then):
    """A page opened on `server`, its first screen read, then `then(websocket)`."""
    async def go():
        async with aiohttp.ClientSession() as session:
            websocket, _ = await first_screen(
                session, f"{server.base}/ws/{server.token}", Origin=server.base)
            return await then(websocket)
    return ask(go())


def test_the_token_is_never_printed_after_the_address(served):
    half = machine_memory() // 2 >> 20
    server = served("--max-memory", f"{half}M")  # 4 sessions of it: too much
    assert "lower --max-sessions" in wait_for_line(server, "Note: 4 sessions at")

    async def close(websocket):
        await websocket.close()

    for query in (f"?token={server.token}", f"?token={server.token}&fontsize=20",
                  "?token=wrong"):
        ask(get(f"{server.base}/{query}"))
    ask(get(f"{server.base}/static/js/textual.js?token={server.token}"))
    visit(server, close)
    printed = stopped(server)
    assert printed.count(server.token) == 1, printed  # in the address, only
    assert printed.splitlines()[0].endswith(server.token)
    assert "GET /ws/… 101" in printed and "GET / 200" in printed
    assert "session 1 ended: the page was closed" in printed.splitlines()


MALFORMED = [  # what no page sends, and what the server's line says of it
    ("not json", "not JSON"),
    ('{"stdin": "x"}', "not a list that starts with its type"),
    ('["stdin", 5]', "stdin that is not text"),
    ('["resize", 5]', "a resize without a width and height"),
    ('["resize", {"width": 100000000, "height": 24}]', "a resize without"),
]


def test_a_message_no_page_sends_is_one_line_and_ends_its_session(served):
    """Each in a session of its own, on one server."""
    server = served()

    async def send(message):
        async with aiohttp.ClientSession() as session:
            websocket = await session.ws_connect(f"{server.base}/ws/{server.token}",
                                                 headers={"Origin": server.base})
            await websocket.send_str(message)
            await told(websocket)

    for message, _ in MALFORMED:
        ask(send(message))
    printed = stopped(server)
    assert "Traceback" not in printed and "locals" not in printed
    ended = [line for line in printed.splitlines() if " ended: " in line]
    assert len(ended) == len(MALFORMED)
    for number, (_, why) in enumerate(MALFORMED, 1):
        assert any(line.startswith(f"session {number} ended: the page sent a malformed "
                                   f"message ({why}") for line in ended), (why, ended)
    assert still_running(in_session(server.process.pid)) == []


def test_a_broken_frame_is_one_line(served):
    """Raw bytes that are no websocket frame, after a real handshake."""
    server = served()

    async def garbage():
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(f"GET /ws/{server.token} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}"
                     "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key:"
                     " dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                     .encode())
        assert b" 101 " in await reader.readuntil(b"\r\n\r\n")
        writer.write(b"\xff\xff\xff\xff garbage \x1b[2J" * 8)
        await reader.read()  # until the server closes it
        writer.close()

    ask(garbage())
    printed = stopped(server)
    assert "Traceback" not in printed and "\x1b" not in printed
    [line] = [line for line in printed.splitlines() if line.startswith("session 1 ended")]
    assert line.startswith("session 1 ended: the page sent a malformed message (a "
                           "broken frame"), line


def test_an_idle_visitor_s_app_is_ended_and_its_place_freed(served):
    server = served("--idle", "0.05", "--max-sessions", "1")  # 3 seconds
    before = server.apps()
    shown = ask(page_told(server))
    assert "plyground serve ended this session: idle for 3 seconds" in shown
    printed = output(server).splitlines()
    assert "session 1 started for 127.0.0.1 (1 of 1 open: the server is full)" in printed
    assert wait_for_line(server, "session 1 ended") == "session 1 ended: idle for 3 seconds"
    assert still_running(server.apps() - before) == []
    status, _ = ask(get(f"{server.base}/?token={server.token}"))
    assert status == 200  # its place is free


@pytest.mark.parametrize("cgroups", ["a control group where there is one", "measured"])
def test_an_app_over_its_memory_ceiling_is_ended_and_said(served, monkeypatch, cgroups):
    """A ceiling below what the app itself needs to start (about 75 MB): the app
    goes over it as it imports, and its session ends with the reason; held by a
    control group (where the system gives one), or measured by the server."""
    if cgroups == "measured":
        monkeypatch.setenv("PLYGROUND_NO_CGROUP", "1")
    server = served("--max-memory", "32M")
    if cgroups == "measured":
        wait_for_line(server, "No control group here")
    before = server.apps()
    shown = ask(page_told(server))
    assert "ended this session: over its memory ceiling (32 MiB)" in shown
    line = wait_for_line(server, "session 1 ended")
    assert line == "session 1 ended: over its memory ceiling (32 MiB)"
    assert still_running(server.apps() - before) == []


@pytest.mark.parametrize("check, value, said", [
    (idle_seconds, float("inf"), "--idle inf: minutes from"),
    (idle_seconds, 0.0, "--idle 0: minutes from"),
    (idle_seconds, 0.01, "--idle 0.01: minutes from"),
    (idle_seconds, 100000.0, "--idle 100000: minutes from"),
    (idle_seconds, float("nan"), "--idle nan: minutes from"),
    (memory_ceiling, "lots", "--max-memory 'lots' is not a memory size"),
    (memory_ceiling, "1K", "--max-memory '1K' is less than 16 MiB"),
    (memory_ceiling, "99999T", "--max-memory '99999T' is more than this machine's memory"),
])
def test_a_limit_out_of_its_range_is_refused(check, value, said):
    with pytest.raises(PlygroundError) as refused:
        check(value)
    assert str(refused.value).startswith(said)


def test_a_page_asks_for_a_terminal_of_1_to_1000_cells_a_side():
    assert side("100000000", 80) == 1000 and side("-5", 24) == 1
    assert side("x", 80) == 80 and side(None, 24) == 24 and side("132", 80) == 132


def test_a_limit_out_of_its_range_is_one_error_line(tmp_path):
    result = subprocess.run([sys.executable, "-m", "plyground", "serve", "--idle", "inf"],
                            capture_output=True, text=True, timeout=WAIT_SECONDS,
                            env={**os.environ, "PLYGROUND_HOME": str(tmp_path)})
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == ["error: Invalid value for '--idle': Input "
                                          "should be less than or equal to 1440"]
    assert idle_seconds(0.05) == 3 and memory_ceiling("1.5G") == 3 << 29


def test_each_app_runs_in_a_control_group_that_holds_its_ceiling(served):
    """Where the system gives one: the app's group, limited to the ceiling, holds all
    the app starts (the kernel puts a child in its parent's group)."""
    probe = TreeBox.make("probe", 1 << 30)
    probe.end()
    if not probe.bounded:
        pytest.skip(probe.note)
    server = served("--max-memory", "256M")
    before = server.apps()

    async def look(websocket):
        [app] = server.apps() - before
        groups = dict(line.split(":", 2)[1:] for line in
                      Path(f"/proc/{app}/cgroup").read_text().splitlines())
        v1, v2 = mounts()
        if "memory" in v1:
            limit = folder(v1["memory"], groups["memory"]) / "memory.limit_in_bytes"
        else:
            limit = folder(v2, groups[""]) / "memory.max"
        await websocket.close()
        return groups, limit.read_text().strip()

    groups, limit = visit(server, look)
    assert "plyground-" in groups.get("memory", groups.get("")), groups
    assert int(limit) == 256 << 20


def test_without_a_control_group_the_app_and_all_below_it_are_measured_and_ended():
    """The fallback box: a grandchild's memory counts, and the end takes it too."""
    grandchild = ("import os, time\n"
                  "if os.fork() == 0:\n"
                  "    kept = b'x' * (64 << 20)\n"
                  "time.sleep(60)\n")
    child = subprocess.Popen([sys.executable, "-c", grandchild], process_group=0)
    try:
        box = GroupBox(32 << 20)
        box.add(child.pid)
        deadline = time.monotonic() + WAIT_SECONDS
        while not box.over_memory():
            assert time.monotonic() < deadline, "the grandchild's memory was not counted"
            time.sleep(0.05)
        tree = members(child.pid)
        assert len(tree) == 2
        box.end()
        child.wait(WAIT_SECONDS)
        assert still_running(tree) == []
    finally:
        child.kill()
        child.wait()


def test_sockets_kept_only_to_say_the_server_is_full_are_bounded(served):
    """Past MOST_HELD of them, a page is refused before its socket opens: one visitor
    cannot hold the server's connections (and files) open by the thousand."""
    server = served("--max-sessions", "1")
    url, own = f"{server.base}/ws/{server.token}", {"Origin": server.base}

    async def crowd():
        async with aiohttp.ClientSession() as session:
            first, _ = await first_screen(session, url, **own)
            held = [(await first_screen(session, url, **own))[0]
                    for _ in range(MOST_HELD)]
            try:
                await session.ws_connect(url, headers=own)
            except aiohttp.WSServerHandshakeError as error:
                status = error.status
            else:
                status = 101
            for websocket in [first, *held]:
                await websocket.close()
            return status

    assert ask(crowd()) == 503
    assert output(server).count("was turned away: the server is full") == MOST_HELD + 1
