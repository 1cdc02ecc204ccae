"""One visitor's session of `plyground serve`: its app, what the page sends it, and
what ends it.

textual-serve starts the app through a shell, ends it only by asking it to quit, keeps
everything it writes to stderr, and reads the page's messages without checking them:
a message that is not what its page sends ends in a traceback on the server's terminal,
an app that ignores the quit is never ended, and one that dies leaves its session held.
Here a session ends, and says why in one line, when:
- the page goes (or the app quits);
- the visitor has sent nothing (no key, no click, no resize) for the idle time;
- the app and what it started went over their memory ceiling (serve_box);
- the page sends a frame or a message its page never sends;
- the app ends by itself.
Then all of the app's processes are ended (its box), and the session's place is free.
"""
from __future__ import annotations

import asyncio
import ctypes  # noqa: F401 - loaded before any fork: the child's prctl needs it
import json
import os
import shlex
import signal
import time
from collections import deque
from typing import Any

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService

from plyground.core.agents.box import end_with_parent
from plyground.core.errors import visible

from .serve_box import AppBox, ceiling_words

LARGEST_SIDE = 1000  # cells: the widest or tallest terminal a page may ask for
QUIT_SECONDS = 5  # how long an app asked to quit has before it is ended
STDERR_KEPT = 4096  # bytes: the end of what an app wrote to stderr, for its last line


class Malformed(Exception):
    """The page sent something its page never sends."""


def side(value: Any, default: int) -> int:
    """A terminal's width or height as asked, within 1 to LARGEST_SIDE."""
    try:
        return min(max(int(value), 1), LARGEST_SIDE)
    except (TypeError, ValueError):
        return default


def envelope(message: Any) -> tuple[str, Any]:
    """A text message from the page: its type and its data, checked as the page sends
    them (`["stdin", text]`, `["resize", {"width": w, "height": h}]`, `["ping", x]`,
    `["focus"]`, `["blur"]`)."""
    try:
        parsed = json.loads(message)
    except ValueError:
        raise Malformed("not JSON") from None
    if not (isinstance(parsed, list) and parsed and isinstance(parsed[0], str)):
        raise Malformed("not a list that starts with its type")
    kind, data = parsed[0], parsed[1] if len(parsed) > 1 else None
    if kind == "stdin" and not isinstance(data, str):
        raise Malformed("stdin that is not text")
    if kind == "resize" and not (
            isinstance(data, dict) and all(isinstance(data.get(key), int) and
                                           1 <= data[key] <= LARGEST_SIDE
                                           for key in ("width", "height"))):
        raise Malformed("a resize without a width and height")
    return kind, data


def duration_words(seconds: float) -> str:
    """`30 minutes`, `1 minute`, `3 seconds`, `1.5 minutes`."""
    if seconds < 60:
        amount, unit = seconds, "second"
    else:
        amount, unit = seconds / 60, "minute"
    amount = round(amount, 2)
    number = f"{amount:g}"
    return f"{number} {unit}" if amount == 1 else f"{number} {unit}s"


class AppProcess(AppService):
    """textual-serve's app service, its app started with no shell, as the leader of a
    process group of its own, in its box; what it writes to stderr is kept (the end
    of it) for the line that says why it ended, not printed raw."""

    def __init__(self, command: str, box: AppBox, **kwargs: Any) -> None:
        super().__init__(command, **kwargs)
        self.box = box
        self.server = os.getpid()
        self.stderr: deque[bytes] = deque()
        self.stderr_size = 0
        self.stderr_task: asyncio.Task[None] | None = None
        self.quit = False  # whether the app said it quits (the visitor quit it)
        self.ending = False  # whether the server is ending it (the page is told why)

    async def on_meta(self, data: bytes) -> None:
        try:
            exits = json.loads(data).get("type") == "exit"
        except (ValueError, AttributeError):
            exits = False
        self.quit = self.quit or exits and not self.ending
        if not (exits and self.ending):  # its exit would close the page's socket
            await super().on_meta(data)

    async def _open_app_process(self, width: int = 80, height: int = 24):
        process = await asyncio.create_subprocess_exec(
            *shlex.split(self.command), stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width=width, height=height),
            process_group=0, preexec_fn=self.before_exec)
        self._process = process
        self.box.add(process.pid)
        assert process.stdin is not None and process.stderr is not None
        self._stdin = process.stdin
        # textual-serve's reader would keep all of stderr and print it raw
        self.stderr_task = asyncio.create_task(self.keep_stderr(process.stderr))
        finished = asyncio.StreamReader()
        finished.feed_eof()
        process.stderr = finished
        return process

    def before_exec(self) -> None:
        """In the app's process: killed if the server dies (its apps must not outlive
        it), and put in its box."""
        end_with_parent(self.server, signal.SIGKILL)
        self.box.preexec()

    async def keep_stderr(self, stream: asyncio.StreamReader) -> None:
        while data := await stream.read(STDERR_KEPT):
            self.stderr.append(data)
            self.stderr_size += len(data)
            while self.stderr_size - len(self.stderr[0]) >= STDERR_KEPT:
                self.stderr_size -= len(self.stderr.popleft())

    def last_words(self) -> str:
        """The last line the app wrote to stderr, made safe to show ('' if none)."""
        lines = b"".join(self.stderr).decode("utf-8", "replace").splitlines()
        said = [line.strip() for line in lines if line.strip()]
        return visible(said[-1][:200]) if said else ""

    @property
    def process(self) -> asyncio.subprocess.Process:
        assert self._process is not None
        return self._process

    async def finish(self, graceful: bool) -> None:
        """The app ended, all of it: asked to quit first if `graceful`, then every
        process of its box killed, and its output read to the end."""
        self.ending = True
        if self._process is None:  # it never started
            await asyncio.to_thread(self.box.end)
            return
        if graceful and self.process.returncode is None:
            try:
                await asyncio.wait_for(asyncio.shield(self.stop()), QUIT_SECONDS)
            except asyncio.TimeoutError:
                pass
        await asyncio.to_thread(self.box.end)
        try:
            await asyncio.wait_for(asyncio.shield(self.stop()), QUIT_SECONDS)
            await asyncio.wait_for(self.process.wait(), QUIT_SECONDS)
            if self.stderr_task is not None:
                await asyncio.wait_for(self.stderr_task, QUIT_SECONDS)
        except asyncio.TimeoutError:  # a descendant kept a pipe: the box ended it
            pass


