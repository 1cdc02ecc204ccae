"""Numbers typed into the app's fields (a game's seed, an SPRT's bounds and pairs),
read with the same ranges as the command line's options (core/ranges.py): a field
that is not a number, or one out of its range, is one line naming the field
(a FieldError, which says which field). A form shows that line and puts the cursor in
the field at fault (`refuse`), so that the user mends it where it is."""
from __future__ import annotations

import math
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator

from rich.text import Text

from plyground.core import PlygroundError
from plyground.core.errors import visible
from plyground.core.ranges import LARGEST_NUMBER, LARGEST_SEED

if TYPE_CHECKING:
    from textual.widget import Widget
    from textual.widgets import Static


class FieldError(PlygroundError):
    """A line saying what is wrong with one field, and the field's `name` (as the
    reader of the fields calls it), for the form to find the field by."""

    def __init__(self, message: str, name: str) -> None:
        super().__init__(message)
        self.name = name


@contextmanager
def blamed(name: str, prefix: str = "") -> Iterator[None]:
    """A PlygroundError raised in the block is the field `name`'s: a FieldError, its
    line after `prefix`."""
    try:
        yield
    except FieldError:
        raise
    except PlygroundError as error:
        raise FieldError(f"{prefix}{error}", name) from None


def refuse(line: Static, message: str, field: Widget | None = None) -> None:
    """Show why a form starts nothing in its error `line` (the message may quote what
    was typed: its control characters shown), and put the cursor in the `field` at
    fault, where one is known."""
    line.update(Text(visible(message)))
    if field is not None:
        field.focus()


def number(name: str, text: str, whole: bool = False, least: float = -LARGEST_NUMBER,
           most: float = LARGEST_NUMBER) -> float:
    """A field's text as a number from `least` to `most` (finite: never nan or inf),
    or one line naming the field (a FieldError named `name`)."""
    kind = "a whole number" if whole else "a number"
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        raise FieldError(f"{name}: {text.strip()!r} is not {kind}", name) from None
    if not (math.isfinite(value) and least <= value <= most):
        bounds = f"{least} to {most}" if whole else f"{least:g} to {most:g}"
        raise FieldError(f"{name}: {text.strip()} is not {kind} from {bounds}", name)
    return value


def seed(name: str, text: str) -> int | None:
    """A seed field: empty is None (a seed drawn for the game), else a whole number
    of the generator's 64 bits, as `--seed` takes."""
    text = text.strip()
    return int(number(name, text, whole=True, least=0, most=LARGEST_SEED)) if text \
        else None
