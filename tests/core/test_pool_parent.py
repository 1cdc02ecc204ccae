"""A local pool's workers end with the process that made them, however it ends: a
SIGKILL of a `plyground match` or `train` run leaves no worker playing on."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

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


def test_a_killed_parents_workers_end_with_it():
    parent = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert parent.stdout.readline().strip() == "ready"
        workers = [pid for pid in descendants(parent.pid) if running(pid)
                   and "spawn_main" in open(f"/proc/{pid}/cmdline").read()]
        assert len(workers) == 2, workers
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=60)
        assert still_running(workers, seconds=30) == []
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
