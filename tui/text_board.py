"""Boards as rich renderables: the static pictures the CLI prints (demo, analyze).

The Textual app draws boards with its own widgets; these are for a terminal log, so
they must read well without colour too. A game names its function when it registers
(`GameEntry.renderer`, plyground's own in tui/widgets/text/); one without gets its
position in its own notation.
"""
from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from plyground.core import State
from plyground.core.game import load_ref


def render_board(state: State) -> RenderableType:
    ref = state.game.entry.renderer
    if ref is None:
        return Text(state.game.format_position(state))
    return load_ref(ref)(state)
