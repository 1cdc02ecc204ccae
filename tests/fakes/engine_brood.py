"""At each `go`, starts four helpers that each take 250 MiB of real memory (written,
not only reserved) and keep it, deaf to SIGTERM and SIGHUP; once each holds it (or has
been killed), writes `<its own pid> <the helpers' pids>` to the file its argument
names, says `info string held`, and answers column 4."""
import os
import sys

from fakelib import send, serve

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "plugins", "bots"))
from brood_helpers import brood  # noqa: E402


def go(words):
    helpers = brood(4, 250 << 20)
    with open(sys.argv[1], "w") as pids:
        pids.write(" ".join(map(str, [os.getpid(), *helpers])) + "\n")
    send("info string held", "bestmove 4")


serve(go)
