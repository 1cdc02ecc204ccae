"""Importing the app does nothing but define it: Textual's frame rate is raised when an
app is made, and no agent is made (which would load every plugin) until one is needed."""
from __future__ import annotations

import os
import subprocess
import sys

PROGRAM = """
import importlib.metadata, textual.screen
asked = []
entry_points = importlib.metadata.entry_points
importlib.metadata.entry_points = lambda **kw: asked.append(kw.get("group")) \\
    or entry_points(**kw)
import plyground.tui.app
print(round(1 / textual.screen.UPDATE_PERIOD), "plyground.agents" in asked)
plyground.tui.app.create_app()
print(round(1 / textual.screen.UPDATE_PERIOD))
"""


def test_importing_the_app_changes_no_setting_and_loads_no_plugin():
    environ = {key: value for key, value in os.environ.items() if key != "TEXTUAL_FPS"}
    out = subprocess.run([sys.executable, "-c", PROGRAM], env=environ, check=True,
                         capture_output=True, text=True).stdout.split("\n")
    assert out[:2] == ["60 False", "120"]
