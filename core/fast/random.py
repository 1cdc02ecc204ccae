"""SplitMix64 for kernels: the stream core/rng.py draws, as a numba function, so that a
kernel and its Python reference make the same random choices from the same seed."""
from __future__ import annotations

import numpy as np
from numba import njit

from ..rng import GOLDEN, MIX1, MIX2

GOLDEN64 = np.uint64(GOLDEN)
MIX1_64 = np.uint64(MIX1)
MIX2_64 = np.uint64(MIX2)


@njit(cache=True, nogil=True)
def next_random(rng):
    """SplitMix64.next on the one-element uint64 state array `rng`."""
    z = rng[0] + GOLDEN64
    rng[0] = z
    z = (z ^ (z >> 30)) * MIX1_64
    z = (z ^ (z >> 27)) * MIX2_64
    return z ^ (z >> 31)
