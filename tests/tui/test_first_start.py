"""The app's first start, when numba's cache lacks a game's kernels: they compile in a
background process whose progress the app shows, and a game started meanwhile says
what it waits for (not `thinking…`); its agent's clock starts once they are ready.

The compile here is a stand-in (a slow warm-up): a process that says Quarto's kernels
are missing and compiling, while the test holds the lock a compile holds, until the
test lets it finish."""
from __future__ import annotations

import fcntl
import sys
import time

from plyground.core.fast import cache
from plyground.core.game import get_game
from plyground.core.play.worker import EngineStarted
from plyground.tui import first_start
from plyground.tui.screens.game import GameScreen
from tests.tui.helpers import SIZE, make_app, record_notifications, status_text, wait_until
from tests.tui.test_search_driver import driver, outside_agent

QUARTO = ["plyground.core.fast.quarto", "plyground.core.fast.quarto_mcts"]
SLOW_COMPILE = """
import os, sys, time
print("missing quarto", flush=True)
print("compiling quarto", flush=True)
while not os.path.exists(sys.argv[1]):
    time.sleep(0.05)
print("ready quarto 1.0", flush=True)
print("done", flush=True)
"""


async def test_a_game_started_during_the_first_start_compile_says_it_waits_for_it(
        monkeypatch, tmp_path):
    finished = tmp_path / "finished"
    monkeypatch.setattr(first_start, "RUN_HEADLESS", True)
    monkeypatch.setattr(first_start, "command",
                        lambda first: [sys.executable, "-c", SLOW_COMPILE, str(finished)])
    started: list[float] = []
    on_engine_update = GameScreen.on_engine_update

    def record(screen, message):
        if isinstance(message.update, EngineStarted):
            started.append(time.monotonic())
        on_engine_update(screen, message)

    monkeypatch.setattr(GameScreen, "on_engine_update", record)
    app = make_app("quarto", sides=("mcts:iterations=200,seed=1", "human"))
    told = record_notifications(app)
    path = cache.lock_path("quarto", QUARTO)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the compile in progress
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: first_start.FIRST_START in status_text(app))
            await pilot.pause(2.0)  # time for the engine to start, if it would
            status = status_text(app)
            assert "(MCTS (200 iterations)): preparing the game's engine (first start " \
                   "only)…" in status
            assert "thinking" not in status and not started
            assert any("Compiling the game engines, once (about 6 s; 1 to do)" in text
                       for text in told)
            released = time.monotonic()
            fcntl.flock(lock, fcntl.LOCK_UN)
            finished.touch()
            # (a kernel changed since it was cached: the engine compiles it now)
            await wait_until(pilot, lambda: bool(app.game_screen.match.moves), timeout=600)
            await wait_until(pilot, lambda: any("Quarto's engine is ready (1 of 1)" in text
                                                for text in told))
            assert not first_start.waiting_for("quarto")
    assert started and started[0] > released  # the clock started once they were ready
    assert app.first_start.process is None  # the compile's process ended with the app


def test_an_outside_agent_is_not_called_hung_while_its_kernels_compile(monkeypatch):
    """An agent from outside that does not answer long after its time forfeits; the
    first start's compile of its game's kernels, before its clock, is no part of that
    time."""
    compiling = {"connect4"}
    monkeypatch.setattr(first_start, "waiting_for", lambda game_id: game_id in compiling)
    game = get_game("connect4")
    agent = outside_agent()  # as an agent from outside plyground, with a clock
    search_driver, engine, clock = driver()
    search_driver.start_move(game, game.start(), agent, False)
    clock.now += 60  # a compile of a minute, on a busy machine
    assert search_driver.hung() is None
    assert search_driver.doing() == f": {first_start.FIRST_START}"
    compiling.clear()
    clock.now += 9
    assert search_driver.hung() is None and search_driver.search is not None
    clock.now += 2
    assert search_driver.hung() == f"{agent.label} did not answer within 10 s (1 s a move)"
