"""A local pool's workers end with the process that made them, however it ends: a
SIGKILL of a `plyground match` or `train` run leaves no worker playing on."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

from tests.processes import descendants, running, still_running

SCRIPT = textwrap.dedent("""
    import os, sys, time
    from plyground.core.game import get_game
    from plyground.core.play.tournament import local_pool

    with local_pool(get_game("connect4"), 2) as pool:
        futures = [pool.executor.submit(time.sleep, 600) for _ in range(2)]
        print("ready", flush=True)
        time.sleep(600)
""")


def pool_workers(parent: int, seconds: float = 30) -> list[int]:
    """The pool's worker processes below `parent`, once both are there: on a loaded
    machine a worker just forked still shows its parent's command line for a while."""
    deadline = time.monotonic() + seconds
    while True:
        workers = []
        for pid in descendants(parent):
            try:
                if running(pid) and "spawn_main" in open(f"/proc/{pid}/cmdline").read():
                    workers.append(pid)
            except OSError:  # ended meanwhile
                pass
        if len(workers) >= 2 or time.monotonic() > deadline:
            return workers
        time.sleep(0.05)


def test_a_killed_parents_workers_end_with_it():
    parent = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert parent.stdout.readline().strip() == "ready"
        workers = pool_workers(parent.pid)
        assert len(workers) == 2, workers
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=60)
        assert still_running(workers, seconds=30) == []
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
