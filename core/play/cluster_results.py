"""What a Dask cluster sends back, checked before plyground uses it.

A cluster's scheduler and workers are trusted like code: a result arrives pickled, and
unpickling runs code as it is read, before anything here can look at it (docs/security.md).
What the check catches is a worker that is wrong rather than hostile (another plyground
version, a bug, someone else's cluster): a result of the wrong type or shape ends its
future with one line naming the worker, instead of a traceback deep in a tally, and so
does a task that failed there.

`CheckedExecutor` is Dask's client as a concurrent.futures executor, as
`Client.get_executor` gives one, with that check between the worker and the caller.
Nothing here imports Dask: it is handed the client.
"""
from __future__ import annotations

import asyncio
import concurrent.futures as cf
import dataclasses
import functools
import types
import typing
import weakref
from typing import Any, Callable, Sequence

from ..errors import PlygroundError, shown
from .tournament import GameJob, GameResult

DEPTH = 6  # how far into nested values the check goes (a result is a few levels deep)


class UnusableResult(PlygroundError):
    """A game or other job the cluster could not give back as it was sent."""


@functools.lru_cache(maxsize=None)
def hints(owner: Callable | type) -> dict[str, Any]:
    """The resolved annotations of a function or dataclass ({} if they cannot be)."""
    try:
        return typing.get_type_hints(owner)
    except Exception:  # a name the annotations use that this process cannot resolve
        return {}


def mismatch(value: object, hint: Any, depth: int = 0) -> str | None:
    """How `value` fails to be a `hint` (a type as annotations write them), or None
    if it is one. Fields of dataclasses and items of lists, tuples and dicts are looked
    into; what a hint cannot say (Any, a TypeVar, Callable) is taken as it is."""
    if hint is Any or depth > DEPTH:
        return None
    if hint is None or hint is type(None):
        return None if value is None else f"{kind(value)}, not None"
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        wrongs = [mismatch(value, option, depth + 1) for option in options]
        if None in wrongs:
            return None
        for option, wrong in zip(options, wrongs):  # the option of its type, if any
            if isinstance(option, type) and isinstance(value, option):
                return wrong
        return f"{kind(value)}, not {' or '.join(map(name_of, options))}"
    if origin is not None:
        return item_mismatch(value, origin, typing.get_args(hint), depth)
    if not isinstance(hint, type):
        return None
    if hint is float and isinstance(value, int):  # an int is a float (PEP 484)
        return None
    if not isinstance(value, hint):
        return f"{kind(value)}, not {name_of(hint)}"
    if dataclasses.is_dataclass(hint):
        for field, field_hint in hints(hint).items():
            wrong = mismatch(getattr(value, field, None), field_hint, depth + 1)
            if wrong is not None:
                return f"a {name_of(hint)} whose {field} is {wrong}"
    return None


def item_mismatch(value: object, origin: type, args: tuple, depth: int) -> str | None:
    """mismatch for a generic: list[X], tuple[X, ...], tuple[X, Y], dict[K, V]."""
    if isinstance(origin, type) and not isinstance(value, origin):
        return f"{kind(value)}, not {name_of(origin)}"
    if not args or not isinstance(value, (list, tuple, set, frozenset, dict)):
        return None
    if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
        if len(value) != len(args):
            return f"a tuple of {len(value)}, not of {len(args)}"
        pairs: Sequence = list(zip(value, args))
    elif isinstance(value, dict):
        pairs = [pair for key, item in value.items()
                 for pair in ((key, args[0]), (item, args[-1]))]
    else:
        pairs = [(item, args[0]) for item in value]
    for item, hint in pairs:
        wrong = mismatch(item, hint, depth + 1)
        if wrong is not None:
            return f"a {name_of(origin)} holding {wrong}"
    return None


def kind(value: object) -> str:
    if value is None:
        return "None"
    name = shown(type(value).__qualname__)
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def name_of(hint: Any) -> str:
    if hint is None or hint is type(None):
        return "None"
    return getattr(hint, "__name__", None) or str(hint)


def game_mismatch(result: GameResult, args: tuple) -> str | None:
    """A game's result that is no result of the game sent: another game's number,
    players or winner that are not 0 or 1."""
    job = args[-1] if args else None
    if isinstance(job, GameJob) and result.number != job.number:
        return f"the result of game {result.number} for game {job.number}"
    if result.first not in (0, 1) or result.winner not in (0, 1, None):
        return "a game result whose players are not 0 and 1"
    if result.plies < 0:
        return "a game result with fewer than no moves"
    return None


