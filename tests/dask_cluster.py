"""A real Dask cluster on 127.0.0.1, started as a user starts one (Dask's own `dask
scheduler` and `dask worker --nthreads 1` commands, the venv's), for the cluster tests
and bench. Its processes always end with it."""
from __future__ import annotations

import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from distributed import Client

DASK = str(Path(sys.executable).with_name("dask"))
START_SECONDS = 120  # a hang guard for a busy machine, not a speed claim


class DaskCluster:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.scheduler_file = folder / "scheduler.json"
        self.processes: list[subprocess.Popen] = []
        self.address = ""

    def launch(self, *arguments: str) -> subprocess.Popen:
        process = subprocess.Popen(
            [DASK, *arguments, "--no-dashboard"], cwd=self.folder,
            stdout=subprocess.DEVNULL, stderr=open(self.folder / "dask.log", "a"))
        self.processes.append(process)
        return process

    def start_scheduler(self) -> None:
        self.scheduler_file.unlink(missing_ok=True)  # a past cluster's
        self.launch("scheduler", "--host", "127.0.0.1", "--port", "0",
                    "--scheduler-file", str(self.scheduler_file))
        deadline = time.monotonic() + START_SECONDS
        while not self.scheduler_file.exists():
            assert time.monotonic() < deadline, "the Dask scheduler did not start"
            time.sleep(0.1)
        with Client(scheduler_file=str(self.scheduler_file), timeout=START_SECONDS,
                    set_as_default=False) as client:
            self.address = client.scheduler.address

    def start_worker(self) -> tuple[subprocess.Popen, str]:
        """One more single-thread worker and its address, once the scheduler counts
        it (without a nanny, so that killing it loses it for good)."""
        with Client(self.address, set_as_default=False) as client:
            before = set(client.scheduler_info()["workers"])
            worker = self.launch("worker", self.address, "--nthreads", "1",
                                 "--no-nanny", "--host", "127.0.0.1",
                                 "--local-directory", str(self.folder))
            client.wait_for_workers(len(before) + 1, timeout=START_SECONDS)
            (address,) = set(client.scheduler_info()["workers"]) - before
        return worker, address

    def close(self) -> None:
        for process in self.processes:
            process.kill()
        for process in self.processes:
            process.wait(START_SECONDS)


@contextmanager
def dask_cluster(folder: Path, workers: int) -> Iterator[DaskCluster]:
    """A scheduler and `workers` single-thread workers; all killed on leaving."""
    cluster = DaskCluster(folder)
    try:
        cluster.start_scheduler()
        for _ in range(workers):
            cluster.start_worker()
        yield cluster
    finally:
        cluster.close()
