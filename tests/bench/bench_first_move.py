"""A game's first move in a brand-new engine process, for every game and agent: how
long the engine prepares (the process starts, its kernels are loaded from numba's cache
or compiled, the agent prepares) before the search's clock starts, and how long from
the clock's start to the search's first result (live events, or its decision). Target:
the first result within 1 s of the clock, cached or not; a cold cache's compiling
shows in the preparation only. The cold rows use an empty cache of their own; the
last rows, a fresh install's: an empty cache that the install's precompile step
(`make play`'s set-up) fills first, then each game's first move. Target there: the
clock starts within 2 s of asking (the first move starts within 2 s of the human's)."""
from __future__ import annotations

import os
import queue
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager

from plyground.core import get_game
from plyground.core.catalogue import parse_agent
from plyground.core.play.worker import (Engine, EngineDone, EngineEvents, EngineFailed,
                                        EngineStarted, SearchRequest)

GAMES = ("connect4", "boom", "cephalopod", "quarto", "tictactoe")
AGENTS = ("alphabeta:time=1", "mcts:time=1", "mcts:uct=plain,time=1", "minimax:time=1",
          "greedy", "ga", "perfect")
COLD_AGENT = "mcts:time=1"
TARGET = 1.0
FRESH_TARGET = 2.0  # seconds from asking to the clock's start, after precompiling
HUMAN = 1.0  # seconds a quick human takes over the first move


def first_move(game_id: str, spec: str, human: float | None = None) -> tuple[float, float]:
    """(seconds preparing, seconds from the clock's start to the first result) of the
    start position's search in a new engine process; with `human`, the engine is
    warmed as the game screen does when a game starts, and the search asked `human`
    seconds later, as after a human's first move."""
    game = get_game(game_id)
    updates = queue.Queue()
    with Engine(updates.put) as engine:
        if human is not None:
            engine.warm(game_id)
            time.sleep(human)
        asked = time.perf_counter()
        engine.submit(SearchRequest(game_id, game.format_position(game.start()), spec))
        started = None
        while True:
            update = updates.get(timeout=600)
            if isinstance(update, EngineFailed):
                raise RuntimeError(update.message)
            if isinstance(update, EngineStarted):
                started = time.perf_counter()
            elif isinstance(update, (EngineEvents, EngineDone)) and started is not None:
                return started - asked, time.perf_counter() - started


def row(game_id: str, spec: str) -> str:
    preparing, first = first_move(game_id, spec)
    mark = "" if first <= TARGET else "   over the target"
    return f"  {game_id:10s} {spec:22s} {preparing:6.2f} s {first:8.2f} s{mark}"


def main() -> None:
    print(f"First move in a new engine process: preparing, then clock start to first "
          f"result (target: <= {TARGET:g} s)")
    print("  cached kernels")
    for game_id in GAMES:
        game = get_game(game_id)
        for spec in AGENTS:
            if type(parse_agent(spec)).plays(game):
                print(row(game_id, spec))
    print(f"  an empty cache (everything compiles), {COLD_AGENT}")
    for game_id in GAMES:
        with empty_cache():
            print(row(game_id, COLD_AGENT))
    with empty_cache():
        began = time.perf_counter()
        subprocess.run([sys.executable, "-m", "plyground.core.fast.precompile"],
                       check=True, capture_output=True)
        print(f"  a fresh install: the precompile step took "
              f"{time.perf_counter() - began:.1f} s; then {COLD_AGENT} "
              f"(target: clock within {FRESH_TARGET:g} s)")
        for human in (None, HUMAN):
            print("  the agent moves first, in a new engine" if human is None else
                  f"  after a human's move {human:g} s into the game (the app, `play`)")
            for game_id in GAMES:
                preparing, first = first_move(game_id, COLD_AGENT, human)
                mark = "" if preparing <= FRESH_TARGET else "   over the target"
                print(f"  {game_id:10s} {COLD_AGENT:22s} {preparing:6.2f} s "
                      f"{first:8.2f} s{mark}")


@contextmanager
def empty_cache():
    """numba's cache, for the processes started meanwhile, an empty folder."""
    cache = os.environ.get("NUMBA_CACHE_DIR")
    with tempfile.TemporaryDirectory() as empty:
        os.environ["NUMBA_CACHE_DIR"] = empty  # read by the engine's process
        try:
            yield
        finally:
            if cache is None:
                os.environ.pop("NUMBA_CACHE_DIR", None)
            else:
                os.environ["NUMBA_CACHE_DIR"] = cache


if __name__ == "__main__":
    main()
