"""The pentanomial histogram: how many pairs fell in each of the five classes (A's
points in a pair: LL 0, LD ½, DD+WL 1, WD 1½, WW 2), a bar a class, the longest as
wide as the room left after the labels and counts.

    Pentanomial()
    histogram.show((1, 3, 10, 4, 2))
"""
from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from plyground.core.play.sprt import PAIR_CLASSES

LABEL = max(len(name) for name in PAIR_CLASSES) + 1
BAR = "█"


def bars(counts: tuple[int, ...], width: int) -> list[tuple[str, str, str]]:
    """(label, bar, count) per class, bars scaled so the largest fills the room."""
    room = max(width - LABEL - 1 - max(len(str(count)) for count in counts), 1)
    most = max(counts) or 1
    return [(f"{name:<{LABEL}}", BAR * round(count * room / most), f" {count}")
            for name, count in zip(PAIR_CLASSES, counts)]


class Pentanomial(Widget):
    DEFAULT_CSS = """
    Pentanomial { height: 5; width: 1fr; }
    Pentanomial > .pentanomial--bar { color: $accent; }
    """
    COMPONENT_CLASSES = {"pentanomial--bar"}

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.counts: tuple[int, ...] = (0,) * len(PAIR_CLASSES)

    def show(self, counts: tuple[int, ...]) -> None:
        self.counts = tuple(counts)
        self.refresh()

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="crop")
        bar_style = self.get_component_rich_style("pentanomial--bar")
        for index, (label, bar, count) in enumerate(bars(self.counts, self.size.width)):
            text.append(label)
            text.append(bar, bar_style)
            text.append(count)
            if index < len(PAIR_CLASSES) - 1:
                text.append("\n")
        return text
