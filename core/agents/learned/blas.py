"""How many threads numpy's matrix products use, set from inside a running process.

A net's matrix products are small (a batch of 8 Connect 4 positions is a 336x288 by
288x32 product), and OpenBLAS splits them over every core anyway. On a 2-core machine
with anything else running (the app, the other side's search, a second self-play
game), its threads wait on each other: tests/bench/bench_net.py measured inference at
batch 8 several times slower with numpy's default threads than with one. The count
is normally fixed by OPENBLAS_NUM_THREADS before numpy loads; this sets it later,
through the OpenBLAS library numpy loaded, with no new dependency (threadpoolctl does
the same, more generally).
"""
from __future__ import annotations

import ctypes
from pathlib import Path

import numpy  # noqa: F401  (its BLAS must be loaded before we look for it)

PREFIXES = ("scipy_openblas", "openblas")  # numpy's wheels' OpenBLAS, a system one
SUFFIXES = ("64_", "")  # its 64-bit-integer build's names, the plain ones


def loaded_blas() -> list[str]:
    """The files of the OpenBLAS libraries this process has loaded (Linux), else none."""
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return []
    return sorted({line.split()[-1] for line in maps.splitlines()
                   if "openblas" in line.rsplit("/", 1)[-1].lower()})


def blas_functions(verb: str) -> list:
    """Each loaded OpenBLAS's `<prefix>_<verb>_num_threads<suffix>` function."""
    found = []
    for path in loaded_blas():
        try:
            library = ctypes.CDLL(path)
        except OSError:
            continue
        names = (f"{prefix}_{verb}_num_threads{suffix}" for prefix in PREFIXES
                 for suffix in SUFFIXES)
        found += [getattr(library, name) for name in names if hasattr(library, name)][:1]
    return found


def set_blas_threads(count: int) -> bool:
    """Make numpy's OpenBLAS use `count` threads from now on, in this process; false
    (and nothing changed) where no OpenBLAS is found, as with macOS's Accelerate."""
    setters = blas_functions("set")
    for setter in setters:
        setter(ctypes.c_int(count))
    return bool(setters)


def blas_threads() -> int | None:
    """The threads numpy's OpenBLAS uses now, or None where none is found."""
    getters = blas_functions("get")
    return int(getters[0]()) if getters else None
