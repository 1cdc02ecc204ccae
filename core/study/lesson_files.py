"""The files a lesson may name: the record a scene opens, the lesson its `otherwise`
gives way to, and every file its agents' settings name (az's `net`, ga's `profile`,
any FileSetting). One rule for all of them (`record_beside`), the one a notebook and
the files beside it follow: relative to the lesson's folder, inside it.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..agents.base import FileSetting
from ..catalogue import HUMAN, parse_agent
from ..errors import PlygroundError, shown


def record_beside(folder: Path, name: Any, key: str = "record", whose: str = "lesson"
                  ) -> Path:
    """The record file a scene names (or the lesson its `otherwise` names, or the file
    an agent's setting names: az's `net`, ga's `profile`): a
    path relative to the lesson's folder that stays
    inside it (no absolute path, no `..`, no symbolic link leading out). Lessons are
    handed from one person to another: if one could name any file, checking it would
    read whatever its reader may read (and a fault would show the file's first line),
    and it would name files on its author's machine that its reader does not have.
    Kept to its folder, a lesson and its records travel together, as a notebook and
    the files beside it do. (A grading spec's files follow the same rule: `whose`
    names the file in the messages.)"""
    if not isinstance(name, str) or not name.strip():
        raise PlygroundError(f"{key} names a file in the {whose}'s folder, in quotes "
                             f'({key} = "endgame.txt")')
    relative = Path(name)
    if relative.is_absolute() or ".." in relative.parts or name.startswith("~"):
        raise PlygroundError(f"{key} {shown(name)}: a {whose}'s {key} is a file in the "
                             f"{whose}'s folder or below it, named relative to it "
                             "(no absolute path, no ..)")
    path = folder / relative
    if not path.resolve().is_relative_to(folder.resolve()):
        raise PlygroundError(f"{key} {shown(name)}: a symbolic link that leads out of "
                             f"the {whose}'s folder")
    return path


@dataclass(frozen=True)
class InLessonFolder:
    """The files a lesson's agents may name (a FilePolicy, core/agents/files.py):
    those of its folder, as its records (record_beside)."""

    folder: Path
    whose: str = "lesson"

    def __call__(self, kind: str, setting: Any, text: str) -> str:
        return str(record_beside(self.folder, text, setting.name, self.whose))


def files_beside(spec: str, folder: Path, whose: str = "lesson") -> str:
    """`spec` with each file its settings name (az's `net`, ga's `profile`, any
    FileSetting) as a file of the lesson's folder, checked before any is read (a
    lesson travels with its files and reads no other). Raises PlygroundError."""
    if spec.strip() == HUMAN:
        return spec
    agent = parse_agent(spec, files=InLessonFolder(folder, whose))
    names_files = any(isinstance(setting, FileSetting) and setting.name in agent.given
                      for setting in agent.settings_spec)
    return agent.spec if names_files else spec
