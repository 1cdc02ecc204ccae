"""The lessons shipped with plyground (`plyground lesson list`): a lesson is named by
its file's stem. A lesson whose games are not all installed gives way to the lesson
its `otherwise` names (the minimax lesson is on tic-tac-toe, a game of its own
package, and otherwise on a Connect 4 endgame); a lesson named so is listed only in
its place.
"""
from __future__ import annotations

from pathlib import Path

from ...errors import UnknownName
from ...game import game_entries
from ...paths import parse_toml, read_text_file

FOLDER = Path(__file__).parent


def shipped() -> dict[str, Path]:
    """Each shipped lesson's name and file, the versions this machine can show."""
    installed = {entry.id for entry in game_entries()}
    lessons = {path.stem: path for path in sorted(FOLDER.glob("*.toml"))}
    for name, path in list(lessons.items()):
        data = parse_toml(read_text_file(path, "lesson"))
        other = Path(data.get("otherwise", "")).stem
        if other in lessons:
            games = {str(scene.get("game", "")).partition(":")[0]
                     for scene in data.get("scene", [])}
            replaced = lessons.pop(other)
            if not games <= installed:
                lessons[name] = replaced
    return lessons


def lesson_file(name: str) -> Path:
    """The file `name` stands for: a path to a lesson file, or a shipped lesson's name."""
    path = Path(name)
    if path.suffix == ".toml" or path.exists():
        return path
    lessons = shipped()
    if name in lessons:
        return lessons[name]
    raise UnknownName(f"no lesson file {name!r} and no shipped lesson of that name "
                      f"(shipped: {', '.join(lessons) or 'none'})")
