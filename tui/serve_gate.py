"""The gate in front of `plyground serve`: who may open the page and start a copy of
the app.

textual-serve answers every request: it serves its page to anyone and starts a new app
process for every websocket, from any web page. A script on any site the user visits
could then open a socket to 127.0.0.1 and type into the app. The gate lets in only:
- requests that carry the token drawn at each start (the page as `/?token=…`, its
  websocket as `/ws/…`), which only the one who read the printed address has;
- websockets whose `Origin` is the page's own host and port. A browser always sends
  one, so a socket without it comes from a program, not a web page: it gets in with
  the token alone;
- unless serving `--public`, requests whose `Host` is this machine's loopback name,
  so that a site whose name points at 127.0.0.1 (DNS rebinding) is still foreign;
- at most `max_sessions` running apps: one more is told the server is full.
Each app runs in a box under a memory ceiling and ends when its visitor is idle too
long (serve_session.py); what the server prints never shows the token (serve_log.py).
"""
from __future__ import annotations

import asyncio
import html
import itertools
import logging
import re
import secrets
import signal
import socket
import sys
from typing import Any

import aiohttp_jinja2
from aiohttp import WSMsgType, web
from textual_serve.server import Server, to_int
from yarl import URL

from plyground.core.agents.box import memory_words
from plyground.core.ranges import machine_memory

from .cli.stopping import tell
from .hosts import is_local
from .serve_box import Boxes
from .serve_log import access_log_for, log_to
from .serve_session import AppProcess, Session, side

log = logging.getLogger("plyground.serve")
HOLD_SECONDS = 600  # how long a page told why it has no app keeps its socket
MOST_HELD = 64  # such sockets at once: past it, a page is refused with no socket

# A Host header: a name or IPv4 address, or an IPv6 one in brackets; a port maybe.
HOST_HEADER = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?")


def page(status: int, title: str, message: str) -> web.Response:
    """A short HTML page that says why nothing else is shown."""
    body = (f"<!DOCTYPE html><html><head><title>{html.escape(title)}</title></head>"
            f"<body style='font-family: sans-serif; margin: 3em'><h1>"
            f"{html.escape(title)}</h1><p>{html.escape(message)}</p></body></html>")
    return web.Response(status=status, text=body, content_type="text/html",
                        headers={"Referrer-Policy": "no-referrer"})


def same_site(origin: str, host: str, secure: bool) -> bool:
    """Whether a websocket's `Origin` is the scheme, host and port its request was
    sent to (the page's own)."""
    scheme = "https" if secure else "http"
    try:
        seen, served = URL(origin), URL(f"{scheme}://{host}")
    except ValueError:
        return False
    return (seen.scheme == scheme and seen.host is not None and served.host is not None
            and seen.host.lower() == served.host.lower() and seen.port == served.port)


