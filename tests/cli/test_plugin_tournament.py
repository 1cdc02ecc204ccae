"""Bots from files on the command line: a bot that fails forfeits its games (a loss,
with its reason, listed under the table and in the JSON) and the games go on; one that
cannot even be imported is an error line before any game. The bots are in
tests/plugins/bots/, named as a user in the checkout would name them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plyground.core import get_game
from plyground.tui import cli
from plyground.tui.cli.tournament import print_tournament

ROOT = Path(__file__).resolve().parents[2]
BOTS = "tests/plugins/bots"
GOOD, CRASHES, DIES = (f"{BOTS}/{name}.py:Bot" for name in ("good", "crashes", "dies"))
AGENTS = [GOOD, CRASHES, DIES, "alphabeta:time=0.05"]
CRASH = "Crashes (1s) raised ZeroDivisionError: division by zero (at crashes.py:9)"
DEATH = "Dies (1s) died (exit code 3)"


@pytest.fixture(autouse=True)
def in_the_checkout(monkeypatch):
    monkeypatch.chdir(ROOT)  # the bots' paths are relative to it


def invoke(*args: str):
    return CliRunner().invoke(cli.app, list(args))


@pytest.fixture(scope="module")
def report() -> dict:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        result = invoke("tournament", "connect4", "--agents", *AGENTS, "--games", "2",
                        "--jobs", "2", "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_failing_bots_lose_every_game_they_fail_in_and_the_tournament_ends(report):
    table = report["cross_table"]
    good, crashes, dies, alphabeta = range(4)
    assert [len(pair["results"]) for pair in report["pairs"]] == [2] * 6
    assert all(cell["losses"] == 2 for cell in table[crashes] if cell is not None)
    assert table[dies][crashes]["wins"] == 2  # the crashing bot fails first
    assert table[dies][good]["losses"] == table[dies][alphabeta]["losses"] == 2
    assert table[good][crashes]["wins"] == table[good][dies]["wins"] == 2


def test_the_forfeits_are_listed_with_their_reasons(report):
    assert report["forfeits"] == [
        {"agent": CRASHES, "fault": CRASH, "games": 6},
        {"agent": DIES, "fault": DEATH, "games": 4},
    ]
    games = [game for pair in report["pairs"] for game in pair["results"]]
    forfeited = [game for game in games if game["fault"] is not None]
    assert len(forfeited) == 10
    for game in forfeited:
        assert game["reason"] in (f"X forfeits: {game['fault']}",
                                  f"O forfeits: {game['fault']}")
    for game in games:
        if game["fault"] is None:
            assert game["reason"].endswith(("connects four", "the board is full"))
    dies_games = [game for pair in report["pairs"] if DIES in
                  [report["agents"][agent] for agent in pair["agents"]]
                  for game in pair["results"] if game["fault"] == DEATH]
    assert sorted(game["plies"] for game in dies_games) == [4, 4, 5, 5]  # its 3rd move


def test_the_text_report_lists_the_forfeits_under_the_tables(report, capsys):
    print_tournament(get_game("connect4"), report)
    lines = capsys.readouterr().out.splitlines()
    at = lines.index("forfeits (games lost by failing to play):")
    assert lines[at + 1:] == [f"  {CRASHES}, 6 games: {CRASH}",
                              f"  {DIES}, 4 games: {DEATH}",
                              lines[-1]]
    assert lines[-1].startswith("reproduce: plyground tournament connect4 --agents")


def test_a_match_counts_a_forfeit_as_a_loss_and_says_why():
    result = invoke("match", "connect4", "--first", f"{BOTS}/illegal.py:Bot", "--second",
                    "greedy", "--games", "2", "--jobs", "1", "--seed", "1")
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line.split()[1:4] for line in result.stdout.splitlines()
            if line.strip().startswith((BOTS, "greedy"))}
    assert rows[f"{BOTS}/illegal.py:Bot"] == ["0", "0", "2"]
    assert rows["greedy"] == ["2", "0", "0"]
    assert (f"  {BOTS}/illegal.py:Bot, 2 games: Illegal (1s) chose 99, which is not a "
            "legal move here") in result.stdout.splitlines()


def test_a_demo_prints_the_forfeit_and_the_result_and_succeeds():
    result = invoke("demo", "connect4", "--x", DIES, "--o", "greedy", "--quiet")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [f"5. X forfeits: {DEATH}", "O wins", "1415"]
    result = invoke("demo", "connect4", "--x", "greedy", "--o", CRASHES)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-3:] == [f"2. O forfeits: {CRASH}", "X wins", "4"]


@pytest.mark.parametrize("command", [
    ("demo", "connect4", "--x", f"{BOTS}/broken_import.py:Bot", "--o", "greedy"),
    ("tournament", "connect4", "--agents", "greedy", f"{BOTS}/broken_import.py:Bot"),
])
def test_a_bot_that_cannot_be_imported_is_an_error_line_before_any_game(command):
    result = invoke(*command)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (f"error: {BOTS}/broken_import.py:Bot: the file failed to "
                             "import: RuntimeError: this bot is broken (at "
                             "broken_import.py:4)\n")
