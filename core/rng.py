"""SplitMix64: a tiny seeded generator that Python code and numba kernels share.

Kernels and their Python references draw the same numbers from the same seed, so a
kernel can be tested to make exactly the decisions of the readable code.
"""
from __future__ import annotations

import secrets

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1, MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def mix64(z: int) -> int:
    """The SplitMix64 finaliser: a well-spread 64-bit hash of a 64-bit integer."""
    z = (z ^ (z >> 30)) * MIX1 & MASK64
    z = (z ^ (z >> 27)) * MIX2 & MASK64
    return z ^ (z >> 31)


def fresh_seed() -> int:
    """A seed for a game or match given none (the app's, match's, tournament's), drawn
    below 2**16: short enough to read off the screen and type back with --seed."""
    return secrets.randbelow(1 << 16)


def derive_seed(seed: int, key: int) -> int:
    """A 64-bit seed for one decision, from the agent's seed and the position key."""
    folded = seed & MASK64
    while True:  # fold keys of any size into the mix, 64 bits at a time
        folded = mix64(folded ^ (key & MASK64) ^ GOLDEN)
        key >>= 64
        if not key:
            return folded


class SplitMix64:
    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """A number in [0, n). The tiny modulo bias is irrelevant for game play."""
        return self.next() % n

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self.next() >> 11) * (1.0 / (1 << 53))

    def choice(self, items):
        return items[self.below(len(items))]
