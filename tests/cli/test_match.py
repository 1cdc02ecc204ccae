"""`plyground match`: two agents over many games, colours alternating, in worker
processes; the totals, the per-game JSON and the command line that reproduces it."""
from __future__ import annotations

import json
import re
import shlex

import pytest
from typer.testing import CliRunner

from plyground.core import get_game
from plyground.core.play.tournament import GameResult
from plyground.tui import cli
from plyground.tui.cli import runs

GAME = get_game("connect4")
GAMES = 6
MATCH = ("match", "connect4", "--first", "random", "--second", "greedy",
         "--games", str(GAMES), "--jobs", "2")


def invoke(*args: str):
    return CliRunner().invoke(cli.app, list(args))


@pytest.fixture(scope="module")
def seeded_run():
    result = invoke(*MATCH, "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def seeded_json(seeded_run) -> str:
    return seeded_run.stdout


@pytest.fixture(scope="module")
def report(seeded_json) -> dict:
    return json.loads(seeded_json)


def test_every_game_is_reported_with_colours_alternating(report):
    assert report["game"] == "connect4" and report["agents"] == ["random", "greedy"]
    assert [game["number"] for game in report["results"]] == list(range(1, GAMES + 1))
    assert [game["first"] for game in report["results"]] == [0, 1] * (GAMES // 2)


def test_each_record_replays_to_its_reported_winner(report):
    for game in report["results"]:
        moves = list(game["record"])
        assert game["plies"] == len(moves)
        assert GAME.play_moves(GAME.start(), moves[:-1]).outcome() is None
        side = GAME.play_moves(GAME.start(), moves).outcome().winner
        # the player who moved first played side 0
        assert game["winner"] == (None if side is None else side ^ game["first"])


def test_the_totals_add_up_and_mirror_each_other(report):
    results = report["results"]
    winners = [game["winner"] for game in results]
    first, second = report["totals"]
    for player, total in enumerate((first, second)):
        assert total["agent"] == report["agents"][player]
        assert total["wins"] + total["draws"] + total["losses"] == GAMES
        assert total["wins"] == winners.count(player)
        assert total["wins_first"] == sum(
            game["winner"] == player == game["first"] for game in results)
        assert total["wins_first"] + total["wins_second"] == total["wins"]
        assert total["points"] == total["wins"] + total["draws"] / 2
        assert total["score"] == pytest.approx(100 * total["points"] / GAMES)
    assert first["wins"] == second["losses"] and first["losses"] == second["wins"]
    assert first["draws"] == second["draws"] == winners.count(None)


def test_the_same_seed_gives_the_same_json(seeded_json):
    again = invoke(*MATCH, "--seed", "3", "--json")
    assert again.exit_code == 0, again.output
    assert again.stdout == seeded_json


def test_the_table_ends_with_a_command_that_reproduces_it():
    """Without --seed the match picks one; the last line names it."""
    result = invoke(*MATCH)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"Connect 4 (connect4), {GAMES} games"
    assert lines[-1].startswith("reproduce: plyground match ")
    args = shlex.split(lines[-1].removeprefix("reproduce: "))
    assert "--seed" in args
    rerun = invoke(*args[1:], "--json")
    assert rerun.exit_code == 0, rerun.output
    rows = {line.split()[0]: line.split()[1:] for line in lines
            if line.split()[:1] in (["random"], ["greedy"])}
    for total in json.loads(rerun.stdout)["totals"]:
        assert rows[total["agent"]] == [
            str(total["wins"]), str(total["draws"]), str(total["losses"]),
            f"{total['score']:.1f}%", str(total["wins_first"]), str(total["wins_second"])]


def test_ctrl_c_stops_the_match_and_reports_the_games_finished(monkeypatch):
    closed = []

    def two_games(game, jobs, pool):
        job = {job.number: job for job in jobs}
        try:
            yield job[2], GameResult(2, 1, 1, "X connects four", "1212121", 7)
            yield job[1], GameResult(1, 0, None, "the board is full", "4", 1)
            yield job[3], GameResult(3, 0, 0, "X connects four", "4", 1)
        finally:
            closed.append(True)

    advanced = []

    def advance(progress, task):
        advanced.append(task)
        if len(advanced) == 2:  # Ctrl-C while the second result is shown
            raise KeyboardInterrupt

    monkeypatch.setattr(runs, "run_games", two_games)
    monkeypatch.setattr(runs.Progress, "advance", advance)
    result = invoke(*MATCH, "--json")
    assert result.exit_code == 130
    start, *progress, last = result.stderr.splitlines()
    assert re.fullmatch(rf"playing {GAMES} games on \d+ workers?…", start), start
    run = re.fullmatch(rf"interrupted after 2 of {GAMES} games; resume with: "
                       r"plyground match --resume (\d+)", last)
    assert run, last
    assert len(progress) == 1 and progress[0].startswith(f"[1/{GAMES}, ")  # the game shown
    assert closed == [True]  # the match was told to stop
    report = json.loads(result.stdout)
    assert [game["number"] for game in report["results"]] == [1, 2]
    assert [(t["wins"], t["draws"], t["losses"]) for t in report["totals"]] == [
        (0, 1, 1), (1, 1, 0)]


def said_winner(agents: list[str], game: dict) -> str:
    """How a progress line says a game's result, from the JSON report's game."""
    first, other = agents[game["first"]], agents[1 - game["first"]]
    if game["winner"] is None:
        return f"{first} (first) drew with {other}"
    if game["winner"] == game["first"]:
        return f"{first} (first) beat {other}"
    return f"{other} beat {first} (first)"


def test_with_no_terminal_each_finished_game_is_a_line_on_stderr(seeded_run, report):
    """Progress for a log or a pipe: a line a game on stderr, so that the JSON on
    stdout stays clean (it parsed above), each line agreeing with the report."""
    start, *lines, run = seeded_run.stderr.splitlines()
    # a line as the games start, before the first ends
    assert re.fullmatch(rf"playing {GAMES} games on \d+ workers?…", start), start
    assert re.fullmatch(r"run \d+", run)  # its number in the game history
    assert len(lines) == GAMES
    by_number = {}
    for done, line in enumerate(lines, 1):
        found = re.fullmatch(rf"\[{done}/{GAMES}, \d+ s\] game (\d+): (.*)", line)
        assert found, line
        by_number[int(found[1])] = found[2]
    for game in report["results"]:
        plies = f"{game['plies']} {'ply' if game['plies'] == 1 else 'plies'}"
        assert by_number[game["number"]] == (f"{said_winner(report['agents'], game)}, "
                                              f"{game['reason']}, {plies}")
