"""At each `go`, 2,500 info lines of 10,000 characters (25 MB, past the log's cap),
then column 4."""
from fakelib import send, serve

LINE = "info depth 1 string " + "x" * 9_980


def go(words):
    for _ in range(2_500):
        send(LINE)
    send("bestmove 4")


serve(go)
