"""What `plyground serve` prints while it runs: one plain line per event, never the
token, never a traceback.

The server's terminal is often in view of the class (a projector, a shared screen),
and whatever a visitor sends can end up in it. textual-serve logs through Rich with
tracebacks that show local variables (the request, and so the token, among them), and
aiohttp's access log prints each request line whole, the token in its path or query.
Here every line is the message alone: the token written as `…`, the query left out,
characters from outside made visible (core.errors.visible), and an error as its type
and message on the same line.
"""
from __future__ import annotations

import logging

from aiohttp.abc import AbstractAccessLogger
from aiohttp.web import BaseRequest, StreamResponse

from plyground.core.errors import visible

HIDDEN = "…"  # what a line shows in place of the token


class OneLine(logging.Formatter):
    """A record as one line: its message, and an error's type and message after it
    (no traceback), with `secret` hidden and every unprintable character visible."""

    def __init__(self, secret: str) -> None:
        super().__init__("%(message)s")
        self.secret = secret

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        error = record.exc_info[1] if record.exc_info else None
        if error is not None:
            said = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
            text = said if text in (str(error), "") else f"{text}: {said}"
        if self.secret:
            text = text.replace(self.secret, HIDDEN)
        return visible(text)


def log_to(stream, secret: str) -> None:
    """Every logger's records (textual-serve's, aiohttp's, ours) as one line each on
    `stream`: no Rich handler, no traceback."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(OneLine(secret))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    # said again, with its reason, by the line that ends its session
    logging.getLogger("textual-serve").addFilter(
        lambda record: record.getMessage() != "Application failed to start")


class AccessLog(AbstractAccessLogger):
    """aiohttp's access log, one line a request: who asked, the method, the path with
    no query (the page's address carries the token there) and the token in a path
    hidden (the websocket's is `/ws/TOKEN`), and the status."""

    secret = ""  # set by `access_log_for`

    def log(self, request: BaseRequest, response: StreamResponse, time: float) -> None:
        if not self.logger.isEnabledFor(logging.INFO):
            return
        path = request.rel_url.path
        if self.secret:
            path = path.replace(self.secret, HIDDEN)
        self.logger.info("%s %s %s %s", request.remote or "-", request.method, path,
                         response.status)


def access_log_for(secret: str) -> type[AccessLog]:
    """The access log class for a server whose token is `secret` (aiohttp makes the
    instance itself, from a class)."""
    return type("AccessLog", (AccessLog,), {"secret": secret})
