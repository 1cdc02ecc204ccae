"""The game history on the command line: demo, match and tournament record their games
(not with --no-record); `plyground games list|show|export|import`, with --json, and
one `error:` line for bad input."""
from __future__ import annotations

import json
import re
from itertools import takewhile

import pytest
from typer.testing import CliRunner

from plyground.core import get_game
from plyground.core.records.history import History, history_path
from plyground.core.records.record import format_record, load_record, parse_record
from plyground.core.play.tournament import GameResult
from plyground.tui import cli
from plyground.tui.cli import runs

GAME = get_game("connect4")
DEMO = ("demo", "connect4", "--x", "random", "--o", "greedy", "--quiet", "--seed", "3")
MATCH = ("match", "connect4", "--first", "random", "--second", "greedy", "--games", "2",
         "--jobs", "1", "--seed", "4")
TOURNAMENT = ("tournament", "cephalopod:rows=3,cols=3", "--agents", "random", "greedy",
              "random:seed=1", "--games", "1", "--jobs", "2", "--seed", "5")
RECORD = """[Game "connect4"]
[First "human"]
[Second "greedy"]
[Result "1-0"]

1. 1 2 2. 1 2 3. 1 2 4. 1 1-0
"""
BAD_MOVE = """[Game "connect4"]
[First "human"]
[Second "greedy"]

1. 4 4 2. 4 4 3. 4 4
4. 4 *
"""


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """A history of each test's own."""
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def invoke(*args: str):
    return CliRunner().invoke(cli.app, list(args))


def ok(*args: str) -> str:
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def one_error_line(*args: str) -> str:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ")
    return line


def listed(*args: str) -> list[dict]:
    return json.loads(ok("games", "list", "--json", *args))


def stored(text: str) -> list:
    """The moves of the game the text of a record holds."""
    return parse_record(text).moves


# --- recording -----------------------------------------------------------------------

def test_a_demo_records_its_game():
    result, moves = ok(*DEMO).splitlines()[-2:]
    [game] = listed()
    assert (game["game"], game["first"], game["second"], game["source"]) == (
        "connect4", "random", "greedy", "demo")
    assert game["moves"] == len(moves) and game["reason"].startswith(result)
    record = parse_record(ok("games", "show", str(game["id"])))
    assert GAME.format_line(record.moves) == moves
    assert record.seed == 3  # with the specs, what `play --seed 3` needs to replay it


def test_no_record_records_nothing(monkeypatch):
    won = GameResult(1, 0, 0, "X connects four", "1212121", 7)
    # in place of playing the games in worker processes: one won game
    monkeypatch.setattr(runs, "run_games",
                        lambda game, jobs, pool: (played for played in [(jobs[0], won)]))
    tournament = ("tournament", "connect4", "--agents", "random", "greedy", "--games", "1")
    for command in (DEMO, MATCH, tournament):
        ok(*command, "--no-record")
    assert not history_path().exists()  # not even opened
    for command in (DEMO, MATCH, tournament):
        ok(*command)
    assert sorted(game["source"] for game in listed()) == ["demo", "match", "tournament"]


def test_a_match_records_every_game_as_played():
    report = json.loads(ok(*MATCH, "--json"))
    games = listed()
    assert [game["source"] for game in games] == ["match", "match"]
    by_number = {}
    for game in games:
        record = parse_record(ok("games", "show", str(game["id"])))
        number = int(record.headers["Event"].rsplit("game ", 1)[1])
        assert record.headers["Event"] == f"{report['command']}, game {number}"
        by_number[number] = record
    for result in report["results"]:
        record = by_number[result["number"]]
        assert GAME.format_line(record.moves) == result["record"]
        assert record.players == (("random", "greedy") if result["first"] == 0
                                  else ("greedy", "random"))
        side = record.outcome.winner
        assert result["winner"] == (None if side is None else side ^ result["first"])


