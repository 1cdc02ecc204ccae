"""Loads the theme files in `plyground.themes` as Textual themes.

A theme file is TOML: the Textual `Theme` fields (`name`, `primary`, `dark`, ...) at the
top level and a `[variables]` table for the colours the game boards use. A file that
cannot be read (read_text_file: a regular file under the size cap) is reported and
skipped; the app never fails to start over a theme.
"""
from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path

from textual.theme import Theme

from plyground.core import game_entries
from plyground.core.paths import UnreadableFile, parse_toml, read_text_file

# Board colours for themes that do not define them (Textual's built-in themes): these
# shared by the boards, and each game's own (`GameEntry.theme`).
BOARD_VARIABLE_DEFAULTS = {
    "board": "#1D4E9E",
    "board-hole": "#0B0E14",
    "board-win": "#FFFFFF",
}


def board_variable_defaults() -> dict[str, str]:
    """Every board colour variable with its default, the games' own included."""
    defaults = dict(BOARD_VARIABLE_DEFAULTS)
    for entry in game_entries():
        defaults.update(entry.theme)
    return defaults


def load_themes() -> tuple[list[Theme], list[str]]:
    """The themes found, and one message per theme file that could not be loaded."""
    themes, problems = [], []
    for entry in sorted(files("plyground.themes").iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        try:
            data = parse_toml(read_text_file(Path(str(entry)), "theme"))
            variables = {**board_variable_defaults(), **data.pop("variables", {})}
            themes.append(Theme(**data, variables=variables))
        except (tomllib.TOMLDecodeError, UnreadableFile, TypeError, ValueError) as error:
            problems.append(f"theme file {entry.name} was skipped: {error}")
    return themes, problems
