"""Talks nonsense around a legal answer (and in its handshake)."""
from fakelib import send, serve

serve(lambda go: send("hello there", "", "info depth lots", "info colour blue",
                      "info depth 2 pv 4 9 4", "readyok", "bestmove 5"),
      hello=("uciok", "id name Chatty", "whatever", "plygroundok"))
