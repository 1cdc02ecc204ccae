"""Plays its first move, then crashes (exit code 3) in its second search."""
import sys

from fakelib import send, serve

searches = []


def go(words):
    searches.append(words)
    if len(searches) == 2:
        print("crash engine: out of cheese", file=sys.stderr, flush=True)
        sys.exit(3)
    send("bestmove 4")


serve(go)
