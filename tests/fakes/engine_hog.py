"""Takes 3 GiB of address space at each `go` (`bytes` of that size: the pages are
never touched, so it costs no real memory), keeps it, then answers column 4."""
from fakelib import send, serve

hoard = []


def go(words):
    hoard.append(bytes(3 << 30))
    send("bestmove 4")


serve(go)
