"""The wheel must hold every package: pyproject lists them one by one (the folders are
mapped into the `plyground` namespace), so a new folder must be added there too."""
from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_folder_is_listed_in_pyproject():
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapping = setup["package-dir"]
    found = set()
    for name, folder in mapping.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder)
            # a folder mapped to a package of its own is that package's, not this one's
            if any((init.parent == ROOT / other) for other in mapping.values()
                   if other != folder) and relative.parts:
                continue
            found.add(".".join((name, *relative.parts)))
    assert found == set(setup["packages"])
