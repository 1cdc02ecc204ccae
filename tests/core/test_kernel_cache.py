"""A move's clock never pays for compiling kernels: numba caches every kernel on disk,
so a new process (the app's engine, a retry, a match worker) loads them all in its
warm-up, and nothing a search then runs is compiled or loaded on its clock. The
engine tells its listener when a search's clock starts, after the warm-up, so that
the app shows the wait before it as preparing, not thinking."""
from __future__ import annotations

import json
import queue
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from plyground.core import get_game
from plyground.core.play.worker import (Engine, EngineDone, EngineEvents, EngineStarted,
                                        Request, SearchRequest)
from plyground.core.search.events import SearchDone

ROOT = Path(__file__).resolve().parents[2]
KERNEL_GAMES = ("connect4", "boom", "cephalopod", "quarto")
AGENTS = ("alphabeta:depth=3", "mcts:iterations=400,seed=1",
          "mcts:uct=plain,iterations=400,seed=1")
PROBE = "from tests.core.test_kernel_cache import probe; probe()"


def dispatchers() -> dict:
    """Every numba kernel of plyground's fast paths, by `module.name`."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    from plyground.core import fast

    found = {}
    for info in pkgutil.iter_modules(fast.__path__):
        module = importlib.import_module(f"{fast.__name__}.{info.name}")
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == module.__name__:
                found[f"{info.name}.{name}"] = value
    return found


def probe() -> None:
    """In a new process: warm every game with kernels up (and the perfect agent), say
    which kernels were loaded from numba's cache and which compiled, then search with
    each agent (renumbering MCTS trees early, as long searches do) and say which
    kernels those searches compiled or loaded. Prints JSON."""
    from plyground.core.connect4 import solver as perfect
    from plyground.core.catalogue import parse_agent
    from plyground.core.fast import mcts_tree, warm_up
    from tests.core.positions import play_randomly
    import random

    for game_id in KERNEL_GAMES:
        warm_up(game_id)
    perfect.warm_up()
    kernels = dispatchers()
    loaded = {name: len(d.signatures) for name, d in kernels.items() if d.signatures}
    compiled = sorted(name for name, d in kernels.items()
                      if d.stats.cache_misses or len(d.stats.cache_hits) < len(d.signatures))
    mcts_tree.KernelTree.RELAYOUT_FROM = 8
    for game_id in KERNEL_GAMES:
        game = get_game(game_id)
        for state in (game.start(), play_randomly(random.Random(1), game, 6)):
            for spec in AGENTS + (("perfect",) if game_id == "connect4" else ()):
                agent = parse_agent(spec)
                agent.prepare()
                agent.decide(state)
    after = {name: len(d.signatures) for name, d in dispatchers().items() if d.signatures}
    by_searches = sorted(name for name in after if after[name] != loaded.get(name, 0))
    print(json.dumps({"loaded": loaded, "compiled": compiled, "by_searches": by_searches}))


def run_probe() -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True,
                          text=True, timeout=900)  # a bound on a hang: a cold cache compiles
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_a_new_process_loads_every_kernel_from_the_cache_and_no_search_compiles_one():
    run_probe()  # compiles whatever is not cached yet, and caches it
    second = run_probe()
    assert second["compiled"] == []
    modules = {name.partition(".")[0] for name in second["loaded"]}
    for game_id in KERNEL_GAMES:
        kernels = get_game(game_id).entry.kernels
        for module in kernels.modules():  # each game's alpha-beta and MCTS kernels
            assert module.rpartition(".")[2] in modules, module
    assert "c4solver" in modules
    assert second["by_searches"] == []


@dataclass(frozen=True)
class Preparing(Request):
    """A request that prepares (an event), starts its clock, then searches (an event)."""

    def run(self, observer, stop, clock) -> SearchDone:
        observer("preparing")
        clock()
        observer("searching")
        clock()
        return SearchDone(0, None, (), 0, 0.0)


def updates_of(request) -> list:
    """What the engine's listener receives for `request`, in order, up to its end."""
    updates = queue.Queue()
    with Engine(updates.put) as engine:
        engine.submit(request)
        seen = [updates.get(timeout=300)]  # a bound on a hang: a cold cache compiles
        while not isinstance(seen[-1], EngineDone):
            seen.append(updates.get(timeout=300))
    return seen


def test_the_engine_says_when_a_searchs_clock_starts():
    seen = updates_of(Preparing())
    assert [type(update) for update in seen] == [EngineEvents, EngineStarted, EngineEvents,
                                                 EngineDone]
    assert seen[0].events == ["preparing"] and seen[2].events == ["searching"]


@dataclass(frozen=True)
class ObservedWarmUp(SearchRequest):
    """A search request whose warm-up is announced as an event."""

    def run(self, observer, stop, clock) -> SearchDone:
        from plyground.core import fast

        real = fast.warm_up

        def warm_up(game_id: str) -> None:
            observer("warm-up")
            real(game_id)

        fast.warm_up = warm_up
        try:
            return super().run(observer, stop, clock)
        finally:
            fast.warm_up = real


def test_a_new_engine_warms_up_before_the_searchs_clock_starts():
    game = get_game("quarto")
    seen = updates_of(ObservedWarmUp("quarto", game.format_position(game.start()),
                                     "mcts:iterations=200,seed=1"))
    started = next(i for i, update in enumerate(seen) if isinstance(update, EngineStarted))
    before = [e for update in seen[:started] for e in update.events]
    after = [e for update in seen[started:] if isinstance(update, EngineEvents)
             for e in update.events]
    assert before == ["warm-up"]
    assert after and "warm-up" not in after  # the search's own events
