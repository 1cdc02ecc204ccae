"""The theme files load and each sets every board colour itself (a missing one would
quietly fall back to the dark defaults in a light theme)."""
from __future__ import annotations

import tomllib
from importlib.resources import files

from plyground.core import game_entries
from plyground.tui.themes import BOARD_VARIABLE_DEFAULTS, load_themes


def own_board_colours() -> set[str]:
    """The shared board colours and those of plyground's own games (an installed
    game's colours are its own defaults: plyground's theme files cannot know them)."""
    names = set(BOARD_VARIABLE_DEFAULTS)
    for entry in game_entries():
        if entry.factory.__module__.startswith("plyground."):
            names |= set(entry.theme)
    return names


def test_every_theme_file_loads_and_sets_every_board_colour():
    themes, problems = load_themes()
    assert not problems and {t.name for t in themes} >= {"plyground-dark", "plyground-light"}
    for entry in files("plyground.themes").iterdir():
        if entry.name.endswith(".toml"):
            variables = tomllib.loads(entry.read_text(encoding="utf-8"))["variables"]
            assert own_board_colours() <= set(variables), entry.name
