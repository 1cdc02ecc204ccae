"""Well behaved: says hello on stderr, two info lines, then column 4."""
import sys

from fakelib import send, serve

print("good engine: hello on stderr", file=sys.stderr, flush=True)
serve(lambda go: send("info depth 1 score 5 nodes 10 pv 4",
                      "info nodes 99 depth 3 score -7.5 pv 4 3 4 string thinking hard",
                      "bestmove 4"),
      hello=("id name Goodbot", "id author Tests", "option name level type int default 3",
             "option name style type string default calm", "plygroundok"))
