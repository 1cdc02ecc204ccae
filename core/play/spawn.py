"""Child processes that Ctrl-C does not reach. In a terminal, Ctrl-C signals every
process of the command; the parent alone must handle it (it stops its children
itself). Each child ignores SIGINT once its own code runs, but it first spends a second
or so importing, and SIGINT then would end it with a traceback. So children start with
SIGINT blocked, which they inherit from the thread that starts them: the signal never
reaches them. The parent keeps it: its other threads, or the starting thread once the
child has started, still take a Ctrl-C pressed meanwhile."""
from __future__ import annotations

import multiprocessing.context
import signal
import threading
from contextlib import contextmanager


def current_mask() -> set:
    return signal.pthread_sigmask(signal.SIG_BLOCK, ())


class SpawnedProcess(multiprocessing.context.SpawnProcess):
    def start(self) -> None:
        # The old mask is read before anything changes, and the change made inside the
        # try: a Ctrl-C that lands just as the block begins (it raises at the first
        # bytecode after) must not leave this thread with SIGINT blocked for good, and
        # every process it starts after deaf to Ctrl-C.
        before = current_mask()
        try:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            super().start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)


class SpawnContext(multiprocessing.context.SpawnContext):
    """multiprocessing's spawn context (never fork: see tournament.py) whose processes,
    those of a ProcessPoolExecutor given it too, start out of Ctrl-C's reach."""
    Process = SpawnedProcess


def spawn_context() -> SpawnContext:
    return SpawnContext()


@contextmanager
def interrupts_deferred():
    """Ctrl-C pressed inside the block is raised when it ends. A pool starts its
    workers as work is submitted, and a Ctrl-C that came while one started (SIGINT
    blocked) is raised the moment it is unblocked: before the pool has noted that
    worker, which then goes on running, takes the stop meant for another, and the
    pool's shutdown waits for ever (`match` hung after Ctrl-C in a loaded run). So
    work is submitted inside this block. (In a thread other than the main one, where
    no KeyboardInterrupt is raised, it does nothing.) The Ctrl-C is handed to the
    handler the block replaced, so that one that says it is stopping still says so."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: pressed.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pressed:
        if callable(previous):
            previous(signal.SIGINT, None)
        raise KeyboardInterrupt
