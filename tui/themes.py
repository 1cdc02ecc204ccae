"""Loads the theme files in `plyground.themes` as Textual themes.

A theme file is TOML: the Textual `Theme` fields (`name`, `primary`, `dark`, ...) at the
top level and a `[variables]` table for the colours the game boards use. A file that
cannot be read is reported and skipped; the app never fails to start over a theme.
"""
from __future__ import annotations

import tomllib
from importlib.resources import files

from textual.theme import Theme

# Board colours for themes that do not define them (Textual's built-in themes).
BOARD_VARIABLE_DEFAULTS = {
    "piece-first": "#E5534B",
    "piece-second": "#F2CC3D",
    "board": "#1D4E9E",
    "board-hole": "#0B0E14",
    "board-win": "#FFFFFF",
    "dice-first": "#D64541",
    "dice-second": "#3A7BD5",
    "dice-pips": "#FFFFFF",
    "quarto-dark": "#6B3F22",  # walnut and maple: dark and light pieces, also in grey
    "quarto-light": "#E8CC94",
    "boom-first": "#6BC46D",  # Green and Blue
    "boom-second": "#3A7BD5",
}


def load_themes() -> tuple[list[Theme], list[str]]:
    """The themes found, and one message per theme file that could not be loaded."""
    themes, problems = [], []
    for entry in sorted(files("plyground.themes").iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        try:
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
            variables = {**BOARD_VARIABLE_DEFAULTS, **data.pop("variables", {})}
            themes.append(Theme(**data, variables=variables))
        except (tomllib.TOMLDecodeError, TypeError, ValueError, UnicodeDecodeError) as error:
            problems.append(f"theme file {entry.name} was skipped: {error}")
    return themes, problems
