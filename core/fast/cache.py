"""numba's on-disk cache of the kernels: whether a set of kernels is in it, and one
process at a time compiling a set that is not.

numba keeps each `@njit(cache=True)` kernel's machine code beside its source
(`__pycache__`, when that folder is writable), else in the user's cache folder, or
under NUMBA_CACHE_DIR when that is set; every process of the same install and
environment reads the same place. A kernel is cached when its index there holds an
entry for this machine and this source, the entry numba itself would load.

Compiling a game's kernels takes several seconds; loading them a fraction of one. So
a process about to compile waits while another compiles the same set (the
`make play` set-up, the app's first-start preparation, a pool's workers starting
together), then loads what that one wrote, rather than compile it again beside it.
The lock is a file beside the cache (`flock`: the system lets it go when its process
dies); where none can be made, each process compiles on its own, as numba would.
"""
from __future__ import annotations

import fcntl
import importlib
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

PACKAGE = __name__.rpartition(".")[0]  # plyground.core.fast


def kernels_of(module_names: Iterable[str]) -> list:
    """The numba kernels that the named modules run: those they define and those of
    every module of this package they refer to (a kernel, a class or a module),
    followed from module to module. Importing compiles nothing."""
    from numba.core.registry import CPUDispatcher

    todo = [importlib.import_module(name) for name in module_names]
    seen: set[str] = set()
    found = []
    while todo:
        module = todo.pop()
        if module.__name__ in seen:
            continue
        seen.add(module.__name__)
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher):
                home = value.py_func.__module__
                if home == module.__name__:
                    found.append(value)
            else:
                home = value.__name__ if isinstance(value, type(sys)) else \
                    getattr(value, "__module__", None)
            if isinstance(home, str) and home.startswith(PACKAGE + ".") \
                    and home not in seen:
                todo.append(importlib.import_module(home))
    return found


def is_cached(kernel) -> bool:
    """Whether numba's cache holds code for `kernel` that this process would load:
    for this machine and this version of its source."""
    from numba.core.registry import cpu_target

    # (numba's own reading of its index, as it does before it loads: no public call
    # says whether a kernel is cached)
    try:
        cache = kernel._cache
        codegen = cpu_target.target_context.codegen()
        index = cache._cache_file._load_index()
        return any(key == cache._index_key(key[0], codegen) for key in index)
    except Exception:  # an unreadable or foreign index: numba would compile anew
        return False


def all_cached(kernels: list) -> bool:
    return all(is_cached(kernel) for kernel in kernels)


def cache_folder(kernels: list) -> Path | None:
    """Where numba keeps these kernels' code (None: nowhere, no kernel)."""
    try:
        return Path(kernels[0]._cache.cache_path) if kernels else None
    except (AttributeError, TypeError):  # a kernel numba does not cache on disk
        return None


def lock_path(name: str, module_names: Iterable[str]) -> Path | None:
    """The file a process locks while it compiles the set `name` of the kernels of
    `module_names` (beside their cache); None for no kernel."""
    folder = cache_folder(kernels_of(module_names))
    return None if folder is None else folder / f"plyground-compiling-{name}.lock"


def _lock_file(name: str, kernels: list):
    """The open lock file for compiling the set `name`, or None where none can be
    made (no kernel, a folder this user cannot write)."""
    folder = cache_folder(kernels)
    if folder is None:
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return open(folder / f"plyground-compiling-{name}.lock", "a")
    except OSError:
        return None


@contextmanager
def compiling(name: str, module_names: Iterable[str]) -> Iterator[None]:
    """Around loading or compiling the kernels of `module_names` (a set called
    `name`): waits while another process compiles them; holds the lock itself, for
    others to wait, only while they are not all cached (so that it compiles them)."""
    kernels = kernels_of(module_names)
    lock = _lock_file(name, kernels)
    if lock is None:
        yield
        return
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another process compiles them: its turn
        except OSError:  # a file system without locks: compile on our own
            yield
            return
        try:
            if all_cached(kernels):
                fcntl.flock(lock, fcntl.LOCK_UN)  # only loading: no one need wait
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)

