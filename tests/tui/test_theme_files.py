"""The theme files load and each sets every board colour itself (a missing one would
quietly fall back to the dark defaults in a light theme)."""
from __future__ import annotations

import tomllib
from importlib.resources import files

from plyground.tui.themes import board_variable_defaults, load_themes


def test_every_theme_file_loads_and_sets_every_board_colour():
    themes, problems = load_themes()
    assert not problems and {t.name for t in themes} >= {"plyground-dark", "plyground-light"}
    for entry in files("plyground.themes").iterdir():
        if entry.name.endswith(".toml"):
            variables = tomllib.loads(entry.read_text(encoding="utf-8"))["variables"]
            assert set(board_variable_defaults()) <= set(variables), entry.name
