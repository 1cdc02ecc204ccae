"""The app runs in a terminal. Textual's terminal driver reads keys from stdin and draws
on stderr; started without one (from a script, stdin from /dev/null or a pipe) it would
wait, busy, for keys that never come. So it says so at once instead, and names the
commands that need no terminal. A driver named in TEXTUAL_DRIVER (textual-serve's web
driver, which `plyground serve` runs the app with, over pipes) brings its own input and
output, and an app run headless (Pilot's `run_test`, the snapshot tests'
`run(headless=True)`) draws nowhere and needs none."""
from __future__ import annotations

import os
import sys

from plyground.core import PlygroundError

NO_TERMINAL = ("the app needs a terminal, and its input or output is not one: "
               "`plyground demo` and `plyground match` play agents without one; "
               "`plyground serve` opens the app in a browser")


def is_terminal(stream) -> bool:
    """Whether `stream` (None once closed, in some embeddings) is a terminal."""
    try:
        return stream is not None and os.isatty(stream.fileno())
    except (OSError, ValueError):
        return False


def require_terminal() -> None:
    """Raise PlygroundError (one line, exit code 2) if the app would run in a terminal
    that is not there."""
    if os.environ.get("TEXTUAL_DRIVER"):
        return
    if not (is_terminal(sys.__stdin__) and is_terminal(sys.__stderr__)):
        raise PlygroundError(NO_TERMINAL)
