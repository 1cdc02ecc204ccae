"""Which files a setting that names a file (a FileSetting: az's `net`, ga's `profile`, a
plugin's own) may name: a policy given to spec parsing (`parse_agent(spec, files=...)`),
asked for each such setting before the agent is made, so before any file is read.

A policy is a callable `(kind, setting, text) -> text`: the path to use, or a
PlygroundError in one line. The user's own command line has none (any file the user
may read). A lesson's is the lesson-folder rule (core/study/lesson_files.py:
relative, inside the lesson's folder, no `..` or link out). A served visitor's is
`OfferedFiles`: the files plyground ships for the setting and those in the server's
save folder.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..errors import PlygroundError

# (the agent's kind, the FileSetting, the text given) -> the path to use
FilePolicy = Callable[[str, Any, str], str]


@dataclass(frozen=True)
class OfferedFiles:
    """The files a visitor of `plyground serve` may name: those plyground ships for
    the setting (a game's network, the GA profiles the menus offer) and any inside
    `folders` (the server's save folder). Anything else is refused with the same line,
    whatever the path is (missing, a folder, a file of another kind, unreadable), so
    that a visitor learns nothing of the server's files by naming them."""

    folders: tuple[Path, ...] = ()

    def __call__(self, kind: str, setting: Any, text: str) -> str:
        refusal = PlygroundError(
            f"{kind}: {setting.name} may name only a file this server offers: the "
            "shipped ones, or one saved in its save folder")
        try:
            path = Path(text).expanduser().resolve()
            offered = {Path(found).resolve() for found in (setting.offered or list)()}
            folders = [Path(folder).resolve() for folder in self.folders]
        except (OSError, RuntimeError, ValueError):  # a loop of links, a NUL
            raise refusal from None
        if path in offered or any(path != folder and path.is_relative_to(folder)
                                  for folder in folders):
            return str(path)
        raise refusal