class Session:
    """One visitor's app and the page that drives it, until one of them ends it."""

    def __init__(self, app: AppProcess, idle: float, memory: int) -> None:
        self.app = app
        self.memory = memory  # bytes: the app's ceiling, with all it starts
        self.idle = idle  # seconds without input before the session ends
        self.last_input = time.monotonic()
        self.interval = min(1.0, idle / 4)  # how often the idle time and memory are seen

    async def read(self, websocket: web.WebSocketResponse) -> str:
        """The page's messages to the app, until the page goes; why it ended."""
        async for message in websocket:
            if message.type == WSMsgType.ERROR:
                raise Malformed(f"a broken frame ({message.data})")
            if message.type != WSMsgType.TEXT:
                continue
            kind, data = envelope(message.data)
            if kind == "stdin":
                self.last_input = time.monotonic()
                await self.app.send_bytes(data.encode("utf-8"))
            elif kind == "resize":
                self.last_input = time.monotonic()
                await self.app.set_terminal_size(data["width"], data["height"])
            elif kind == "ping":
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await self.app.blur()
            elif kind == "focus":
                await self.app.focus()
        return "the page was closed"

    async def watch(self) -> str:
        """Why the session must end, once it must: idle too long, or over memory."""
        while True:
            await asyncio.sleep(self.interval)
            if self.app.box.over_memory():
                return ceiling_words(self.memory)
            if time.monotonic() - self.last_input >= self.idle:
                return f"idle for {duration_words(self.idle)}"

    def exit_words(self) -> str:
        """Why the app ended by itself."""
        code = self.app.process.returncode
        if self.app.box.over_memory():
            return ceiling_words(self.memory)
        if code == 0:
            return "the app quit"
        said = self.app.last_words()
        how = f"killed by signal {-code}" if code is not None and code < 0 \
            else f"with status {code}"
        return f"the app ended, {how}" + (f" ({said})" if said else "")

    async def run(self, websocket: web.WebSocketResponse, width: int,
                  height: int) -> tuple[str, bool]:
        """The session from its app's start to its end: why it ended, and whether the
        page should be told (it still listens, and did not end it itself)."""
        tasks: list[asyncio.Task[Any]] = []
        graceful = True
        try:
            await self.app.start(width, height)
            reading = asyncio.create_task(self.read(websocket))
            watching = asyncio.create_task(self.watch())
            exiting = asyncio.create_task(self.app.process.wait())
            tasks = [reading, watching, exiting]
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            if reading.done():
                tell = False
                try:
                    reason = reading.result()
                except Malformed as error:
                    reason, graceful = f"the page sent a malformed message ({error})", False
                except (ConnectionError, RuntimeError) as error:  # the page went mid-reply
                    reason = f"the page's connection failed ({type(error).__name__})"
                if self.app.quit:
                    reason = "the app quit"
                elif self.app.process.returncode is not None:
                    reason = self.exit_words()
            elif exiting.done():
                reason, tell, graceful = self.exit_words(), True, False
            else:
                reason, tell = watching.result(), True
                graceful = not reason.startswith("over")
            return reason, tell
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self.app.finish(graceful)
