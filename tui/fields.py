"""Numbers typed into the app's fields (a game's seed, an SPRT's bounds and pairs),
read with the same ranges as the command line's options (core/ranges.py): a field
that is not a number, or one out of its range, is one line naming the field."""
from __future__ import annotations

import math

from plyground.core import PlygroundError
from plyground.core.ranges import LARGEST_NUMBER, LARGEST_SEED


def number(name: str, text: str, whole: bool = False, least: float = -LARGEST_NUMBER,
           most: float = LARGEST_NUMBER) -> float:
    """A field's text as a number from `least` to `most` (finite: never nan or inf),
    or one line naming the field."""
    kind = "a whole number" if whole else "a number"
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        raise PlygroundError(f"{name}: {text.strip()!r} is not {kind}") from None
    if not (math.isfinite(value) and least <= value <= most):
        bounds = f"{least} to {most}" if whole else f"{least:g} to {most:g}"
        raise PlygroundError(f"{name}: {text.strip()} is not {kind} from {bounds}")
    return value


def seed(name: str, text: str) -> int | None:
    """A seed field: empty is None (a seed drawn for the game), else a whole number
    of the generator's 64 bits, as `--seed` takes."""
    text = text.strip()
    return int(number(name, text, whole=True, least=0, most=LARGEST_SEED)) if text \
        else None
