"""`plyground train az ... --keep-generations DIR`: every accepted net is also saved to
DIR/generation-N.npz with its training time (what a training curve reads), the last
one the same net as --out; a folder holding an earlier run's nets, or a file, is one
line."""
from __future__ import annotations

import re

import numpy as np
from typer.testing import CliRunner

from plyground.core.agents.learned.net import load_net
from plyground.tui import cli

TINY = ["--channels", "4", "--blocks", "1", "--games-per-generation", "2", "--sims",
        "4", "--steps", "2", "--batch", "8", "--eval-pairs", "1", "--jobs", "1"]
ROW = re.compile(r"^\s+(\d+)\s.*\s(accepted|rejected)\s+\d+:\d\d$")


def invoke(*args: str):
    return CliRunner().invoke(cli.app, list(args))


def test_each_accepted_net_is_kept_with_its_training_time(tmp_path):
    out, keep = tmp_path / "ttt.npz", tmp_path / "generations"
    result = invoke("train", "az", "tictactoe", "--generations", "3", "--seed", "2",
                    "--out", str(out), "--keep-generations", str(keep), *TINY)
    assert result.exit_code == 0, result.output
    rows = [ROW.match(line) for line in result.output.splitlines()]
    accepted = [int(row[1]) for row in rows if row and row[2] == "accepted"]
    first_rejected = any(row and row[1] == "1" and row[2] == "rejected" for row in rows)
    want = ([0] if first_rejected else []) + accepted
    kept = sorted(keep.glob("generation-*.npz"))
    assert [int(path.stem.split("-")[1]) for path in kept] == want
    seconds = []
    for path in kept:
        _, info = load_net(path)
        assert info["generation"] == int(path.stem.split("-")[1])
        seconds.append(info["seconds"])
    assert seconds == sorted(seconds)
    last, final = load_net(kept[-1])[0], load_net(out)[0]
    for name, array in final.params.items():
        np.testing.assert_array_equal(last.params[name], array)


def test_a_folder_of_an_earlier_run_or_a_file_is_one_line(tmp_path):
    keep = tmp_path / "generations"
    keep.mkdir()
    (keep / "generation-001.npz").write_bytes(b"")
    for folder in (keep, keep / "generation-001.npz", tmp_path / "no" / "such"):
        result = invoke("train", "az", "tictactoe", "--generations", "1", "--out",
                        str(tmp_path / "x.npz"), "--keep-generations", str(folder), *TINY)
        assert result.exit_code == 2, result.output
        assert len(result.output.strip().splitlines()) == 1, result.output
        assert not (tmp_path / "x.npz").exists()
