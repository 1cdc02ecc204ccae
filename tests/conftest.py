"""Test-wide settings."""
from hypothesis import settings

# Property tests explore the same examples on every run: CI must not flake.
settings.register_profile("plyground", derandomize=True, deadline=None, max_examples=100)
settings.load_profile("plyground")

import os
import signal
import sys
import tempfile

import pytest

# Nothing a test does may write to the user's own data folder (logs, the game
# history): the whole run gets a folder of its own, which subprocesses inherit. Under
# pytest-xdist (`make test` runs two workers) each worker has its own, so that one
# worker's games, runs and processes are never another's.
WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if "PLYGROUND_TEST_HOME" not in os.environ or WORKER and \
        os.environ.get("PLYGROUND_TEST_WORKER") != WORKER:
    os.environ["PLYGROUND_HOME"] = os.environ["PLYGROUND_TEST_HOME"] = tempfile.mkdtemp(
        prefix=f"plyground-tests-{WORKER or 'run'}-")
    if WORKER:
        os.environ["PLYGROUND_TEST_WORKER"] = WORKER


@pytest.fixture(autouse=True)
def signal_mask_kept():
    """A test leaves the main thread's signal mask as it found it: every process a
    later test starts inherits it. (One left SIGINT blocked, so that each command a
    later test started ignored Ctrl-C.)"""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    yield
    after = signal.pthread_sigmask(signal.SIG_SETMASK, before)
    assert after == before, f"the test left these signals blocked: {sorted(after - before)}"


@pytest.fixture(autouse=True)
def no_engine_outlives_its_test():
    """An engine an agent started in the test process (engines are kept for the
    process's next move) is told to quit when its test ends, whichever test it was."""
    yield
    engine_protocol = sys.modules.get("plyground.core.agents.external")
    if engine_protocol is not None:
        engine_protocol.close_engines()


def processes_of_this_run() -> list[int]:
    """The processes that tests of this run started (they inherit its
    PLYGROUND_TEST_HOME) and that are still running, but for this one and its own
    helpers (multiprocessing's resource tracker)."""
    from tests.processes import live_processes, running

    mark = f"PLYGROUND_TEST_HOME={os.environ['PLYGROUND_TEST_HOME']}".encode()
    found = []
    for pid in live_processes():
        if pid == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as environ:
                if mark not in environ.read().split(b"\0"):
                    continue
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if "resource_tracker" not in command and running(pid):
            found.append(pid)
    return found


def pytest_sessionfinish(session, exitstatus):
    """Nothing left behind: a process a test started and did not end fails the run.
    (Under pytest-xdist each worker checks its own; the controller started none.)"""
    from tests.processes import still_running

    if getattr(session.config.option, "numprocesses", None) and WORKER is None:
        return

    left = still_running(processes_of_this_run(), seconds=15)
    if left:
        lines = []
        for pid in left:
            try:
                with open(f"/proc/{pid}/environ", "rb") as environ:
                    test = next((v.split(b"=", 1)[1].decode() for v in environ.read().split(b"\0")
                                 if v.startswith(b"PYTEST_CURRENT_TEST=")), "?")
                with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                    command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            lines.append(f"  pid {pid}, started by {test}: {command[:120]}")
        if lines:
            print("\nprocesses the tests left running:\n" + "\n".join(lines))
            session.exitstatus = 1
