"""`plyground train connect4-ga`: the same seed saves the same bytes, the profile is
installed for the menu and plays, and bad settings are one clear line."""
from __future__ import annotations

import os
import signal
import subprocess
import sys

from typer.testing import CliRunner

from plyground.core import get_game
from plyground.core.catalogue import parse_agent
from plyground.core.ga.profile import load_profile, saved_profiles
from plyground.tui import cli
from tests.processes import in_session, still_running

SMALL = ["--population", "4", "--generations", "2", "--survivors", "2", "--seed", "5",
         "--jobs", "1"]


def invoke(*args: str):
    return CliRunner().invoke(cli.app, list(args))


def test_training_twice_with_one_seed_saves_the_same_profile(tmp_path, monkeypatch):
    monkeypatch.setenv("PLYGROUND_PROFILES", str(tmp_path / "installed"))
    first, second = tmp_path / "a" / "best.json", tmp_path / "b" / "best.json"
    first.parent.mkdir()
    second.parent.mkdir()
    for out in (first, second):
        result = invoke("train", "connect4-ga", *SMALL, "--out", str(out))
        assert result.exit_code == 0, result.output
    assert first.read_bytes() == second.read_bytes()
    lines = result.output.splitlines()
    assert sum(line.startswith("generation ") for line in lines) == 2
    assert "fitness per generation" in result.output
    profile = load_profile(first)
    assert profile.name == "best"
    assert (tmp_path / "installed" / "best.json").read_bytes() == first.read_bytes()
    assert profile in [p for _, p in saved_profiles()]
    agent = parse_agent(f"ga:profile={first},seed=2")
    state = get_game("connect4").start()
    assert agent.choose(state) in state.moves()


def test_bad_training_settings_are_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("PLYGROUND_PROFILES", str(tmp_path))
    result = invoke("train", "connect4-ga", "--population", "4", "--survivors", "4",
                    "--out", str(tmp_path / "x.json"))
    assert result.exit_code == 2 and "survivors" in result.output
    result = invoke("train", "chess-ga", "--out", str(tmp_path / "x.json"))
    assert result.exit_code == 2 and "unknown trainer 'chess-ga'" in result.output
    assert not (tmp_path / "x.json").exists()


def test_into_a_pipe_each_generation_line_comes_as_the_generation_ends(tmp_path):
    """Not held back until the end: the first generation's line arrives while the
    training is still running (200 generations, stopped once the line is read)."""
    env = {**os.environ, "PLYGROUND_PROFILES": str(tmp_path / "installed"),
           "PLYGROUND_HOME": str(tmp_path)}
    command = [sys.executable, "-m", "plyground", "train", "connect4-ga", *SMALL,
               "--generations", "200", "--out", str(tmp_path / "best.json")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True, env=env, start_new_session=True)
    try:
        first = next(line for line in process.stdout if line.startswith("generation "))
        assert process.poll() is None  # still training
        assert first.startswith("generation   1  best ")
    finally:  # the training and its worker: killing it alone left the worker running
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    assert still_running(in_session(process.pid)) == []


def test_an_existing_out_file_is_refused_before_training_unless_forced(tmp_path,
                                                                       monkeypatch):
    monkeypatch.setenv("PLYGROUND_PROFILES", str(tmp_path / "installed"))
    out = tmp_path / "best.json"
    out.write_text("mine")
    result = invoke("train", "connect4-ga", *SMALL, "--out", str(out))
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"error: {out} already exists (--force replaces it)"]  # no generation played
    assert out.read_text() == "mine"
    link = tmp_path / "link.json"
    link.symlink_to(out)
    result = invoke("train", "connect4-ga", *SMALL, "--out", str(link), "--force")
    assert result.exit_code == 2 and "is a symbolic link" in result.output
    assert out.read_text() == "mine" and link.is_symlink()
    result = invoke("train", "connect4-ga", *SMALL, "--out", str(out), "--force")
    assert result.exit_code == 0, result.output
    assert load_profile(out).name == "best"
