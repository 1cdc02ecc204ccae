"""Budgets, clocks and stopping: what every search consults to know when to stop."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Budget:
    """Any of: seconds, search depth, MCTS iterations, nodes. None means no limit."""

    time: float | None = None
    depth: int | None = None
    iterations: int | None = None
    nodes: int | None = None


class SearchStopped(Exception):
    """Raised inside a search when its budget runs out or it is cancelled.

    A fast backend that stops says how many nodes it searched first, so that they
    still count in the search's total."""

    def __init__(self, nodes: int = 0) -> None:
        super().__init__(nodes)
        self.nodes = nodes


class StopFlag:
    """A cancel flag in a shared buffer: another process (the UI) may set it.

    Python code reads it through a memoryview; numba kernels through `array()`.
    """

    def __init__(self, buffer=None) -> None:
        self.buffer = buffer if buffer is not None else bytearray(8)
        self.view = memoryview(self.buffer).cast("B").cast("q")

    def set(self) -> None:
        self.view[0] = 1

    def clear(self) -> None:
        self.view[0] = 0

    def is_set(self) -> bool:
        return self.view[0] != 0

    def array(self):
        import numpy as np  # numpy: for a kernel's stop flag, off the app's path

        return np.frombuffer(self.buffer, dtype=np.int64, count=1)


_shared_stop: StopFlag | None = None  # see interrupt_flag


def interrupt_flag() -> StopFlag:
    """From the first call on, the flag of every search in this process that is given
    none. A command run from a terminal sets it on Ctrl-C: a compiled search reads
    only its flag, and Python's handler for the signal waits until it returns (seconds,
    for a deep alpha-beta iteration)."""
    global _shared_stop
    if _shared_stop is None:
        _shared_stop = StopFlag()
    return _shared_stop


class TickClock:
    """A fake clock that advances a fixed step per reading: reproducible timings.

    Used by snapshot tests and anywhere figures must not depend on the machine.
    """

    def __init__(self, step: float = 0.001) -> None:
        self.step = step
        self.now = 0.0

    def __call__(self) -> float:
        self.now += self.step
        return self.now


class SearchControl:
    """One search's budget, clock and cancel flag."""

    CHECK_EVERY = 1024  # nodes between clock readings in Python searches

    def __init__(
        self,
        budget: Budget,
        stop: StopFlag | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.budget = budget
        self.stop = stop if stop is not None else _shared_stop or StopFlag()
        self.clock = clock
        self.started = clock()

    def elapsed(self) -> float:
        return self.clock() - self.started

    def time_left(self) -> float | None:
        if self.budget.time is None:
            return None
        return self.budget.time - self.elapsed()

    def exhausted(self, nodes: int = 0) -> bool:
        """Whether the search must stop now (cancelled, out of time or of nodes)."""
        if self.stop.is_set():
            return True
        if self.budget.nodes is not None and nodes >= self.budget.nodes:
            return True
        left = self.time_left()
        return left is not None and left <= 0

    def check(self, nodes: int) -> None:
        """Called once per node by Python searches; reads the clock now and then."""
        if nodes % self.CHECK_EVERY == 0 and self.exhausted(nodes):
            raise SearchStopped
        if self.budget.nodes is not None and nodes >= self.budget.nodes:
            raise SearchStopped
