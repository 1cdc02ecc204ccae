"""`plyground sprt --counts`: the SPRT calculator prints the core's figures for the
counts given, as lines or as JSON, plays nothing, and refuses bad input in one line."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from plyground.core.play.sprt import SPRT, estimates
from plyground.tui import cli

COUNTS = [3, 20, 50, 35, 12]


def invoke(*args: str):
    return CliRunner().invoke(cli.app, list(args))


def calculator(*args: str) -> list[str]:
    result = invoke("sprt", *args)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    return result.stdout.splitlines()


def line(lines: list[str], label: str) -> str:
    [found] = [text for text in lines if text.startswith(label + " ")]
    return found


def test_the_lines_give_the_cores_figures():
    status = SPRT(elo0=0, elo1=5).status(COUNTS)
    found = estimates(COUNTS)
    lines = calculator("--counts", ",".join(map(str, COUNTS)))
    assert lines[0] == (f"no decision yet: LLR {status.llr:.2f}, bounds "
                        f"[{status.lower:.2f}, {status.upper:.2f}]")
    assert line(lines, "LLR").split()[1] == f"{status.llr:.2f},"
    assert line(lines, "pairs").split()[1:] == [str(sum(COUNTS)), f"({2 * sum(COUNTS)}",
                                                "games)"]
    assert line(lines, "counts").split(None, 1)[1] == ", ".join(
        f"{name} {count}" for name, count in zip(("LL", "LD", "DD+WL", "WD", "WW"),
                                                 COUNTS))
    low, high = found.elo_interval
    assert line(lines, "Elo").split()[1:4] == [f"{found.elo:+.1f}", f"[{low:+.1f},",
                                               f"{high:+.1f}]"]
    low, high = found.nelo_interval
    assert line(lines, "nElo").split()[1:4] == [f"{found.nelo:+.1f}", f"[{low:+.1f},",
                                                f"{high:+.1f}]"]
    assert line(lines, "LOS").split()[1] == f"{100 * found.los:.1f}%"


@pytest.mark.parametrize("counts, settings, start", [
    ([99, 3323, 8399, 3606, 109], ("--elo1", "2", "--model", "normalized"),
     "H1 accepted: A is stronger (LLR "),
    ([291, 10353, 21899, 10175, 306], ("--elo1", "2", "--model", "normalized"),
     "H0 accepted: A is not 2 normalised Elo stronger (LLR "),
    ([90, 180, 240, 120, 30], ("--elo0", "-5", "--elo1", "0"),
     "H0 accepted: A is weaker (LLR "),
])
def test_a_decision_names_the_hypothesis_and_the_bound(counts, settings, start):
    test = SPRT(**{name.strip("-"): (value if name == "--model" else float(value))
                   for name, value in zip(settings[::2], settings[1::2])})
    status = test.status(counts)
    first = calculator("--counts", ",".join(map(str, counts)), *settings)[0]
    bound = status.upper if status.result == "H1" else status.lower
    sign = "≥" if status.result == "H1" else "≤"
    assert first == f"{start}{status.llr:.2f} {sign} {bound:.2f})"


def test_the_json_is_the_status():
    result = calculator("--counts", "3,20,50,35,12", "--elo0", "-1", "--elo1", "4",
                        "--alpha", "0.1", "--beta", "0.2", "--json")
    found = json.loads("\n".join(result))
    expected = SPRT(elo0=-1, elo1=4, alpha=0.1, beta=0.2).status(COUNTS)
    assert found == pytest.approx(expected.to_json())
    assert found["result"] == "none" and found["pentanomial"] == COUNTS
    assert {"llr", "lower_bound", "upper_bound", "pairs", "games", "elo", "elo_95",
            "los", "elo0", "elo1", "alpha", "beta", "model"} <= set(found)


def test_no_pairs_gives_no_estimates():
    lines = calculator("--counts", "0,0,0,0,0")
    assert lines[0] == "no decision yet: LLR 0.00, bounds [-2.94, 2.94]"
    assert line(lines, "Elo") == "Elo      none yet: no pair counted"
    assert not any(text.startswith(("nElo", "LOS")) for text in lines)


@pytest.mark.parametrize("args, message", [
    (("--counts", "1,2,3"), "--counts takes 5 whole numbers"),
    (("--counts", "1,2,3,4,x"), "not '1,2,3,4,x'"),
    (("--counts", "1,2,3,4,-5"), "--counts takes 5 whole numbers"),
    (("--counts", "1,2,3,4,5", "--alpha", "0.5"), "alpha is a probability"),
    (("--counts", "1,2,3,4,5", "--elo0", "5", "--elo1", "5"), "elo0 must be below elo1"),
    (("--counts", "1,2,3,4,5", "--model", "bayes"), "logistic or normalized"),
    (("connect4", "--counts", "1,2,3,4,5"), "either --counts or GAME A B"),
    ((), "sprt needs GAME A B (two agents to test), --resume RUN or --counts"),
    (("connect4", "random"), "sprt needs GAME A B"),
])
def test_bad_input_is_one_line_and_exit_code_2(args, message):
    result = invoke("sprt", *args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert result.stdout == "" and "Traceback" not in result.output


def test_in_a_pipe_every_line_fits_80_columns():
    result = subprocess.run(
        [sys.executable, "-m", "plyground", "sprt", "--counts",
         "1000000,1000000,1000000,1000000,1000000", "--elo0", "-1.75", "--elo1", "0.25",
         "--model", "normalized"],
        capture_output=True, text=True, timeout=60, env={**os.environ, "COLUMNS": "80"})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 8 and max(map(len, lines)) <= 80
