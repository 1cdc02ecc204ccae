"""`train connect4-ga --out best.json` prints a command that plays the profile from any
folder (the installed profile's name), and `ga:profile=NAME` finds a profile installed
in the data folder by that name. Run for real, from another folder than the training's."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path


def plyground(args: list[str], cwd: Path, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PLYGROUND_HOME": str(home)}
    env.pop("PLYGROUND_PROFILES", None)
    return subprocess.run([sys.executable, "-m", "plyground", *args], cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=300)


def test_the_printed_command_and_the_profiles_name_work_from_another_folder(tmp_path):
    home, trained_in, elsewhere = (tmp_path / name for name in ("home", "here", "there"))
    for folder in (home, trained_in, elsewhere):
        folder.mkdir()
    trained = plyground(["train", "connect4-ga", "--population", "3", "--generations",
                         "1", "--survivors", "2", "--seed", "1", "--out", "best.json"],
                        trained_in, home)
    assert trained.returncode == 0, trained.stderr
    assert (home / "profiles" / "best.json").is_file()
    printed = re.search(r"plyground play connect4 --second (\S+)\s*$", trained.stdout)
    assert printed, trained.stdout
    (spec,) = shlex.split(printed[1])
    for second in (spec, "ga:profile=best", "ga:profile=best.json"):
        demo = plyground(["demo", "connect4", "--x", "random", "--o", second, "--seed", "1",
                          "--quiet"], elsewhere, home)
        assert demo.returncode == 0, (second, demo.stderr)
    missing = plyground(["demo", "connect4", "--x", "random", "--o", "ga:profile=nosuch",
                         "--quiet"], elsewhere, home)
    assert missing.returncode == 2 and "nosuch" in missing.stderr
