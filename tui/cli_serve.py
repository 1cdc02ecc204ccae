"""`plyground serve`: the app in a web browser, through textual-serve. Each browser tab
that opens the page starts its own copy of the app (the setup screen, or a lesson with
--lesson), in a process of its own.

It listens on 127.0.0.1 unless told otherwise: the app plays any command a user types
as an agent (`engine:cmd=...`), so serving it beyond this machine gives whoever can
reach the port a shell. `--host` with any other address says so before it starts.
"""
from __future__ import annotations

import ipaddress
import shlex
import socket
import sys
from typing import Annotated, Optional

import typer

from plyground.core import PlygroundError

LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


def is_local(host: str) -> bool:
    """Whether `host` names this machine's loopback (127.0.0.0/8, ::1, localhost)."""
    if host.lower() in LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def served_command(lesson: str | None) -> str:
    """The shell command the server runs for each page opened: this Python's
    plyground, on the setup screen or presenting a lesson."""
    command = [sys.executable, "-m", "plyground"]
    if lesson is not None:
        command += ["lesson", "run", lesson]
    return shlex.join(command)


def serve_command(
    host: Annotated[str, typer.Option(
        help="the address to listen on; any but this machine's own (127.0.0.1, "
        "localhost, ::1) lets other machines in")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="the port to listen on")] = 8000,
    lesson: Annotated[Optional[str], typer.Option(
        metavar="LESSON", help="present this lesson (a file or a shipped lesson's "
        "name) instead of the setup screen", show_default=False)] = None,
) -> None:
    """Serve the app to a web browser (textual-serve).

    Open the address it prints; each page is a new copy of the app. Ctrl-C
    stops it.
    """
    if not 1 <= port <= 65535:
        raise PlygroundError(f"--port {port}: a port is a number from 1 to 65535")
    if lesson is not None:
        from plyground.core.lesson import load_lesson
        from plyground.core.lessons import lesson_file

        load_lesson(lesson_file(lesson))  # its faults now, not in the browser
    try:
        socket.getaddrinfo(host, port)
    except (socket.gaierror, UnicodeError) as error:
        raise PlygroundError(f"--host {host!r}: not an address of this machine "
                             f"({getattr(error, 'strerror', None) or error})") from None
    if not is_local(host):
        print(f"warning: serving on {host}, which other machines may reach: anyone who "
              "opens the page runs the app, and the app runs any command given as an "
              "engine. Use the default, 127.0.0.1, unless you mean it.", file=sys.stderr)
    try:
        from textual_serve.server import Server
    except ImportError:  # pragma: no cover - a dependency of the package
        raise PlygroundError("textual-serve is not installed: pip install "
                             "textual-serve") from None
    url_host = f"[{host}]" if ":" in host else host
    server = Server(served_command(lesson), host=host, port=port,
                    title="plyground" + (f": {lesson}" if lesson else ""),
                    public_url=f"http://{url_host}:{port}")
    try:
        server.serve()
    except OSError as error:  # the port is taken, the address is not this machine's
        raise PlygroundError(f"cannot serve on {host}:{port}: "
                             f"{error.strerror or error}") from None
