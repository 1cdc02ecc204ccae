"""The app's first start: the game engines' kernels compiled in the background when
numba's cache lacks them (`make play` compiles them at install; a `pip install`
alone, a changed kernel or another numba leaves them to the app), with their progress
shown as it goes.

A process of its own compiles them (core/fast/precompile.py, at a lower priority,
the game the app opens first): compiling holds the interpreter for seconds at a time,
which the app's screen cannot spare. While it has a game's kernels still to compile,
a search of that game says it waits for them, not that it thinks (SearchDriver); the
search process waits for the compile before its agent's clock starts (fast/cache.py).
On every later start the check finds nothing missing, says nothing, and ends in
about a second.
"""
from __future__ import annotations

import subprocess
import sys
import threading

# what a search of a game whose kernels are still compiling says it waits for
FIRST_START = "preparing the game's engine (first start only)…"
RUN_HEADLESS = False  # headless apps (the tests') prepare nothing, unless a test asks

_active: "FirstStart | None" = None  # the running app's


def command(first: str | None) -> list[str]:
    """The background compile, the game `first` first."""
    return [sys.executable, "-m", "plyground.core.fast.precompile", "--lines",
            "--background", *(["--first", first] if first else [])]


def waiting_for(game_id: str) -> bool:
    """Whether the app's first-start compile still has `game_id`'s kernels to do."""
    return _active is not None and _active.waiting_for(game_id)


def engine_name(target: str) -> str:
    """A compile target's name for a person: a game's engine, or the solver."""
    from plyground.core.fast.precompile import PERFECT
    from plyground.core.game import game_entry

    if target == PERFECT:
        return "Connect 4's perfect solver"
    try:
        return f"{game_entry(target).title}'s engine"
    except Exception:  # (a plugin game gone meanwhile)
        return f"{target}'s engine"


class FirstStart:
    """The background compile of one app: `begin` at the app's start, `close` at its
    end (the process is ended; what it compiled stays cached). `app.notify` shows its
    progress, from its reader thread through `app.call_from_thread`."""

    def __init__(self, app) -> None:
        self.app = app
        self.process: subprocess.Popen | None = None
        self.pending: set[str] = set()  # what is still to compile
        self.total = 0  # what was missing when the app started
        self.lock = threading.Lock()

    def begin(self, first: str | None) -> None:
        global _active
        if self.app.is_headless and not RUN_HEADLESS or self.app.served is not None:
            return  # (served: `serve`'s user prepares the machine, not its visitors)
        try:
            # its stdin is a pipe whose end tells it that the app has gone, however
            # the app ended; nothing of it reaches the app's terminal
            self.process = subprocess.Popen(
                command(first), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True)
        except OSError:
            return  # each game then compiles its own kernels as it starts
        _active = self
        threading.Thread(target=self._read, args=(self.process,), daemon=True,
                         name="plyground-first-start").start()

    def waiting_for(self, game_id: str) -> bool:
        with self.lock:
            return game_id in self.pending

    def _read(self, process: subprocess.Popen) -> None:
        for line in process.stdout:
            kind, _, rest = line.strip().partition(" ")
            message = self._take(kind, rest)
            if message is not None:
                self._tell(*message)
        process.stdout.close()
        with self.lock:
            self.pending.clear()

    def _take(self, kind: str, rest: str) -> tuple[str, str, float] | None:
        """Keep what a line of the compile says; what to tell the user, if anything:
        (message, severity, seconds shown)."""
        with self.lock:
            if kind == "missing":
                self.pending = set(rest.split())
                self.total = len(self.pending)
                if not self.pending:
                    return None
                return (f"Compiling the game engines, once (about {6 * self.total} s; "
                        f"{self.total} to do). A game started meanwhile waits for its own.",
                        "information", 10)
            if kind in ("ready", "failed"):
                game_id, _, detail = rest.partition(" ")
                self.pending.discard(game_id)
                done = self.total - len(self.pending)
                if kind == "failed":
                    return (f"{engine_name(game_id)} did not compile ({detail[:200]}); it "
                            "compiles when a game needs it.", "warning", 8)
                return (f"{engine_name(game_id)} is ready ({done} of {self.total}).",
                        "information", 5)
            if kind == "done" and self.total:
                return "The game engines are ready.", "information", 4
        return None

    def _tell(self, message: str, severity: str, seconds: float) -> None:
        try:
            self.app.call_from_thread(self.app.notify, message, title="First start",
                                      severity=severity, timeout=seconds, markup=False)
        except RuntimeError:  # the app has ended meanwhile
            pass

    def close(self) -> None:
        """End the compile, if it still runs (the next start does the rest)."""
        global _active
        if _active is self:
            _active = None
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            process.kill()
        process.wait()
        process.stdin.close()
