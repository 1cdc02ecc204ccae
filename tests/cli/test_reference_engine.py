"""The reference engine's documented command works as written, from the checkout,
whether or not the venv is active: it names the venv's Python, since a bare `python`
is whichever the PATH finds first (here one without plyground, as outside the venv)."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def documented() -> str:
    """The demo command docs/engine-protocol.md gives for the reference engine."""
    text = (ROOT / "docs" / "engine-protocol.md").read_text()
    [command] = re.findall(r"^plyground demo .*reference_engine\.py.*$", text, re.M)
    return command


def engine_spec(command: str) -> str:
    return next(word for word in shlex.split(command) if word.startswith("engine:"))


def test_the_readme_the_docs_and_the_example_give_the_same_command():
    spec = engine_spec(documented())
    assert f"`{spec}`" in (ROOT / "README.md").read_text()
    assert f"'{spec}'" in (ROOT / "examples" / "reference_engine.py").read_text()


def test_the_documented_command_plays_with_a_python_without_plyground_first(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(Path(sys.base_prefix) / "bin" / "python3")
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.defpath}",
           "PLYGROUND_HOME": str(tmp_path / "home")}
    env.pop("VIRTUAL_ENV", None)
    bare = subprocess.run(["python", "-c", "import plyground"], env=env, cwd=ROOT,
                          capture_output=True)
    assert bare.returncode != 0  # `python` here is not the venv's
    argv = shlex.split(documented())
    assert argv[0] == "plyground"
    result = subprocess.run([sys.executable, "-m", "plyground", *argv[1:]], env=env,
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "forfeits" not in result.stdout
    assert result.stdout.splitlines()[-2] in ("X wins", "O wins", "draw")
