"""Hostile in words only: it names itself with terminal escapes (erase the line, the
window title, clear the screen, the clipboard, a C1 CSI, bidi and zero-width characters)
and says them again in its info string; its name ends in Rich markup, to be shown as
written. Then it plays column 4, as a good engine does."""
from fakelib import send, serve

SEQUENCES = ("\x1b[2K\x1b[1G", "\x1b[8m", "\x1b]0;pwned\x07", "\x1b[2J\x1b[H", "\x1b[31m",
             "\x1b]52;c;ZWNobyBoaQ==\x07", "\x9b2J", "\u202e", "\u2066", "\u200b")


def hostile(tag):
    return "".join(f"{tag}{index}~{sequence}" for index, sequence in enumerate(SEQUENCES))


serve(lambda go: send(f"info depth 1 score 5 nodes 10 pv 4 string {hostile('I')}",
                      "bestmove 4"),
      hello=(f"id name {hostile('N')} [b]markup[/b]", "id author Tests", "plygroundok"))
