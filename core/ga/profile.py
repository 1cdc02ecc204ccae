"""Profiles of the `ga` agent: a name and its four genes, stored as JSON.

    {"genes": {"block_two": 0.5, "centre": 0.5, "horizontal": 0.5, "sequential": 0.5},
     "name": "default"}

Each gene is the probability of the first strategy of its pair (see
core/ga/strategies.py). The shipped default is `DEFAULT_PROFILE`; saved ones
live in `user_profiles_dir()`.
"""
from __future__ import annotations

import json
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

from ..errors import PlygroundError, shown
from .strategies import GENE_NAMES
from ..paths import UnreadableFile, data_home, read_text_file, write_atomically

DEFAULT_PROFILE = Path(__file__).resolve().parent / "profiles" / "default.json"
PROFILES_ENV = "PLYGROUND_PROFILES"


class ProfileError(PlygroundError):
    """A profile file that is missing or malformed, or bad genes."""


@dataclass(frozen=True)
class Profile:
    name: str
    genes: tuple[float, float, float, float]

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ProfileError("a profile needs a name (a non-empty string)")
        genes = tuple(self.genes)
        if len(genes) != len(GENE_NAMES):
            raise ProfileError(f"a profile has {len(GENE_NAMES)} genes "
                               f"({', '.join(GENE_NAMES)}), not {len(genes)}")
        for name, gene in zip(GENE_NAMES, genes):
            check_gene(name, gene)
        object.__setattr__(self, "genes", tuple(float(g) for g in genes))


def check_gene(name: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ProfileError(f"gene {name} is {value!r}, not a number")
    if not (0.0 <= value <= 1.0):  # NaN fails too
        raise ProfileError(f"gene {name} is {value!r}, outside [0, 1] "
                           "(it is a probability)")


def profile_json(profile: Profile) -> str:
    """The file text: the same profile always gives the same bytes."""
    genes = {name: round(gene, 6) for name, gene in zip(GENE_NAMES, profile.genes)}
    return json.dumps({"name": profile.name, "genes": genes}, sort_keys=True,
                      indent=2) + "\n"


def save_profile(profile: Profile, path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, profile_json(profile))
    return path


def load_profile(path) -> Profile:
    """The profile in `path`; ProfileError saying what is wrong if it is not one."""
    path = Path(path)
    where = shown(str(path))
    try:
        text = read_text_file(path, "profile")
    except UnreadableFile as error:
        if error.missing:
            raise ProfileError(f"profile {where}: no such file") from None
        raise ProfileError(f"profile {where}: cannot read it ({error.reason})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ProfileError(f"profile {where}: not valid JSON ({error.msg} at line "
                           f"{error.lineno}, column {error.colno})") from None
    except ValueError:  # int() reads at most 4300 digits
        raise ProfileError(f"profile {where}: a number too long to read") from None
    except RecursionError:
        raise ProfileError(f"profile {where}: lists or objects nested too deeply to "
                           "read") from None
    try:
        return profile_from_data(data)
    except ProfileError as error:
        raise ProfileError(f"profile {where}: {error}") from None


def profile_from_data(data) -> Profile:
    if not isinstance(data, dict):
        raise ProfileError('expected a JSON object {"name": ..., "genes": {...}}')
    if "name" not in data:
        raise ProfileError("no name")
    genes = data.get("genes")
    if not isinstance(genes, dict):
        raise ProfileError("no genes: expected an object with "
                           f"{', '.join(GENE_NAMES)}")
    missing = [name for name in GENE_NAMES if name not in genes]
    if missing:
        raise ProfileError(f"missing genes: {', '.join(missing)}")
    extra = sorted(name for name in genes if name not in GENE_NAMES)
    if extra:
        raise ProfileError(f"unknown genes: {', '.join(map(repr, extra))} "
                           f"(genes: {', '.join(GENE_NAMES)})")
    return Profile(data["name"], tuple(genes[name] for name in GENE_NAMES))


def user_profiles_dir() -> Path:
    """Where saved profiles live: $PLYGROUND_PROFILES, else `profiles` in the data
    folder (paths.py: $PLYGROUND_HOME, else ~/.local/share/plyground), not created
    until a profile is installed."""
    configured = os.environ.get(PROFILES_ENV)
    if configured:
        return Path(configured).expanduser()
    return data_home(create=False) / "profiles"


def profile_path(text) -> Path:
    """The file a `profile` setting names: a path to a file, or (a bare name that is
    no file here) an installed profile's, `best` or `best.json` in the profiles
    folder, so that the name `train connect4-ga` prints works from any folder; a
    ProfileError if a bare name is neither."""
    path = Path(text).expanduser()
    if path.exists() or len(path.parts) != 1:
        return path
    folder = user_profiles_dir()
    for installed in (folder / path.name, folder / f"{path.name}.json"):
        if installed.is_file():
            return installed
    raise ProfileError(f"profile {shown(str(text))}: no such file here, nor a profile "
                       f"of that name installed in {shown(str(folder))}")


def installed_name(installed: Path) -> str:
    """The name `profile_path` finds an installed profile's file by."""
    return installed.stem if installed.suffix == ".json" else installed.name


def install_profile(profile, path=None) -> Path:
    """Save `profile` (a Profile, or a profile file to copy, checked first) into the
    user's profiles folder, as `path`'s file name if given, else as `<name>.json`;
    returns where it went."""
    if not isinstance(profile, Profile):
        profile = load_profile(profile)
    file_name = Path(path).name if path is not None else f"{safe_file_name(profile.name)}.json"
    return save_profile(profile, user_profiles_dir() / file_name)


def safe_file_name(name: str) -> str:
    cleaned = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name.strip())
    return cleaned.strip(".") or "profile"


class SkippedProfile(UserWarning):
    """A file in the profiles folder that is not a valid profile, left out of the
    menus; its message says which file and why."""


def offered_profiles() -> list[Path]:
    """The profile files the menus offer (the shipped default and the user's saved
    ones): those a server offers its visitors (core/agents/files.py)."""
    return [path for path, _ in saved_profiles()]


def saved_profiles() -> list[tuple[Path, Profile]]:
    """The shipped default, then the valid profiles in the user's folder by name; a
    file there that does not load is left out with a SkippedProfile warning."""
    found = [(DEFAULT_PROFILE, load_profile(DEFAULT_PROFILE))]
    folder = user_profiles_dir()
    user = []
    if folder.is_dir():
        for path in folder.glob("*.json"):
            try:
                user.append((path, load_profile(path)))
            except ProfileError as error:
                warnings.warn(SkippedProfile(f"skipped {error}"), stacklevel=2)
    user.sort(key=lambda item: (item[1].name, item[0].name))
    return found + user

