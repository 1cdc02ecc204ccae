"""Shakes hands with the lines its command line gives (each one argument), and
answers every search with column 4."""
import sys

from fakelib import send, serve

serve(lambda go: send("bestmove 4"), hello=sys.argv[1:])
