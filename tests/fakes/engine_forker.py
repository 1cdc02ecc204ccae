"""Starts a helper that sleeps for five minutes, deaf to SIGTERM and SIGHUP and away
from its pipes, and writes `<its own pid> <the helper's pid>` to the file its argument
names; then answers every `go` with the column given as its second argument (`never`:
it never answers)."""
import os
import signal
import sys
import time

from fakelib import send, serve

helper = os.fork()
if helper == 0:
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_IGN)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    time.sleep(300)
    os._exit(0)
with open(sys.argv[1], "w") as pids:
    pids.write(f"{os.getpid()} {helper}\n")
serve(lambda go: time.sleep(600) if sys.argv[2] == "never" else
      send(f"bestmove {sys.argv[2]}"))
