"""`--openings` on match and tournament (each opening played twice, colours swapped,
the records holding the whole game from the start) and `tournament --gauntlet` (one
agent against each of the others, and only that)."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from plyground.core import get_game
from plyground.core.play.openings import load_suite
from plyground.core.records.history import History
from plyground.tui import cli

GAME = get_game("connect4")
SUITE = "# game: connect4\n44\n4453\n31\n"


def invoke(*args: str):
    return CliRunner().invoke(cli.app, list(args))


@pytest.fixture(scope="module")
def suite_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("suite") / "tiny.txt"
    path.write_text(SUITE)
    return path


@pytest.fixture(scope="module")
def match_report(suite_file) -> dict:
    result = invoke("match", "connect4", "--first", "greedy", "--second", "random",
                    "--games", "6", "--seed", "4", "--jobs", "2", "--openings",
                    str(suite_file), "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_a_match_plays_each_opening_twice_colours_swapped(match_report, suite_file):
    suite = load_suite(GAME, str(suite_file))
    assert match_report["openings"] == str(suite_file.resolve())
    assert match_report["command"].endswith(f"--openings {suite_file.resolve()}")
    results = match_report["results"]
    assert [game["number"] for game in results] == list(range(1, 7))
    for game in results:
        opening = suite.opening((game["number"] - 1) // 2)
        assert game["opening"] == opening
        assert game["record"].startswith(opening) and game["plies"] == len(game["record"])
        assert game["first"] == (game["number"] - 1) % 2
    assert len({game["opening"] for game in results}) == 3


def test_the_history_holds_each_game_from_the_start(match_report):
    with History() as history:
        records = [history.get(game.id) for game in history.list(agent="random")]
    lines = {GAME.format_line(record.moves) for record in records
             if record.headers.get("Event", "").startswith(match_report["command"] + ",")}
    assert lines == {game["record"] for game in match_report["results"]}


@pytest.mark.parametrize("args, message", [
    (("--games", "3", "--openings", "SUITE"), "give an even --games, not 3"),
    (("--games", "2", "--openings", "nosuchsuite"), "opening suite"),
    (("--games", "2", "--openings", "missing.txt"), "missing.txt"),
])
def test_openings_that_cannot_be_played_are_one_line(suite_file, args, message):
    args = [str(suite_file) if arg == "SUITE" else arg for arg in args]
    result = invoke("match", "connect4", "--first", "greedy", "--second", "random", *args)
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("error: ")
    assert message in result.stderr


def test_a_gauntlet_plays_its_challenger_against_each_other_agent(suite_file):
    result = invoke("tournament", "connect4", "--agents", "random", "minimax:depth=1",
                    "--gauntlet", "greedy", "--games", "2", "--seed", "6", "--jobs", "2",
                    "--openings", str(suite_file), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["agents"] == ["greedy", "random", "minimax:depth=1"]  # it joined them
    assert report["gauntlet"] == "greedy"
    assert [pair["agents"] for pair in report["pairs"]] == [[0, 1], [0, 2]]
    suite = load_suite(GAME, str(suite_file))
    for pair in report["pairs"]:
        assert [game["opening"] for game in pair["results"]] == [suite.opening(0)] * 2
    table = report["cross_table"]
    assert table[1][2] is None and table[2][1] is None  # the others never meet
    for other in (1, 2):
        assert table[0][other]["wins"] == table[other][0]["losses"]
        assert table[0][other]["wins"] + table[0][other]["draws"] + table[0][other][
            "losses"] == 2
    games = {standing["spec"]: standing["games"] for standing in report["ratings"]}
    assert games == {"greedy": 4, "random": 2, "minimax:depth=1": 2}
    again = invoke("tournament", "connect4", "--agents", "random", "greedy",
                   "--gauntlet", "greedy", "--games", "1", "--no-history", "--json")
    assert again.exit_code == 0, again.output
    named = json.loads(again.stdout)
    assert named["agents"] == ["random", "greedy"]  # named among them: kept in place
    assert [pair["agents"] for pair in named["pairs"]] == [[1, 0]]
