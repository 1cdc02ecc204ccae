"""What the brood engine and bot share: helpers that each take real memory and keep
it."""
import os
import time


def hold(size: int, ready: int) -> None:
    held = b"\1" * size  # every page written: memory the kernel must give
    os.write(ready, b"x")
    time.sleep(300)
    del held


def brood(count: int, size: int) -> list[int]:
    """Start `count` helpers that each take `size` bytes of real memory and keep it,
    deaf to SIGTERM and SIGHUP, sleeping for five minutes; their pids, once each holds
    its memory or has been killed (a helper the kernel killed for memory says so by
    closing its pipe unwritten)."""
    import signal

    helpers, pipes = [], []
    for _ in range(count):
        ours, theirs = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(ours)
                for number in (signal.SIGTERM, signal.SIGHUP):
                    signal.signal(number, signal.SIG_IGN)
                hold(size, theirs)
            finally:
                os._exit(1)
        os.close(theirs)
        helpers.append(pid)
        pipes.append(ours)
    for ours in pipes:
        os.read(ours, 1)  # b"x" once it holds its memory; b"" if it was killed
        os.close(ours)
    return helpers
