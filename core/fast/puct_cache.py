"""What the network said of the positions a game's searches met, for the batched PUCT:
selfplay.evaluator's cache, compiled.

A search meets a position again by transposition, and a game's searches one after the
other meet the same positions (the move played keeps its subtree's positions), so a
game keeps, by position and net, the priors of its legal moves and its value: a
position goes through the network once. A game's table is open addressing on a
mixed key; once it is 3/4 full it starts afresh (as the reference's cache does at its
limit), at a round's start, when no pending walk reads it.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .bits import MIX, MIX2

EMPTY = -1  # a slot's net when it holds nothing


def new_cache(games: int, slots: int, width: int) -> tuple:
    """The tables of `games` games, `slots` (a power of two) entries each, priors of
    up to `width` moves an entry: (keys, nets, priors, values, entries)."""
    return (np.zeros((games, slots), np.uint64), np.full((games, slots), EMPTY, np.int64),
            np.zeros((games, slots, width)), np.zeros((games, slots)),
            np.zeros(games, np.int64))


@njit(cache=True, nogil=True)
def _slot(cache, game, key, net):
    """The slot holding (key, net) in game `game`'s table, or the empty slot where it
    would go."""
    keys, nets = cache[0], cache[1]
    mask = np.uint64(keys.shape[1] - 1)
    z = key ^ (np.uint64(net) * MIX2)
    z = (z ^ (z >> np.uint64(30))) * MIX
    z = (z ^ (z >> np.uint64(27))) * MIX2
    slot = np.int64((z ^ (z >> np.uint64(31))) & mask)
    while nets[game, slot] != EMPTY and not (keys[game, slot] == key
                                             and nets[game, slot] == net):
        slot = (slot + 1) & np.int64(mask)
    return slot


@njit(cache=True, nogil=True)
def find(cache, game, key, net):
    """The slot of (key, net) in game `game`'s table, or -1."""
    slot = _slot(cache, game, key, net)
    return slot if cache[1][game, slot] != EMPTY else -1


@njit(cache=True, nogil=True)
def store(cache, game, key, net, priors, count, value):
    """Keep a position's priors (of its `count` legal moves) and value, unless kept or
    the table is full (one slot stays empty: a search for a missing key ends there)."""
    keys, nets, kept, values, entries = cache
    if entries[game] >= nets.shape[1] - 1:
        return
    slot = _slot(cache, game, key, net)
    if nets[game, slot] != EMPTY:
        return
    keys[game, slot], nets[game, slot] = key, net
    for i in range(count):
        kept[game, slot, i] = priors[i]
    values[game, slot] = value
    entries[game] += 1


@njit(cache=True, nogil=True)
def make_room(cache, game):
    """Start game `game`'s table afresh once it is 3/4 full."""
    nets, entries = cache[1], cache[4]
    if 4 * entries[game] >= 3 * nets.shape[1]:
        nets[game, :] = EMPTY
        entries[game] = 0