def test_a_tournament_records_every_game():
    report = json.loads(ok(*TOURNAMENT, "--json"))
    games = listed()
    assert len(games) == 3 and {game["source"] for game in games} == {"tournament"}
    assert {game["game"] for game in games} == {"cephalopod:rows=3,cols=3"}
    pairs = {frozenset((game["first"], game["second"])) for game in games}
    assert pairs == {frozenset(("random", "greedy")), frozenset(("random", "random:seed=1")),
                     frozenset(("greedy", "random:seed=1"))}
    plies = sorted(result["plies"] for pair in report["pairs"] for result in pair["results"])
    assert sorted(game["moves"] for game in games) == plies


def ctrl_c(*args, **kwargs):
    raise KeyboardInterrupt


def test_ctrl_c_in_a_demo_records_the_game_so_far(monkeypatch):
    monkeypatch.setattr("plyground.core.agents.kinds.RandomAgent.search", ctrl_c)  # O's turn
    assert invoke("demo", "connect4", "--x", "greedy", "--o", "random").exit_code == 130
    [game] = listed()
    assert (game["result"], game["moves"], game["source"]) == ("*", 1, "demo")
    assert game["reason"] == "abandoned: the demo was interrupted"


def test_ctrl_c_in_a_match_records_the_games_finished(monkeypatch):
    def three_games(game, jobs, pool):
        yield jobs[1], GameResult(2, 1, 1, "X connects four", "1212121", 7)
        yield jobs[0], GameResult(1, 0, None, "the board is full", "4", 1)
        yield jobs[2], GameResult(3, 0, 0, "X connects four", "4", 1)

    shown = []

    def advance(progress, task):
        shown.append(task)
        if len(shown) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(runs, "run_games", three_games)
    monkeypatch.setattr(runs.Progress, "advance", advance)
    assert invoke(*MATCH).exit_code == 130
    games = listed()
    assert [(game["first"], game["result"], game["moves"]) for game in games] == [
        ("random", "1/2-1/2", 1), ("greedy", "1-0", 7)]


# --- games list, show, export --------------------------------------------------------

@pytest.fixture
def three_games(tmp_path) -> list[int]:
    """X wins (human v greedy), a demo draw by agreement, an unfinished cephalopod game."""
    path = tmp_path / "games.txt"
    path.write_text(RECORD + "\n" + RECORD.replace('"1-0"', '"1/2-1/2"').replace(
        "4. 1 1-0", "4. 3 1/2-1/2").replace("human", "random") + "\n"
        '[Game "cephalopod:rows=3,cols=3"]\n[First "mcts:iterations=9"]\n\nb2 *\n')
    ids = json.loads(ok("games", "import", str(path), "--json"))["imported"][0]["ids"]
    assert len(ids) == 3
    return ids


def test_games_list_shows_a_table_newest_first(three_games):
    lines = ok("games", "list").splitlines()
    header = next(line for line in lines if "id" in line)
    assert header.split() == ["id", "date", "game", "first", "second", "result", "moves",
                              "source"]
    rows = [line.split() for line in lines if line.strip()[:1].isdigit()]
    assert [int(row[0]) for row in rows] == three_games[::-1]  # same date: last added first
    # (the records have no Date header: the date column is empty; at 80 columns the
    # specs fold onto the row's next lines, read back here column by column)
    assert cells_of_first_row(lines, header) == [
        str(three_games[-1]), "", "cephalopod:rows=3,cols=3", "mcts:iterations=9",
        "human", "*", "1", "import"]


def cells_of_first_row(lines: list[str], header: str) -> list[str]:
    """The first row of a table under `header`, each cell whole again: its parts on
    the row's lines (to the next row), cut where the header's columns start."""
    starts = [match.start() for match in re.finditer(r"\S+", header)]
    body = lines[lines.index(header) + 2:]
    block = [body[0], *takewhile(lambda line: not line[:4].strip(), body[1:])]
    return ["".join(line[start:end].strip() for line in block)
            for start, end in zip(starts, [*starts[1:], None])]


def test_games_list_filters(three_games):
    first, draw, open_game = three_games
    assert [game["id"] for game in listed("--game", "connect4")] == [draw, first]
    assert [game["id"] for game in listed("--agent", "HUMAN")] == [open_game, first]
    assert [game["id"] for game in listed("--result", "draw")] == [draw]
    assert [game["id"] for game in listed("--result", "*")] == [open_game]
    assert [game["id"] for game in listed("--limit", "1")] == [open_game]
    assert listed("--game", "quarto") == []
    assert "no games match" in ok("games", "list", "--game", "quarto")
    line = one_error_line("games", "list", "--result", "won")
    assert "'won' is not a result" in line and "unfinished" in line


