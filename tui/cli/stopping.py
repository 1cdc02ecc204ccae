"""Ctrl-C says at once that the command is stopping, and stops its searches.

A command that Ctrl-C interrupts first ends what it started (a pool's games, a
search), which takes a moment, and only then says how far it got. Without a word
meanwhile, the terminal shows `^C` over a frozen progress bar, and a user presses it
again or closes the window. And Python runs its handler for the signal only between
two bytecodes of the main thread: not while that thread is inside a compiled search,
which may run on for seconds.

So the signal also wakes a thread of ours (Python's C-level handler writes its number
to the wakeup file descriptor at once, whatever the main thread is doing). That thread
writes one line, sets the flag every search of this process reads unless given its
own (core.search.control.interrupt_flag), so a compiled search returns within a
thousand nodes, and the handler then raises KeyboardInterrupt as Python's own does. A
command may say what stopping means for it (`saying`). The line is one os.write: the
main thread may be inside a write to sys.stderr's buffer, where a second one would
fail as a reentrant call.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager

from plyground.core.search.control import interrupt_flag

DEFAULT_LINE = "stopping…"
CUT_SHORT = "stopping: cutting the games under way short…"  # a command's pool's games
ERASE_LINE = "\r\x1b[2K"  # the echoed ^C and a progress bar's line, on a terminal

line = DEFAULT_LINE  # what the next Ctrl-C says
said = False  # whether it was said: a second Ctrl-C says nothing more
telling = threading.Lock()  # the thread and the handler: one of them says it


def interrupted() -> None:
    """Stop the searches, and say the line once."""
    global said
    interrupt_flag().set()
    # never waits: the handler may run while the thread holds the lock, and the
    # handler itself may be interrupted by a second Ctrl-C
    if said or not telling.acquire(blocking=False):
        return
    try:
        if not said:
            said = True
            tell(line)
    finally:
        telling.release()


def on_ctrl_c(number, frame) -> None:
    interrupted()  # (said already by the thread, unless the wakeup fd was taken)
    raise KeyboardInterrupt


def tell(text: str) -> None:
    """`text` as a line of its own on stderr, now."""
    start = ERASE_LINE if sys.stderr is not None and sys.stderr.isatty() else ""
    try:
        os.write(2, (start + text + "\n").encode(errors="replace"))
    except OSError:  # no stderr left to tell: the interruption goes on regardless
        pass


def watch(reader: int) -> None:
    """The thread: the signals' numbers as they come, until the process ends."""
    while True:
        try:
            numbers = os.read(reader, 64)
        except OSError:
            return
        if not numbers:
            return
        if signal.SIGINT in numbers:
            interrupted()


def install() -> None:
    """Ctrl-C says the line and stops searches, from now on in this process (its
    main thread). Where SIGINT is ignored (a command started in the background) it
    stays ignored. A library that takes the wakeup descriptor later (an asyncio loop's
    signal handlers) leaves the handler to say the line."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return
    interrupt_flag()  # from now on, searches given no flag share it
    reader, writer = os.pipe()
    os.set_blocking(writer, False)
    signal.set_wakeup_fd(writer, warn_on_full_buffer=False)
    threading.Thread(target=watch, args=(reader,), name="ctrl-c", daemon=True).start()
    signal.signal(signal.SIGINT, on_ctrl_c)


@contextmanager
def saying(text: str):
    """The line Ctrl-C says while the block runs (what stopping does here)."""
    global line
    before, line = line, text
    try:
        yield
    finally:
        line = before
