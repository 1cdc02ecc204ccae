"""`plyground tournament`: every pair of agents plays a match, colours alternating, in
worker processes; the cross table, the ratings and the command that reproduces it."""
from __future__ import annotations

import json
from dataclasses import asdict

import pytest
from typer.testing import CliRunner

from plyground.core import get_game
from plyground.core.catalogue import parse_agent
from plyground.core.play.tournament import GameResult, match_game, pair_seed
from plyground.tui import cli
from plyground.tui.cli import runs

GAME = get_game("connect4")
AGENTS = ["random", "greedy", "minimax:depth=1"]
GAMES = 2
TOURNAMENT = ("tournament", "connect4", "--agents", *AGENTS, "--games", str(GAMES),
              "--jobs", "2", "--seed", "5")


def invoke(*args: str):
    return CliRunner().invoke(cli.app, list(args))


def json_of(*args: str) -> str:
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    # with no terminal, a progress line a game on stderr, the pair's agents named
    start, *lines, run = result.stderr.splitlines()
    assert start.startswith("playing ") and run.startswith("run ")
    report = json.loads(result.stdout)
    assert len(lines) == sum(len(pair["results"]) for pair in report["pairs"])
    for pair in report["pairs"]:
        a, b = (report["agents"][agent] for agent in pair["agents"])
        for game in pair["results"]:
            assert sum(f"game {game['number']}: " in line and f" {game['plies']} pl"
                       in line and a in line and b in line for line in lines) >= 1
    return result.stdout


@pytest.fixture(scope="module")
def seeded_json() -> str:
    return json_of(*TOURNAMENT)


@pytest.fixture(scope="module")
def report(seeded_json) -> dict:
    return json.loads(seeded_json)


def test_every_pair_plays_its_games_with_colours_alternating(report):
    assert report["agents"] == AGENTS and report["games_per_pair"] == GAMES
    assert [pair["agents"] for pair in report["pairs"]] == [[0, 1], [0, 2], [1, 2]]
    for pair in report["pairs"]:
        assert [game["number"] for game in pair["results"]] == [1, 2]
        assert [game["first"] for game in pair["results"]] == [0, 1]


def test_each_pair_is_the_match_its_seed_plays(report):
    pair = report["pairs"][0]
    assert pair["seed"] == pair_seed(5, 0)
    players = (parse_agent(AGENTS[0]), parse_agent(AGENTS[1]))
    assert pair["results"] == [asdict(match_game(GAME.spec, players, number, pair["seed"]))
                               for number in (1, 2)]


def test_the_cross_table_and_the_ratings_add_up(report):
    table, pairs = report["cross_table"], report["pairs"]
    for (a, b), pair in zip((p["agents"] for p in pairs), pairs):
        winners = [game["winner"] for game in pair["results"]]
        mine, theirs = table[a][b], table[b][a]
        assert (mine["wins"], mine["draws"], mine["losses"]) == (
            winners.count(0), winners.count(None), winners.count(1))
        assert (theirs["wins"], theirs["losses"]) == (mine["losses"], mine["wins"])
    assert all(table[a][a] is None for a in range(len(AGENTS)))
    ratings = report["ratings"]
    assert [r["rank"] for r in ratings] == [1, 2, 3]
    assert sorted(r["agent"] for r in ratings) == [0, 1, 2]
    assert [r["elo"] for r in ratings] == sorted((r["elo"] for r in ratings), reverse=True)
    assert sum(r["elo"] for r in ratings) / 3 == pytest.approx(1500)
    assert all(r["games"] == 2 * GAMES and r["error"] > 0 for r in ratings)
    assert sum(r["points"] for r in ratings) == 3 * GAMES
    for r in ratings:
        row = [cell for cell in table[r["agent"]] if cell is not None]
        assert r["points"] == sum(c["wins"] + c["draws"] / 2 for c in row)
        assert r["score"] == pytest.approx(100 * r["points"] / r["games"])


def test_the_same_seed_gives_the_same_json_and_agents_may_be_repeated(seeded_json):
    repeated = [arg for agent in AGENTS for arg in ("--agents", agent)]
    assert json_of("tournament", "connect4", *repeated, "--games", str(GAMES),
                   "--jobs", "2", "--seed", "5") == seeded_json


def test_the_text_shows_the_tables_and_how_to_reproduce(report):
    result = invoke("tournament", "quarto", "--agents", "random", "greedy", "--games", "2",
                    "--jobs", "2", "--seed", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Quarto (quarto), 2 agents, 2 games"
    assert lines[-1] == ("reproduce: plyground tournament quarto --agents random greedy "
                         "--games 2 --seed 1")
    rows = [line.split() for line in lines if line.split()[:1] in (["1"], ["2"])]
    # rank, agent, ...: in the cross table, then in the ratings
    assert sorted(row[1] for row in rows) == ["greedy", "greedy", "random", "random"]


@pytest.mark.parametrize("args, message", [
    (("--agents", "random", "nobody"), "nobody"),
    (("--agents", "random"), "two agents or more"),
    (("--agents", "random", "random"), "named once"),
])
def test_bad_agents_are_one_error_line(args, message):
    result = invoke("tournament", "connect4", *args, "--games", "1")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("error: ")
    assert message in result.stderr


def test_ctrl_c_stops_the_tournament_and_reports_the_games_finished(monkeypatch):
    closed = []

    def two_games(game, jobs, pool):
        job = {job.key: job for job in jobs}
        try:
            yield job["2:1"], GameResult(1, 0, 0, "X connects four", "4", 1)
            yield job["0:2"], GameResult(2, 1, None, "the board is full", "4", 1)
            raise KeyboardInterrupt  # Ctrl-C while the pool plays the other games
        finally:
            closed.append(True)

    monkeypatch.setattr(runs, "run_games", two_games)
    result = invoke(*TOURNAMENT, "--json")
    assert result.exit_code == 130
    start, *progress, last = result.stderr.splitlines()
    assert start.startswith(f"playing {3 * GAMES} games on ")
    assert last.startswith(f"interrupted after 2 of {3 * GAMES} games; resume with: "
                           "plyground tournament --resume ")
    assert [line.split(",")[0] for line in progress] == ["[1/6", "[2/6"]  # both finished
    assert closed == [True]
    report = json.loads(result.stdout)
    assert [len(pair["results"]) for pair in report["pairs"]] == [1, 0, 1]
    assert report["cross_table"][1][2]["wins"] == 1
    assert report["cross_table"][0][1]["draws"] == 1
