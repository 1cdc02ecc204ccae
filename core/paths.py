"""Where plyground keeps its files: $PLYGROUND_HOME, else the user's data directory
(~/.local/share/plyground, or $XDG_DATA_HOME/plyground)."""
from __future__ import annotations

import os
from pathlib import Path


def data_home() -> Path:
    """The folder for logs, the game history and saved games (created)."""
    home = os.environ.get("PLYGROUND_HOME")
    if home:
        folder = Path(home).expanduser()
    else:
        base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
        folder = Path(base).expanduser() / "plyground"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
