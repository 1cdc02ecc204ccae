"""Answers with the move its command line names (`9`: not a column)."""
import sys

from fakelib import send, serve

serve(lambda go: send("bestmove " + " ".join(sys.argv[1:])))