class GatedServer(Server):
    """textual-serve's server, answering only its own page (see the module's doc)."""

    def __init__(self, command: str, *, host: str, port: int, title: str,
                 max_sessions: int, public: bool, notes: tuple[str, ...] = (),
                 idle: float = 30 * 60, memory: int = 1 << 30) -> None:
        super().__init__(command, host=host, port=port, title=title)
        self.token = secrets.token_urlsafe(24)
        self.max_sessions = max_sessions
        self.idle = idle  # seconds a visitor may send nothing before its app ends
        self.memory = memory  # bytes: each app's ceiling, with all it starts
        self.numbers = itertools.count(1)  # of sessions, for the lines printed
        self.boxes = Boxes(memory)
        self.public = public
        self.notes = notes  # lines printed under the address at start
        self.sessions = 0  # websockets with a running app
        self.open: set[asyncio.BaseTransport] = set()  # of every open websocket
        self.held = 0  # websockets kept open with no app, to tell their page why
        self.interrupted = False  # whether Ctrl-C stopped it (its exit code says so)

    def address(self) -> str:
        """The address to open: this server's, with its token."""
        host = self.host
        if host in ("0.0.0.0", "::", ""):  # every address: name the machine instead
            host = socket.gethostname()
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}/?token={self.token}"

    async def on_startup(self, app: web.Application) -> None:
        """(textual-serve's logo and command line: `announce` says what matters.)"""

    async def on_shutdown(self, app: web.Application) -> None:
        """Ctrl-C ends every page's connection, and so its app: aiohttp would wait
        for an open websocket (about 20 s) before it stops."""
        for transport in list(self.open):
            transport.close()

    def announce(self, *_: Any) -> None:
        """The address to open and what visitors may do, once the port listens."""
        print(f"plyground serve: open {self.address()}", flush=True)
        for note in self.notes:
            print(note, flush=True)
        print(self.boxes.words(), flush=True)
        sessions = "1 session" if self.max_sessions == 1 else f"{self.max_sessions} sessions"
        print(f"At most {sessions} at once. Ctrl+C stops it.", flush=True)
        if self.max_sessions * self.memory > machine_memory():
            print(f"Note: {sessions} at {memory_words(self.memory)} each may take more "
                  f"than this machine's memory ({memory_words(machine_memory())}): lower "
                  "--max-sessions or --max-memory.", flush=True)

    def initialize_logging(self) -> None:
        """One plain line per event, never the token nor a traceback (serve_log)."""
        log_to(sys.stdout, self.token)

    def serve(self, debug: bool = False) -> None:
        """textual-serve's `serve`, but announcing the address only once the port
        listens (its own says so before: a browser opened then finds nothing), and
        with an access log that shows no token."""
        self.debug = debug
        self.initialize_logging()
        # The loop as textual-serve gets it: with a new loop set as the current one,
        # Ctrl-C after a session ends with a traceback from a closed loop.
        try:
            loop = asyncio.get_event_loop()
        except Exception:
            loop = asyncio.new_event_loop()
        loop.add_signal_handler(signal.SIGINT, self.ctrl_c)
        loop.add_signal_handler(signal.SIGTERM, self.request_exit)
        web.run_app(self._make_app(), host=self.host, port=self.port,
                    handle_signals=False, loop=loop, print=self.announce,
                    access_log_class=access_log_for(self.token))

    def ctrl_c(self) -> None:
        """Say at once that it stops (closing the sessions takes a moment), then stop
        as a SIGTERM does; the command then exits with Ctrl-C's code."""
        if not self.interrupted:
            self.interrupted = True
            tell("interrupted: the server stops, and every session with it")
        self.request_exit()

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.router.add_get("/ws/{token}", self.handle_websocket, name="gated_websocket")
        return app

    def refusal(self, request: web.Request, token: str) -> web.Response | None:
        """The page that refuses `request`, or None when its host and token are right."""
        host = request.headers.get("Host", "")
        if not HOST_HEADER.fullmatch(host):
            return page(400, "Bad request", "The request names no valid host.")
        if not self.public and not is_local(URL(f"http://{host}").host or ""):
            return page(403, "Refused", f"This server answers only as this machine's "
                        f"own address (127.0.0.1 or localhost), not as {host}.")
        if not secrets.compare_digest(token.encode(), self.token.encode()):
            return page(403, "Refused", "This page needs the address plyground serve "
                        "printed when it started, with its token (…/?token=…).")
        return None

    def full_message(self) -> str:
        return (f"plyground serve is full: {self.sessions} of {self.max_sessions} "
                "sessions are open. Close one and reload, or ask whoever runs the "
                "server to raise --max-sessions.")

    async def handle_index(self, request: web.Request) -> web.Response:
        refused = self.refusal(request, request.query.get("token", ""))
        if refused is not None:
            return refused
        if self.sessions >= self.max_sessions:
            return page(503, "Server full", self.full_message())
        scheme = "https" if request.secure else "http"
        base = f"{scheme}://{request.headers['Host']}"  # as the browser reached us
        context: dict[str, Any] = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": "ws" + base[len("http"):] + f"/ws/{self.token}",
            "config": {"static": {"url": f"{base}/static/"}},
            "application": {"name": self.title},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        response.headers["Referrer-Policy"] = "no-referrer"  # the token stays here
        return response

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        refused = self.refusal(request, request.match_info.get("token", ""))
        if refused is not None:
            return refused
        origin = request.headers.get("Origin")
        if origin is not None and not same_site(origin, request.headers["Host"],
                                                request.secure):
            return page(403, "Refused", f"A page from {origin} may not use this server.")
        transport = request.transport
        if transport is not None:
            self.open.add(transport)
        try:
            if self.sessions >= self.max_sessions:
                return await self.tell_full(request)
            websocket = web.WebSocketResponse(heartbeat=15)
            await websocket.prepare(request)
            self.sessions += 1
            try:
                reason, tell = await self.run_session(request, websocket)
            finally:
                self.sessions -= 1
            if tell:
                await self.hold(websocket, f"plyground serve ended this session: "
                                f"{reason}. Reload the page to start a new one.")
            return websocket
        finally:
            self.open.discard(transport)

    async def run_session(self, request: web.Request,
                          websocket: web.WebSocketResponse) -> tuple[str, bool]:
        """A visitor's app, boxed, from its start to its end, with a line for each:
        why it ended, and whether the page still listens to be told."""
        number = next(self.numbers)
        full = ": the server is full" if self.sessions >= self.max_sessions else ""
        log.info("session %d started for %s (%d of %d open%s)", number,
                 request.remote or "?", self.sessions, self.max_sessions, full)
        reason, tell = "the server stopped", False
        try:
            box = self.boxes.make(f"serve-{number}")
            app = AppProcess(self.command, box, write_bytes=websocket.send_bytes,
                             write_str=websocket.send_str, close=websocket.close,
                             download_manager=self.download_manager, debug=self.debug)
            reason, tell = await Session(app, self.idle, self.memory).run(
                websocket, side(request.query.get("width"), 80),
                side(request.query.get("height"), 24))
        except Exception as error:  # one line for the server's terminal, not a traceback
            reason = f"the server failed ({type(error).__name__}: {error})"
        finally:
            log.info("session %d ended: %s", number, reason)
        return reason, tell and not websocket.closed

    async def tell_full(self, request: web.Request) -> web.StreamResponse:
        """Say on the page's terminal that the server is full, and start nothing."""
        log.info("a visitor from %s was turned away: the server is full (%d of %d "
                 "sessions open)", request.remote or "?", self.sessions, self.max_sessions)
        if self.held >= MOST_HELD:
            return page(503, "Server full", self.full_message())
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        await self.hold(websocket, self.full_message())
        return websocket

    async def hold(self, websocket: web.WebSocketResponse, text: str) -> None:
        """Say `text` on the page's terminal, and keep its socket open until the page
        goes (answering its pings), HOLD_SECONDS at most: once the socket closes, the
        page hides its terminal behind "Session ended"."""
        self.held += 1
        try:
            await websocket.send_bytes(f"\x1b[0m\x1b[2J\x1b[H\r\n  {text}\r\n".encode())
            async with asyncio.timeout(HOLD_SECONDS if self.held <= MOST_HELD else 0):
                async for message in websocket:
                    if message.type == WSMsgType.TEXT and message.data.startswith('["ping"'):
                        await websocket.send_str(message.data.replace("ping", "pong", 1))
        except (TimeoutError, ConnectionError):
            pass
        finally:
            self.held -= 1
        await websocket.close()
