"""What the fake engines share: the protocol's loop, with the reply to `go` (and the
handshake) given by each fake. They play Connect 4 from positions the tests choose,
so they need no rules of their own."""
import sys


def send(*lines):
    for line in lines:
        print(line, flush=True)


def wait_for_stop():
    for line in sys.stdin:
        if line.strip() == "stop":
            return


def serve(go, hello=("id name Fake", "plygroundok")):
    """Answer plyground until `quit`: `go(words after go)` is each search's reply."""
    for line in sys.stdin:
        word, _, rest = line.strip().partition(" ")
        if word == "plyground":
            send(*hello)
        elif word == "isready":
            send("readyok")
        elif word == "go":
            go(rest.split())
        elif word == "quit":
            return