@pytest.mark.parametrize("game", ["chess", "connect4:rows=3"])
def test_listing_an_unknown_game_is_refused_as_every_command_refuses_it(game):
    assert one_error_line("games", "list", "--game", game) == \
        one_error_line("demo", game, "--x", "greedy", "--o", "greedy")


def test_an_empty_history_says_so():
    assert ok("games", "list").startswith("no games in the history")


def test_show_and_export_print_the_record(three_games, tmp_path):
    first = str(three_games[0])
    text = ok("games", "show", first)
    assert ok("games", "export", first) == text
    assert stored(text) == stored(RECORD)
    shown = json.loads(ok("games", "show", first, "--json"))
    assert shown["headers"]["First"] == "human" and shown["headers"]["Result"] == "1-0"
    assert shown["moves"] == ["1", "2", "1", "2", "1", "2", "1"]
    assert shown["source"] == "import" and shown["record"] == text
    out = tmp_path / "game.txt"
    result = invoke("games", "export", first, "--out", str(out))
    assert result.exit_code == 0 and result.stdout == ""
    assert out.read_text() == text and format_record(load_record(out)) == text


def test_bad_ids_and_paths_are_one_line_errors(three_games, tmp_path):
    assert "no game 99 in the history" in one_error_line("games", "show", "99")
    assert "no game 99 in the history" in one_error_line("games", "export", "99")
    missing = tmp_path / "no" / "such" / "folder" / "game.txt"
    assert "cannot write" in one_error_line("games", "export", "1", "--out", str(missing))
    assert invoke("games", "show", "seven").exit_code == 2


# --- games import --------------------------------------------------------------------

def test_import_prints_the_new_ids(tmp_path):
    path = tmp_path / "one.txt"
    path.write_text(RECORD)
    assert ok("games", "import", str(path)) == f"{path}: game 1\n"
    [game] = listed()
    assert (game["source"], game["first"], game["result"]) == ("import", "human", "1-0")


def test_a_bad_record_is_rejected_whole_and_the_other_files_imported(tmp_path):
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text(RECORD)
    bad.write_text(RECORD + "\n" + BAD_MOVE)  # a good record, then one with a full column
    result = invoke("games", "import", str(bad), str(good), "--json")
    assert result.exit_code == 2 and "Traceback" not in result.output
    [line] = result.stderr.splitlines()
    # the bad record starts on the file's line 8: its moves are on lines 12 and 13
    assert line.startswith(f"error: {bad} line 13: move '4'") and "(after 444444)" in line
    report = json.loads(result.stdout)
    assert report["imported"] == [{"file": str(good), "ids": [1]}]
    assert report["failed"] == [{"file": str(bad), "error": line[len("error: "):]}]
    assert [game["id"] for game in listed()] == [1]  # nothing from bad.txt


@pytest.mark.parametrize("content", ["", "just some text\n", '[Game "conect4"]\n\n*\n'])
def test_files_that_are_no_records_are_errors(tmp_path, content):
    path = tmp_path / "x.txt"
    path.write_text(content)
    line = one_error_line("games", "import", str(path))
    assert str(path) in line
    assert one_error_line("games", "import", str(tmp_path / "missing.txt")).endswith(
        f"no game record at {tmp_path / 'missing.txt'}")
    assert listed() == []


def test_a_corrupt_history_is_an_error_and_left_alone(home):
    home.mkdir()
    path = home / "history.sqlite3"
    path.write_bytes(b"garbage" * 100)
    line = one_error_line("games", "list")
    assert str(path) in line and "not a SQLite database" in line
    assert str(path) in one_error_line(*DEMO)  # before any game is played
    assert path.read_bytes() == b"garbage" * 100


def test_games_without_a_command_shows_its_commands():
    result = invoke("games")
    for command in ("list", "show", "export", "import"):
        assert command in result.output


def test_the_history_the_cli_writes_is_the_one_history_opens(three_games):
    with History() as history:
        assert [summary.id for summary in history.list()] == three_games[::-1]
