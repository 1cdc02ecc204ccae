"""The `plyground` command line: what each command prints, and one `error:` line with
exit code 2 for every kind of bad input."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from plyground.core.search.control import Budget
from plyground.core import get_game, parse_game
from plyground.core.study.perft import distinct_positions, perft
from plyground.core.search.alphabeta import alphabeta_search
from plyground.tui import cli
from plyground.tui.cli.demo import demo_agent
from tests.reference import read_table

GAME = get_game("connect4")
RESULTS = {"X wins", "O wins", "draw"}
FULL_BOARD_DRAW = "547125662261271266215743771576315353334444"


def invoke(*args: str):
    return CliRunner().invoke(cli.app, list(args))


@pytest.fixture
def launches(monkeypatch):
    """The app's launches, recorded instead of opening the app."""
    calls = []

    def fake_run(game_id=None, sides=None, position=None, options=None, seed=None):
        calls.append((game_id, sides, position, options, seed))

    monkeypatch.setattr("plyground.tui.app.run", fake_run)
    return calls


def replay(record: str):
    """The finished game `record` writes, checked against the rules: every move but the
    last makes a running position, and the last one ends the game."""
    before = GAME.parse_position(record[:-1])
    final = before.play(GAME.parse_move(record[-1], before))
    assert final.outcome() is not None
    return final


# --- play ----------------------------------------------------------------------------


def test_no_arguments_open_the_setup_screen(launches):
    result = invoke()
    assert result.exit_code == 0, result.output
    assert launches == [(None, None, None, None, None)]


def test_play_opens_the_game_with_both_sides(launches):
    result = invoke("play", "connect4", "--x", "human", "--o", "mcts:time=1")
    assert result.exit_code == 0, result.output
    assert launches == [("connect4", ("human", "mcts:time=1"), None, {}, None)]


def test_play_takes_long_side_names_and_passes_checked_canonical_values(launches):
    result = invoke("play", "connect4", "--second", " minimax:depth = 4 ",
                    "--position", " 4453 ")
    assert result.exit_code == 0, result.output
    assert launches == [("connect4", ("human", "minimax:depth=4"), "4453", {}, None)]
    invoke("play", "connect4", "--first", "greedy")
    assert launches[-1] == ("connect4", ("greedy", "human"), None, {}, None)


def test_play_without_sides_leaves_them_to_the_setup_screen(launches):
    assert invoke("play", "connect4").exit_code == 0
    assert launches == [("connect4", None, None, {}, None)]


def test_play_passes_the_games_seed_to_the_app(launches):
    assert invoke("play", "connect4", "--o", "mcts", "--seed", "41").exit_code == 0
    assert launches == [("connect4", ("human", "mcts"), None, {}, 41)]


# --- demo ----------------------------------------------------------------------------


def test_demo_draws_the_board_after_every_move_and_ends_with_the_game():
    result = invoke("demo", "connect4", "--x", "greedy", "--o", "minimax:depth=2")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    result_line, record = lines[-2:]
    assert result_line in RESULTS
    final = replay(record)
    assert GAME.describe_outcome(final.outcome()) == result_line
    boards = [line for line in lines if line.split() == list("1234567")]
    assert len(boards) == len(record) + 1  # the start, then one per move
    assert "1. X plays" in result.stdout  # each decision worded as the app words it
    assert re.search(r"O plays \d   Minimax \(2 ply\): heuristic score [+-]\d+ · depth 2 "
                     r"· [\d,]+ nodes", result.stdout)


@pytest.mark.parametrize("x, o", [
    ("greedy", "minimax:depth=2"),
    ("mcts:iterations=200", "alphabeta:depth=4"),
    ("random", "random"),
])
def test_quiet_demo_prints_the_result_and_a_record_that_replays_to_it(x, o):
    result = invoke("demo", "connect4", "--x", x, "--o", o, "--seed", "3", "--quiet")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0] in RESULTS
    assert GAME.describe_outcome(replay(lines[1]).outcome()) == lines[0]


def test_demo_from_a_position_records_the_whole_game():
    result = invoke("demo", "connect4", "--x", "greedy", "--o", "greedy",
                    "--position", "4453", "--quiet")
    assert result.exit_code == 0, result.output
    record = result.stdout.splitlines()[1]
    assert record.startswith("4453") and len(record) > 4
    replay(record)


def test_demo_from_a_full_board_just_reports_the_draw():
    result = invoke("demo", "connect4", "--x", "greedy", "--o", "greedy",
                    "--position", FULL_BOARD_DRAW, "--quiet")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["draw", FULL_BOARD_DRAW]


def test_a_seeded_demo_is_reproducible_and_the_seed_matters():
    args = ("demo", "connect4", "--x", "mcts:iterations=200", "--o", "random")
    first, again = invoke(*args, "--seed", "7"), invoke(*args, "--seed", "7")
    assert first.exit_code == 0, first.output
    assert first.stdout == again.stdout
    assert invoke(*args, "--seed", "8").stdout != first.stdout