# Shapes that a type alone does not say, by the type of the result.
SHAPES: dict[type, Callable[[Any, tuple], str | None]] = {GameResult: game_mismatch}


def wrong_result(function: Callable, args: tuple, result: object) -> str | None:
    """Why `result` cannot be what `function(*args)` returns (its annotations say what
    that is), or None if it can."""
    expected = hints(function).get("return", Any)
    wrong = mismatch(result, expected)
    if wrong is None and type(result) in SHAPES:
        wrong = SHAPES[type(result)](result, args)
    if wrong is None:
        return None
    return f"{wrong} ({function.__name__} on the cluster)"


def unusable(worker: str, wrong: str) -> UnusableResult:
    """The error for a result that is `wrong` (as wrong_result says), from `worker`."""
    return UnusableResult(f"worker {shown(worker)} sent back {wrong}: it cannot be used "
                          "(a worker needs the same plyground as this machine)")


class CheckedExecutor(cf.Executor):
    """The Dask `client` as an executor: each call a task (never merged with an equal
    one: pure=False), its future ending with the checked result, or with one line
    naming the worker where the result does not fit or the task failed. As Dask's own
    executor does, each result is fetched on the client's event loop, where many are
    fetched at once."""

    def __init__(self, client) -> None:
        self.client = client
        self.futures: weakref.WeakSet = weakref.WeakSet()  # Dask's, to cancel on shutdown
        self.shut = False

    def submit(self, fn, /, *args, **kwargs) -> cf.Future:
        if self.shut:
            raise RuntimeError("cannot schedule new futures after shutdown")
        task = self.client.submit(fn, *args, pure=False, **kwargs)
        self.futures.add(task)
        future: cf.Future = cf.Future()
        future.add_done_callback(functools.partial(cancel_task, task))
        self.client.loop.add_callback(self.settle, future, fn, args, task)
        return future

    async def settle(self, future: cf.Future, fn: Callable, args: tuple, task) -> None:
        """On the client's event loop: wait for `task`'s end, and end `future` so (a
        future left pending would hang the run that waits on it)."""
        try:
            await self.end(future, fn, args, task)
        except BaseException as error:
            if not future.done():
                future.set_exception(error)

    async def end(self, future: cf.Future, fn: Callable, args: tuple, task) -> None:
        try:
            result = await self.client.gather(task, asynchronous=True)
        except BaseException as error:  # (on the loop: never a Ctrl-C)
            if task.status == "cancelled" or isinstance(
                    error, (asyncio.CancelledError, cf.CancelledError)):
                future.cancel()
                future.set_running_or_notify_cancel()  # wakes those that wait on it
                return
            if future.set_running_or_notify_cancel():
                future.set_exception(error if isinstance(error, PlygroundError) else
                                     UnusableResult(f"{fn.__name__} failed on the "
                                                    f"cluster: {shown(type(error).__name__)}"
                                                    f": {one_line(error)}"))
            return
        wrong = wrong_result(fn, args, result)
        if wrong is not None:
            failed = unusable(await self.holder(task), wrong)
        if not future.set_running_or_notify_cancel():  # the caller cancelled it
            return
        if wrong is None:
            future.set_result(result)
        else:
            future.set_exception(failed)

    async def holder(self, task) -> str:
        """The worker that holds `task`'s result (it computed it)."""
        try:
            holders = (await self.client.scheduler.who_has(keys=[task.key])).get(task.key)
        except Exception:  # the scheduler gone meanwhile: the line still says what
            holders = ()
        return ", ".join(sorted(holders or ())) or "(unknown)"

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Send no more; with wait=False (how a pool stops), cancel every task."""
        if self.shut:
            return
        self.shut = True
        tasks = list(self.futures)
        if not wait or cancel_futures:
            self.client.cancel(tasks)
        else:
            for task in tasks:
                try:
                    task.exception()  # waits for it, whatever its end
                except (Exception, asyncio.CancelledError):  # cancelled meanwhile
                    pass


def cancel_task(task, future: cf.Future) -> None:
    if future.cancelled() and task.status != "cancelled":
        task.cancel()


def one_line(error: BaseException | object) -> str:
    """An error (from here or from a worker) as part of a one-line message."""
    text = error.strerror if isinstance(error, OSError) and error.strerror else error
    return shown(" ".join(str(text).split())) or type(error).__name__
