"""A footer that never cuts a key in half.

Textual's footer lays its keys out in a row and a narrow terminal cuts the row where it
ends, so the last keys (often the ones a user needs: Review, Save, Setup) vanish
mid-word. This one, when its keys do not fit, first shortens each label to its first
word ("Step through search" → "Step"), then leaves out whole keys in the order the
screen's FOOTER_SPARE names them (the least needed first); the help key, which lists
every key, always stays.
"""
from __future__ import annotations

from rich.cells import cell_len
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

ALWAYS = "help"  # the action of the key the footer never leaves out


def outer_width(widget: Widget) -> int:
    """The cells `widget` takes in the footer's row, margins included."""
    if isinstance(widget, FooterKey):
        content = widget.render().cell_len
    elif widget.children:
        content = sum(outer_width(child) for child in widget.children)
    else:
        content = cell_len(str(getattr(widget, "content", "")))
    return content + widget.styles.gutter.width + widget.styles.margin.width


def actions(widget: Widget) -> set[str]:
    """The actions of the keys in `widget` (a key, or a group of keys and its label)."""
    if isinstance(widget, FooterKey):
        return {widget.action}
    return {action for child in widget.children for action in actions(child)}


class KeyFooter(Footer):
    """The footer of a screen whose keys may not all fit (see the module's doc)."""

    # Compact, a key group (`← → Event`) is spaced as the other keys are, one space
    # after each key and after its label (Textual's compact style runs its label
    # into the next key).
    DEFAULT_CSS = """
    KeyFooter.-compact FooterLabel { margin: 0 1 0 0; }
    KeyFooter.-compact FooterKey.-grouped { margin: 0 1 0 0; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.left_out: list[str] = []  # the actions of the keys not shown (tests read it)
        self.labels: dict[FooterKey, str] = {}  # each key's full label

    async def recompose(self) -> None:
        await super().recompose()
        self.labels = {key: key.description for key in self.query(FooterKey)}
        self.fit()

    def on_resize(self) -> None:
        self.fit()

    def fit(self) -> None:
        room = self.size.width
        entries = [child for child in self.children
                   if not child.has_class("-command-palette")]
        if not room or not entries:
            return
        for key, label in self.labels.items():
            key.description = label
        used = sum(outer_width(entry) for entry in entries) + self.palette_width()
        if used > room:
            for key, label in self.labels.items():
                key.description = label.split(" ", 1)[0]
            used = sum(outer_width(entry) for entry in entries) + self.palette_width()
        spare = list(getattr(self.screen, "FOOTER_SPARE", ()))
        shown = {entry: True for entry in entries}
        while used > room and spare:
            action = spare.pop(0)
            for entry in entries:
                if shown[entry] and action in actions(entry) and ALWAYS not in actions(entry):
                    shown[entry] = False
                    used -= outer_width(entry)
        self.left_out = []
        for entry, show in shown.items():
            entry.display = show
            if not show:
                self.left_out.extend(sorted(actions(entry)))
        for key in self.labels:
            key.refresh(layout=True)

    def palette_width(self) -> int:
        return sum(outer_width(child) for child in self.children
                   if child.has_class("-command-palette"))
