"""`plyground train az GAME`: it trains tic-tac-toe with a tiny net and small settings
(seconds), saves a net the az agent plays whose info names the command and seed, makes
the same bytes again for a seed (in this process or on worker processes), writes a
line per generation into a pipe, keeps the last accepted net on Ctrl-C, and says each
mistake in one line."""
from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys

from typer.testing import CliRunner

from plyground.core import get_game
from plyground.core.agents.learned.net import load_net
from plyground.core.catalogue import parse_agent
from plyground.tui import cli
from tests.processes import in_session, still_running

TINY = ["--channels", "4", "--blocks", "1", "--games-per-generation", "4", "--sims",
        "8", "--steps", "4", "--batch", "16", "--eval-pairs", "1"]
ROW = re.compile(r"^\s+(\d+)\s+[\d,]+\s+[\d.]+\s+[\d.]+\s+(\S+)\s+(accepted|rejected)\s+"
                 r"\d+:\d\d$")


def invoke(*args: str):
    return CliRunner().invoke(cli.app, list(args))


def rows(output: str) -> list[re.Match]:
    return [match for line in output.splitlines() if (match := ROW.match(line))]


def test_a_short_training_saves_a_net_that_names_its_command_and_plays(tmp_path):
    out = tmp_path / "ttt.npz"
    result = invoke("train", "az", "tictactoe", "--minutes", "0.02", "--seed", "3",
                    "--out", str(out), *TINY, "--jobs", "1")
    assert result.exit_code == 0, result.output
    net, info = load_net(out)
    assert info["seed"] == 3 and info["game"] == "tictactoe" and "seconds" in info
    assert f"training az on Tic-tac-toe: {info['command']}" in result.output
    words = shlex.split(info["command"])
    assert words[:4] == ["plyground", "train", "az", "tictactoe"]
    assert words[words.index("--seed") + 1] == "3"
    assert words[words.index("--channels") + 1] == "4"
    assert words[words.index("--minutes") + 1] == "0.02"
    generations = rows(result.output)
    assert generations and [int(row[1]) for row in generations] == list(
        range(1, len(generations) + 1))
    accepted = [int(row[1]) for row in generations if row[3] == "accepted"]
    assert info["generation"] == (accepted[-1] if accepted else 0)
    assert f"sha256 " in result.output
    state = get_game("tictactoe").start()
    agent = parse_agent(f"az:net={out},sims=4,seed=1")
    assert agent.choose(state) in state.moves()


def test_one_seed_makes_the_same_file_with_any_number_of_workers(tmp_path, monkeypatch):
    """--generations alone: the same command gives the same bytes (run from two
    folders, so that --out reads the same), in this process or on two workers; another
    seed trains another net. Every generation is accepted (no gate), so the file is
    the trained net, and the gate's games are compared apart (the same scores)."""
    made, gates = [], []
    for folder, seed, jobs in (("a", "5", "1"), ("b", "5", "2"), ("c", "6", "1")):
        (tmp_path / folder).mkdir()
        monkeypatch.chdir(tmp_path / folder)
        for pairs, out in (("0", "net.npz"), ("2", "gated.npz")):
            result = invoke("train", "az", "tictactoe", "--generations", "2", "--seed",
                            seed, "--out", out, *TINY, "--eval-pairs", pairs,
                            "--jobs", jobs)
            assert result.exit_code == 0, result.output
            assert len(rows(result.output)) == 2
        made.append((tmp_path / folder / "net.npz").read_bytes())
        gates.append([row[0].rsplit(maxsplit=1)[0] for row in rows(result.output)])
    assert load_net(tmp_path / "a" / "net.npz")[1]["generation"] == 2
    assert made[0] == made[1] and gates[0] == gates[1]
    assert made[2] != made[0]


def run(tmp_path, *args: str) -> subprocess.Popen:
    command = [sys.executable, "-m", "plyground", "train", "az", "tictactoe", *TINY,
               "--jobs", "1", "--out", str(tmp_path / "net.npz"), *args]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PLYGROUND_HOME": str(tmp_path)},
                            start_new_session=True)


def test_into_a_pipe_a_line_per_generation(tmp_path):
    process = run(tmp_path, "--generations", "3")
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert [int(row[1]) for row in rows(out)] == [1, 2, 3]
    assert err == ""  # no bar outside a terminal


def first_row(process: subprocess.Popen) -> str:
    """The first generation's row, read from the pipe a byte at a time: a buffered
    read can take the rows after it too (two generations ending close together on a
    loaded machine), and communicate(), which reads the pipe itself, misses them."""
    line = b""
    while byte := os.read(process.stdout.fileno(), 1):
        line += byte
        if byte == b"\n":
            if ROW.match(line.decode()):
                return line.decode()
            line = b""
    raise AssertionError(f"the run ended before its first row: {line.decode()!r}")


def test_ctrl_c_keeps_the_last_accepted_net_and_says_so(tmp_path):
    process = run(tmp_path, "--minutes", "30")
    try:
        first = first_row(process)
        process.send_signal(signal.SIGINT)
        rest, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130
    _, info = load_net(tmp_path / "net.npz")
    printed = rows(first + rest)
    accepted = [int(row[1]) for row in printed if row[3] == "accepted"]
    # the last accepted net shown, or one accepted as Ctrl-C came, before its line
    assert info["generation"] in ((accepted or [0])[-1], len(printed) + 1)
    message = err.strip().splitlines()
    assert message == ["stopping: cutting the games under way short…",  # at once
                       f"interrupted during generation {len(printed) + 1}: "
                       f"{tmp_path / 'net.npz'} keeps the last accepted net "
                       f"(generation {info['generation']})"]
    assert still_running(in_session(process.pid)) == []


def test_bad_input_is_one_line(tmp_path, monkeypatch):
    out = str(tmp_path / "net.npz")
    cases = [
        (["chess", "--minutes", "1", "--out", out], "unknown game 'chess'"),
        (["tictactoe", "--minutes", "0", "--out", out], "--minutes must be more than 0"),
        (["tictactoe", "--minutes", "-1", "--out", out], "'--minutes': Input should be"),
        (["tictactoe", "--minutes", "1", "--out", str(tmp_path / "no" / "net.npz")],
         f"there is no folder {tmp_path / 'no'}"),
        (["tictactoe", "--out", out], "--minutes N"),
        (["tictactoe", "--minutes", "1"], "az needs --out FILE"),
        (["--minutes", "1", "--out", out], "az needs the game to learn"),
    ]
    for args, message in cases:
        result = invoke("train", "az", *args)
        assert result.exit_code == 2, (args, result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], \
            (args, lines)
    game = get_game("tictactoe")
    monkeypatch.setattr(type(game), "encoding", lambda self: None)
    result = invoke("train", "az", "tictactoe", "--minutes", "1", "--out", out)
    assert result.exit_code == 2
    assert result.output.strip() == ("error: Tic-tac-toe has no encoding for a network "
                                     "(its registration declares none), so az cannot "
                                     "learn it")
    assert not os.path.exists(out)
