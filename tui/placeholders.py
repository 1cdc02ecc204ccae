"""Placeholders that fit their box. An Input cuts its placeholder at its right edge,
mid-word, and a box's width depends on the terminal's: each placeholder here is the
longest of its wordings that the box shows whole, refitted when the box is resized."""
from __future__ import annotations

from rich.cells import cell_len
from textual.widgets import Input

# "Other agent…": every form a spec takes, then fewer as the box narrows
OTHER_WORDINGS = (
    'any agent: path/to/bot.py:Class, package.module:Class or engine:cmd="./mybot"',
    'path/to/bot.py:Class, package.module:Class or engine:cmd="./mybot"',
    'bot.py:Class, module:Class or engine:cmd="./bot"',
    "bot.py:Class or module:Class",
    "bot.py:Class, engine:…",
    "bot.py:Class",
)


def position_wordings(example: str) -> tuple[str, ...]:
    """The Start position box: empty is the usual start; an example when it fits (the
    help under the box always gives one)."""
    return (f"empty: the usual start (or e.g. {example})",
            "empty: the usual start (e.g. below)",
            "empty: the usual start",
            "empty: usual start")


def room(box: Input) -> int:
    """Columns the box shows its placeholder in (an empty box's cursor stands on its
    first letter); 0 before it is laid out."""
    return box.content_size.width


def fitting(wordings: tuple[str, ...], width: int) -> str:
    """The first (the longest) of `wordings` shown whole in `width` columns, else the
    last. Before layout (width 0) the first: the box is fitted again once sized."""
    if width <= 0:
        return wordings[0]
    return next((text for text in wordings if cell_len(text) <= width), wordings[-1])


class FittedInput(Input):
    """An Input whose placeholder is the longest of its wordings that fits it, now and
    after each resize (`fit`; none: the plain `placeholder` stands)."""

    wordings: tuple[str, ...] = ()

    def fit(self, wordings: tuple[str, ...]) -> None:
        self.wordings = wordings
        self.placeholder = fitting(wordings, room(self)) if wordings else ""

    def on_resize(self) -> None:
        if self.wordings:
            self.placeholder = fitting(self.wordings, room(self))
