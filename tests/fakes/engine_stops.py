"""Thinks until told to `stop` (an info line first), then answers column 3."""
from fakelib import send, serve, wait_for_stop

serve(lambda go: (send("info depth 1 pv 3"), wait_for_stop(), send("bestmove 3")))
