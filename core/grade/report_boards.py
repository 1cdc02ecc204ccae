"""A position drawn as a board in the report: the picture the CLI prints (the game's
registered text renderer, as `plyground analyze` shows it), as HTML.

The caller hands the drawing in (`draw`: a state to styled text; the CLI's loads the
game's renderer, `GameEntry.renderer`, which is the UI's and imports rich, so core
never does). Styled text is plain characters and spans of style names such as "bold
red", read here by those two attributes alone, so that the report draws every game, a
plugin's too, with no picture of its own. Without a drawing, or one that gives
something else, a position is shown in the game's own notation.
"""
from __future__ import annotations

import html
from typing import Any, Callable

from ..errors import PlygroundError, visible
from ..game import Game, State
from ..records.positions import start_state

# the style names the renderers use, as CSS: dark enough to read on white
COLOURS = {"red": "#c0392b", "yellow": "#b7950b", "green": "#1e8449", "blue": "#1f4e9c",
           "magenta": "#8e44ad", "cyan": "#117a8b", "black": "#000", "white": "#777"}
WORDS = {"bold": "font-weight:bold", "dim": "color:#999", "italic": "font-style:italic",
         "underline": "text-decoration:underline",
         "reverse": "background:#333;color:#fff"}


Draw = Callable[[State], Any]  # a state to styled text (rich's Text, say)


def board_html(game: Game | None, position: str, draw: Draw | None = None) -> str:
    """The position as a `<pre class="board">`, or its text and why it is not drawn."""
    if game is None:
        return f'<pre class="board">{escaped(position)}</pre>'
    try:
        state = start_state(game, position)
    except PlygroundError as error:
        return (f'<pre class="board">{escaped(position)}</pre>'
                f'<br><span class="fault">not a position: {escaped(str(error))}</span>')
    mover = "" if state.outcome() is not None else \
        f'<br><span class="note">{escaped(game.side_labels[state.to_move])} to move</span>'
    return f'<pre class="board">{picture(state, draw)}</pre>{mover}'


def escaped(text: str, lines: bool = False) -> str:
    return html.escape(visible(text, lines=lines))


def picture(state: State, draw: Draw | None = None) -> str:
    drawn = draw(state) if draw is not None else None
    plain, spans = getattr(drawn, "plain", None), getattr(drawn, "spans", None)
    if not isinstance(plain, str) or spans is None:
        return escaped(state.game.format_position(state))
    cuts = sorted({0, len(plain), *(span.start for span in spans),
                   *(span.end for span in spans)})
    parts = []
    for start, end in zip(cuts, cuts[1:]):
        words = [word for span in spans if span.start <= start and end <= span.end
                 for word in str(span.style).split()]
        piece = escaped(plain[start:end], lines=True)
        css = style(words)
        parts.append(f'<span style="{css}">{piece}</span>' if css else piece)
    return "".join(parts)


def style(words: list[str]) -> str:
    """The CSS of a renderer's style words (later words win; unknown ones are left
    out)."""
    rules: dict[str, str] = {}
    background = False
    for word in words:
        if word == "on":
            background = True
            continue
        rule = (f"background:{COLOURS[word]}" if background and word in COLOURS
                else f"color:{COLOURS[word]}" if word in COLOURS else WORDS.get(word))
        background = False
        for item in (rule or "").split(";"):
            if item:
                name, _, value = item.partition(":")
                rules[name] = value
    return ";".join(f"{name}:{value}" for name, value in rules.items())
