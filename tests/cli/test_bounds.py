"""Every number a command takes has a range, checked as it is read: a value outside it
(a huge id, `inf`, `nan`, `1e308`, a size that cannot be allocated) is one `error:`
line and exit code 2, never a traceback and never accepted. The walk over the whole
command tree makes a new option without a range fail here."""
from __future__ import annotations

import math
import zipfile

import pytest
import typer
from typer.testing import CliRunner

from plyground.core.ranges import LARGEST_ID
from plyground.tui import cli

HUGE = "99999999999999999999999"  # past SQLite's 64-bit integers


def number_params(command, path=("plyground",)):
    """(command path, parameter, its number type) for every int or float parameter of
    `command` and its subcommands."""
    for param in command.params:
        kind = param.type_descriptor.annotation
        if kind in (int, float):
            yield " ".join(path), param, kind
    for name, sub in getattr(command, "commands", {}).items():
        yield from number_params(sub, (*path, name))


def test_every_number_an_option_takes_has_a_finite_range():
    found = list(number_params(typer.main.get_command(cli.app)))
    assert len(found) > 40, "the walk found too few number options: has typer changed?"
    unbounded = [f"{path} {param.name}" for path, param, _ in found
                 if param.min is None or param.max is None
                 or not (math.isfinite(param.min) and math.isfinite(param.max))]
    assert unbounded == [], "give each a min= and a max= (see core/ranges.py)"


def one_error_line(*args: str) -> str:
    """The line of the error that `plyground *args` ends with (it must end with one
    line, exit code 2, no traceback)."""
    result = CliRunner().invoke(cli.app, list(args))
    lines = result.output.strip().splitlines()
    assert isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert result.exit_code == 2 and "Traceback" not in result.output, \
        (args, result.output[-2000:])
    assert len(lines) == 1 and lines[0].startswith("error: "), (args, lines[-5:])
    return lines[0]


@pytest.mark.parametrize("args, said", [
    (("games", "show", HUGE), "Input should be less than or equal to"),
    (("games", "export", HUGE), "Input should be less than or equal to"),
    (("games", "list", "--limit", HUGE), "'--limit'"),
    (("games", "show", "9" * 5000), "'ID'"),
    (("review", HUGE), f"no game {HUGE} in the history"),
    (("review", "9" * 5000), "no game 999"),
    (("match", "--resume", HUGE), "'--resume'"),
    (("sprt", "--resume", HUGE), "'--resume'"),
    (("tournament", "--resume", HUGE), "'--resume'"),
    (("demo", "connect4", "--first", "alphabeta:time=1e308", "--second", "random",
      "--no-record"), "alphabeta: time must be at most 86400"),
    (("demo", "connect4", "--first", "mcts:iterations=" + HUGE, "--second", "random",
      "--no-record"), "mcts: iterations must be at most"),
    (("demo", "connect4", "--first", "engine:cmd=true,mem=99999999999999999999T",
      "--second", "random", "--no-record"), "more than this machine's memory"),
    (("train", "az", "connect4", "--minutes", "inf", "--out", "x.npz"), "'--minutes'"),
    (("train", "az", "connect4", "--minutes", "nan", "--out", "x.npz"), "'--minutes'"),
    (("train", "az", "connect4", "--minutes", "1e308", "--out", "x.npz"), "'--minutes'"),
    (("train", "az", "tictactoe", "--batch", "1000000000", "--minutes", "1", "--out",
      "x.npz"), "'--batch'"),
    (("train", "az", "tictactoe", "--channels", "100000", "--minutes", "1", "--out",
      "x.npz"), "'--channels'"),
    (("train", "az", "tictactoe", "--buffer", "1e20", "--minutes", "1", "--out",
      "x.npz"), "'--buffer'"),
    (("train", "az", "tictactoe", "--buffer", "100000000000", "--minutes", "1", "--out",
      "x.npz"), "'--buffer'"),
    (("match", "connect4", "--first", "random", "--second", "random", "--jobs",
      "100000", "--no-history"), "'--jobs'"),
    (("match", "connect4", "--first", "random", "--second", "random", "--seed", HUGE,
      "--no-history"), "'--seed'"),
    (("sprt", "--counts", "1,2,3,4,5", "--elo1", "inf"), "'--elo1'"),
    (("sprt", "--counts", "²,1,1,1,1"), "--counts takes 5 whole numbers"),
    (("perft", "connect4", "--depth", HUGE), "'--depth'"),
    (("lesson", "export", "minimax", "--svg", "out", "--size", "²x50"), "--size"),
    (("openings", "connect4", "--build", "--plies", "²"), "--plies"),
])
def test_a_number_out_of_range_is_one_line(args, said, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert said in one_error_line(*args)


@pytest.mark.parametrize("args, missing", [
    (("games", "show"), "no game"), (("games", "export"), "no game"),
    (("review",), "no game"), (("match", "--resume"), "no run"),
    (("sprt", "--resume"), "no run"), (("tournament", "--resume"), "no run")])
def test_the_largest_id_is_looked_up_and_one_more_is_out_of_range(args, missing):
    """SQLite's largest integer is an id that may be missing, never an overflow."""
    assert f"{missing} {LARGEST_ID}" in one_error_line(*args, str(LARGEST_ID))
    past = one_error_line(*args, str(LARGEST_ID + 1))
    assert f"{missing} {LARGEST_ID + 1}" in past or "less than or equal to" in past


def test_a_net_whose_config_is_not_an_npy_array_is_one_line(tmp_path):
    net = tmp_path / "raw.npz"
    with zipfile.ZipFile(net, "w") as archive:
        archive.writestr("config", b'{"shape": [2, 3, 3]}')  # bytes, no .npy header
    line = one_error_line("analyze", "tictactoe", "--agent", f"az:net={net}")
    assert f"cannot read {net}: its member config is not a numpy array" in line


def test_help_at_80_columns_leaves_out_a_range_too_long_to_help():
    """A seed's 0<=x<=18446744073709551615 is checked, not advertised: beside the
    option's type it would squeeze the help's text (and cut `--no-history,--no-record`)
    at 80 columns. A short range (`--jobs`'s 1<=x<=256) is shown."""
    result = CliRunner().invoke(cli.app, ["match", "--help"], env={"COLUMNS": "80"},
                                terminal_width=80)
    assert result.exit_code == 0
    assert "18446744073709551615" not in result.output
    assert "--no-history,--no-record" in result.output
    assert "[1<=x<=256]" in result.output and "<int range>" not in result.output
