"""The errors plyground reports to its user, at the bottom of core/ so that any module may
raise them.

Each message is a complete sentence meant for the user: the CLI prints it on one line,
the app shows it in the status bar. Nothing else is ever shown as an error.
"""


class PlygroundError(Exception):
    """An error caused by input (a move, a position, a name, an option)."""


class IllegalMove(PlygroundError):
    """A move that is well formed but not legal in the position."""


class NotationError(PlygroundError):
    """Text that is not a well-formed move or position."""


class UnknownName(PlygroundError):
    """A game, agent or option name that does not exist."""


class BadOption(PlygroundError):
    """A game option with a value the game does not allow."""


class PluginError(PlygroundError):
    """A plugin that cannot be found, imported or used."""


class BadSetting(PlygroundError):
    """An agent setting that does not exist or has a bad value."""


class AgentFault(PlygroundError):
    """An agent broke the rules of play: it raised, returned an illegal move or ran
    past its budget. Its side forfeits the game; the message says which and why."""


def shown(text: str) -> str:
    """`text` (a file name, say) as a message shows it: as it is, or in quotes with
    its escapes if a line break or another unprintable character would spoil the
    message's one line."""
    return text if text.isprintable() else repr(text)


def visible(text: str, lines: bool = False) -> str:
    """Text from outside plyground (a record's header or comment, a net's info, an
    engine's name, a visitor's input) made safe to show on a terminal: every character
    that is not printable (C0 and C1 controls, ESC among them; the bidi and zero-width
    characters that reorder or hide text, U+200B-U+200F, U+202A-U+202E, U+2066-U+2069;
    anything unassigned) written as its escape, as `shown` writes it (`\\x1b`,
    `\\u202e`), and the text otherwise as it was. `lines` keeps line breaks (`\\n`), for
    text shown over several lines. Every place that shows such text passes it here."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() or (lines and char == "\n")
                   else repr(char)[1:-1] for char in text)
