"""At `go`, 20 MB of one info line that never ends (no newline), then it waits."""
import sys

from fakelib import serve, wait_for_stop


def go(words):
    sys.stdout.write("info string ")
    for _ in range(20):
        sys.stdout.write("x" * 1_000_000)
    sys.stdout.flush()
    wait_for_stop()


serve(go)
