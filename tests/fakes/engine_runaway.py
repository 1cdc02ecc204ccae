"""Starts a helper that leaves the engine's session (setsid) and its process tree (a
second fork, its parent gone), deaf to SIGTERM and SIGHUP and away from its pipes, then
sleeping for five minutes; adds `<its own pid> <the helper's pid>` to the file its
argument names (a line for each start); then answers every `go` with the column given
as its second argument."""
import os
import sys

from fakelib import send, serve

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "plugins", "bots"))
from runaway_helper import escape  # noqa: E402

helper = escape()
with open(sys.argv[1], "a") as pids:
    pids.write(f"{os.getpid()} {helper}\n")
serve(lambda go: send(f"bestmove {sys.argv[2]}"))
