"""How a review's move labels look, on the command line and in the app: each label's
colour, and the annotation a move list prints after a move (as in chess: `?!` an
inaccuracy, `?` a mistake, `??` a blunder; best and good moves go unmarked)."""
from __future__ import annotations

from rich.text import Text

LABEL_STYLES = {"best": "bold green", "good": "green", "inaccuracy": "yellow",
                "mistake": "dark_orange", "blunder": "bold red"}
GLYPHS = {"best": "", "good": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
ESTIMATE_MARK = "~"  # after a label that comes from a search's estimate, not a proof


def label_text(move) -> Text:
    """A reviewed move's label (a core.review.MoveReview's), coloured, with `~` after
    it if it is an estimate."""
    text = Text(move.label, style=LABEL_STYLES[move.label])
    if not move.exact:
        text.append(f" {ESTIMATE_MARK}", style="dim")
    return text