def test_the_demo_seed_seeds_each_side_differently_unless_the_spec_sets_one():
    x, o = (demo_agent(GAME, side, "mcts:iterations=10", 5) for side in (0, 1))
    assert x.settings["seed"] != o.settings["seed"]
    assert x.settings["iterations"] == 10
    assert demo_agent(GAME, 0, "random:seed=9", 5).settings["seed"] == 9
    assert demo_agent(GAME, 0, "random", None).settings["seed"] == 0
    assert demo_agent(GAME, 0, "minimax:depth=2", 5).spec == "minimax:depth=2"


def test_ctrl_c_stops_a_demo_with_a_message(monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("plyground.core.agents.kinds.RandomAgent.search", interrupted)
    result = invoke("demo", "connect4", "--x", "greedy", "--o", "random")
    assert result.exit_code == 130
    assert result.stderr.splitlines() == ["interrupted; the game so far: 4"]
    assert "Traceback" not in result.output


# --- analyze -------------------------------------------------------------------------


def test_analyze_shows_best_move_value_line_and_every_moves_value():
    result = invoke("analyze", "connect4", "4453", "--agent", "alphabeta:depth=4")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "X to move" in out and "depth 4" in out and "nodes" in out
    assert "best move" in out and "principal variation:" in out
    rows = [line.split() for line in out.splitlines()]
    moves = [row for row in rows if len(row) in (2, 3) and row[0] in "1234567"]
    assert [row[0] for row in moves] == list("1234567")
    assert {row[1] for row in moves if len(row) == 3} <= {"≤", "≥"}  # bounds say so


def test_analyze_gives_the_agents_own_decision_with_its_bounds():
    """The same search as the agent's in a game: its move, value, depth and each root
    move's value as the search left it (a bound where a cut-off stopped it)."""
    result = invoke("analyze", "connect4", "4453", "--agent", "alphabeta:depth=6", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    done = alphabeta_search(GAME, GAME.parse_position("4453"), Budget(depth=6))
    assert (report["best_move"], report["value"], report["depth"], report["work"]) == \
        (GAME.format_move(done.best_move), done.value, done.depth, done.work)
    assert [(entry["value"], entry["bound"]) for entry in report["moves"]] == \
        [(mv.value, mv.bound) for mv in sorted(done.move_values, key=lambda mv: mv.move)]
    assert "upper" in {entry["bound"] for entry in report["moves"]}
    upper = next(entry for entry in report["moves"] if entry["bound"] == "upper")
    assert upper["description"].startswith("≤ ")


def test_analyze_json_gives_the_exact_root_values_of_alphabeta():
    result = invoke("analyze", "connect4", "4453", "--agent", "alphabeta:depth=4", "--json",
                    "--every-move-exact")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    # The plain Python search is the reference (the CLI's agent may use a fast backend).
    done = alphabeta_search(GAME, GAME.parse_position("4453"), Budget(depth=4),
                            exact_root=True)
    assert report["depth"] == done.depth == 4
    assert report["value"] == done.value
    assert report["best_move"] == GAME.format_move(done.best_move)
    assert report["pv"][0] == report["best_move"]
    assert {entry["move"]: entry["value"] for entry in report["moves"]} == {
        GAME.format_move(mv.move): mv.value for mv in done.move_values}
    assert {entry["bound"] for entry in report["moves"]} == {"exact"}
    assert report["work_unit"] == "nodes" and report["work"] > 0


def test_analyze_json_with_mcts_gives_means_and_visits():
    result = invoke("analyze", "connect4", "--agent", "mcts:iterations=200", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["position"] == "" and report["to_move"] == "X"
    assert report["work"] == 200 and report["work_unit"] == "iterations"
    assert [entry["move"] for entry in report["moves"]] == list("1234567")
    assert sum(entry["visits"] for entry in report["moves"]) == 200
    assert all(0 <= entry["value"] <= 1 for entry in report["moves"])


def test_analyze_with_the_demos_seed_finds_the_demos_moves():
    """`analyze --seed N` seeds its agent for the side to move as the demo seeded it."""
    mcts = "mcts:iterations=200"
    demo = invoke("demo", "connect4", "--x", mcts, "--o", mcts, "--seed", "5", "--quiet")
    assert demo.exit_code == 0, demo.output
    record = demo.stdout.splitlines()[1]
    for ply in range(len(record)):  # every move, X's and O's
        position = (record[:ply],) if ply else ()
        result = invoke("analyze", "connect4", *position, "--agent", mcts, "--seed", "5",
                        "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["best_move"] == record[ply], ply


def test_analyze_says_what_an_exact_quarto_search_proves():
    """The report says a small endgame is proven won, lost or drawn, and once searched
    to the end every root move has its exact value (brute force agrees)."""
    from tests.core.positions import quarto_endgames
    from tests.core.test_fast_quarto import brute_force

    quarto = get_game("quarto")
    proofs, solved = set(), 0
    for state in quarto_endgames(31, quarto, 5, 6):
        text = quarto.format_position(state)
        result = invoke("analyze", "quarto", text, "--agent", "alphabeta:depth=17", "--json")
        assert result.exit_code == 0, result.output
        report = json.loads(result.stdout)
        value = brute_force(state)
        assert report["value"] == value
        assert report["proof"] == ("proven draw" if value == 0 else
                                   "proven won" if value > 0 else "proven lost")
        if report["depth"] >= quarto.plies_left_at_most(state):
            # searched to the end (a win found sooner stops the deepening earlier)
            for entry in report["moves"]:  # exact, or the bound a cut-off proved
                move = quarto.parse_move(entry["move"], state)
                true = -brute_force(state.play(move))
                assert {"exact": entry["value"] == true, "upper": true <= entry["value"],
                        "lower": true >= entry["value"]}[entry["bound"]]
            solved += 1
        proofs.add(report["proof"])
    assert len(proofs) >= 2 and solved >= 2


# --- perft ---------------------------------------------------------------------------


def table_lines(counts) -> list[str]:
    return [f"{n} {count}" for n, count in enumerate(counts)]


def test_perft_prints_the_core_counts_which_are_the_published_ones():
    result = invoke("perft", "connect4", "--depth", "5")
    assert result.exit_code == 0, result.output
    published = read_table("connect4/perft.txt")
    assert result.stdout.splitlines() == table_lines(perft(GAME, 5))
    assert result.stdout.splitlines() == table_lines(published[n] for n in range(6))


def test_perft_distinct_prints_distinct_positions_per_ply():
    result = invoke("perft", "connect4", "--depth", "5", "--distinct")
    assert result.exit_code == 0, result.output
    published = read_table("connect4/positions_per_ply.txt")
    assert result.stdout.splitlines() == table_lines(distinct_positions(GAME, 5))
    assert result.stdout.splitlines() == table_lines(published[n] for n in range(6))


# --- game specs ----------------------------------------------------------------------

SMALL = "cephalopod:rows=3,cols=3"
SMALL_GAME = parse_game(SMALL)
SMALL_POSITION = ".r1./r2.r3/.r4. r"


def test_play_takes_a_game_spec_and_passes_its_options_to_the_app(launches):
    result = invoke("play", "cephalopod:rows=3,cols=5", "--red", "greedy",
                    "--blue", "human", "--position", " r1..../...../....b1 r ")
    assert result.exit_code == 0, result.output
    assert launches == [("cephalopod", ("greedy", "human"), "r1..../...../....b1 r",
                         {"rows": 3, "cols": 5}, None)]
    invoke("play", "cephalopod", "--blue", "mcts")
    assert launches[-1] == ("cephalopod", ("human", "mcts"), None, {"rows": 5, "cols": 5},
                            None)


def test_demo_plays_on_the_board_the_spec_names():
    result = invoke("demo", SMALL, "--red", "greedy", "--blue", "random", "--seed", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Cephalopod: Red = Greedy, Blue = Random"
    result_line, record = lines[-2:]
    final = SMALL_GAME.play_moves(SMALL_GAME.start(), record.split())
    assert SMALL_GAME.describe_outcome(final.outcome()) == result_line
    boards = [line for line in lines if line.split() == list("abc")]
    assert len(boards) == len(record.split()) + 1  # the start, then one per move
    assert "1. Red plays" in result.stdout and "2. Blue plays" in result.stdout


def test_analyze_reads_the_position_on_the_board_the_spec_names():
    result = invoke("analyze", SMALL, SMALL_POSITION, "--agent", "alphabeta:depth=2",
                    "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["game"] == SMALL and report["position"] == SMALL_POSITION
    assert report["to_move"] == "Red" and report["depth"] == 2
    state = SMALL_GAME.parse_position(SMALL_POSITION)
    assert [entry["move"] for entry in report["moves"]] == [
        SMALL_GAME.format_move(move) for move in state.moves()]


def test_perft_counts_on_the_board_the_spec_names():
    result = invoke("perft", SMALL, "--depth", "4")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:3] == ["0 1", "1 9", "2 72"]  # 9 cells, then 8
    assert result.stdout.splitlines() == table_lines(perft(SMALL_GAME, 4))
    assert invoke("perft", "cephalopod", "--depth", "1").stdout.splitlines() == [
        "0 1", "1 25"]


# --- errors and help -----------------------------------------------------------------

DEMO = ("demo", "connect4", "--x", "greedy", "--o", "greedy")


@pytest.mark.parametrize("args, message", [
    (("chess",), "No such command 'chess'"),
    (("play", "chess"), "unknown game 'chess'"),
    (("perft", "chess", "--depth", "1"), "unknown game 'chess'"),
    (("play", "connect4", "--x", "wizard"), "unknown agent 'wizard'"),
    (("analyze", "connect4", "--agent", "human"), "unknown agent 'human'"),
    (("play", "connect4", "--o", "mcts:speed=3"), "unknown setting 'speed'"),
    (("demo", "connect4", "--x", "greedy", "--o", "mcts:iterations=lots"),
     "iterations='lots' is not a whole number"),
    (("analyze", "connect4", "--agent", "alphabeta:time=-1"), "time must be at least"),
    (("play", "connect4", "--position", "44a"), "move 3 is 'a'"),
    (("analyze", "connect4", "4444444"), "move 7 plays column 4, which is full"),
    ((*DEMO, "--position", "1212121"), "completes a four for X"),
    (("analyze", "connect4", FULL_BOARD_DRAW), "the game is over"),
    (("perft", "connect4", "--depth", "-1"), "'--depth'"),
    (("perft", "connect4"), "Missing option '--depth'"),
    (("analyze",), "Missing argument 'GAME'"),
    (("demo", "connect4", "--x", "greedy"), "Missing option '--o'"),
    (("demo", "connect4", "--x", "human", "--o", "greedy"), "X is human"),
    (("demo", "connect4", "--x", "greedy", "--o", "human"), "O is human"),
    ((*DEMO, "--seed", "abc"), "'--seed'"),
    (("play", "connect4", "--seed", "abc"), "'--seed'"),
    (("analyze", "connect4", "--seed", "1.5"), "'--seed'"),
    (("perft", "connect4", "--depth", "2", "--bogus"), "No such option: --bogus"),
    (("perft", "cephalopod:rows=4,cols=4", "--depth", "1"),
     "cephalopod boards are 5x5, 3x3, 3x5, not 4x4"),
    (("demo", "cephalopod:size=3", "--red", "greedy", "--blue", "greedy"),
     "cephalopod has no option 'size'"),
    (("play", "cephalopod:rows=three"), "'rows=three' is not a whole number"),
    (("analyze", "connect4:rows=6"), "connect4 has no option 'rows'"),
    (("play", "chess:rows=3"), "unknown game 'chess'"),
    (("analyze", "cephalopod", SMALL_POSITION), "3 rows, the board has 5"),
    (("demo", SMALL, "--red", "human", "--blue", "greedy"), "Red is human"),
    (("demo", SMALL, "--red", "greedy"), "Missing option '--o'"),
    (("match", "cephalopod:rows", "--first", "random", "--second", "random", "--games", "2"),
     "option 'rows' needs a value"),
    (("match", "connect4", "--first", "human", "--second", "random", "--games", "2"),
     "unknown agent 'human'"),
    (("match", "connect4", "--first", "random", "--second", "random", "--games", "0"),
     "'--games'"),
    (("match", "connect4", "--first", "random", "--second", "random"),
     "a match needs --games (or --resume RUN)"),
])
def test_bad_input_gives_one_error_line_and_exit_code_2(launches, args, message):
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert message in lines[0]
    assert result.stdout == "" and "Traceback" not in result.output
    assert launches == []


def test_help_still_works():
    for args in (("--help",), ("demo", "--help")):
        result = invoke(*args)
        assert result.exit_code == 0, result.output
        assert "Usage" in result.stdout and result.stderr == ""
    assert all(name in invoke("--help").stdout
               for name in ("play", "demo", "match", "analyze", "perft"))
    assert all(name in invoke("demo", "--help").stdout for name in ("--first", "--red"))
    game_help = invoke("perft", "--help").stdout
    assert all(text in game_help for text in ("connect4", "cephalopod", "rows=5", "3×5"))


def test_python_dash_m_plyground_runs_the_cli():
    result = subprocess.run([sys.executable, "-m", "plyground", "--help"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "Usage" in result.stdout and "demo" in result.stdout


def command_paths(command, path=()):
    """The argument paths to `command` and every subcommand: (), ("games",), ..."""
    yield path
    for name, sub in getattr(command, "commands", {}).items():
        yield from command_paths(sub, (*path, name))


def test_help_gives_a_flag_no_value_type():
    """`--json` takes no value, so its help shows none (typer would write `<bool>`)."""
    import typer

    flags = 0
    for path in command_paths(typer.main.get_command(cli.app)):
        result = invoke(*path, "--help")
        assert result.exit_code == 0, result.output
        assert "--help" in result.stdout and "<bool>" not in result.stdout, path
        flags += "--json" in result.stdout or "--no-record" in result.stdout
    assert flags >= 4  # match, tournament, games list ... were looked at
