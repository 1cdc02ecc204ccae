"""`plyground openings`: listing, checking and showing suites, and its one-line errors."""
from __future__ import annotations

from typer.testing import CliRunner

from plyground.core import parse_game
from plyground.core.connect4 import book as c4book
from plyground.core.play.openings import load_suite
from plyground.tui import cli


def run(*args: str):
    return CliRunner().invoke(cli.app, ["openings", *args])


def test_it_lists_a_games_shipped_suite_with_its_size_plies_and_command():
    suite = load_suite(parse_game("boom"), "balanced")
    low, high = suite.plies(parse_game("boom"))
    result = run("boom")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f"balanced: {len(suite.lines)} openings, plies {low}-{high}",
        f"  built by: {suite.about('built by')}", f"  values: {suite.about('values')}"]


def test_a_game_with_other_options_has_no_shipped_suite():
    result = run("cephalopod:rows=3,cols=3")
    assert result.exit_code == 0 and result.stdout.startswith(
        "there is no shipped opening suite for cephalopod:rows=3,cols=3; build one")


def test_check_gives_a_one_line_verdict():
    result = run("boom", "--check", "balanced")
    suite = load_suite(parse_game("boom"), "balanced")
    low, high = suite.plies(parse_game("boom"))
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f"boom.txt: ok, {len(suite.lines)} openings at plies {low}-{high}, each legal, "
        "unfinished and distinct"]


def test_show_prints_each_opening_with_its_value(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("# game: connect4\n4453  # 0\n11\n")
    result = run("connect4", "--show", str(path))
    assert result.exit_code == 0 and result.stdout.splitlines() == ["4453  # 0", "11"]


def test_a_bad_suite_or_name_is_one_line_and_exit_2(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("4453\n4453\n")
    scores = tmp_path / "scores.txt"
    scores.write_text("4453 0\n4453 zero\n")
    for args, said in [(("connect4", "--check", str(path)), "line 2: the same position"),
                       (("boom", "--show", "gambits"), "no opening suite 'gambits'"),
                       (("boom", "--check", str(tmp_path / "none.txt")), "none.txt"),
                       (("connect4", "--build", "--plies", "8-4"), "--plies 8-4"),
                       (("connect4", "--build", "--candidates", str(scores)),
                        "scores.txt line 2: '4453 zero' is not moves and a value"),
                       (("connect4", "--build", "--candidates", str(path)),
                        "bad.txt line 1: '4453' is not moves and a value"),
                       (("boom", "--check", "balanced", "--exact"), "no exact solver")]:
        result = run(*args)
        assert result.exit_code == 2, args
        assert result.stdout == "" and len(result.stderr.splitlines()) == 1
        assert result.stderr.startswith("error: ") and said in result.stderr, result.stderr


def test_check_exact_solves_openings_again_and_names_one_that_differs(tmp_path):
    book, game = c4book.load(), parse_game("connect4")
    lines = ["4453", "4444", "1234"]
    said = [book.score(game.parse_position(line)) for line in lines]
    path = tmp_path / "c4.txt"
    path.write_text("".join(f"{line}  # {value:+d}\n" if value else f"{line}  # 0\n"
                            for line, value in zip(lines, said)))
    result = run("connect4", "--check", str(path), "--exact")
    assert result.exit_code == 0 and result.stdout.endswith(
        "; 3 values solved again agree\n")
    path.write_text(f"4453  # {said[0] + 1}\n")
    result = run("connect4", "--check", str(path), "--exact")
    assert result.exit_code == 2
    assert f"opening 4453 is worth {said[0]}, not {said[0] + 1}" in result.stderr


def test_build_takes_candidates_and_names_them_in_the_suites_header(tmp_path):
    scores, out = tmp_path / "scores.txt", tmp_path / "c4.txt"
    scores.write_text("4453 0\n1234 -3\n1234 -1\n")
    result = run("connect4", "--build", "--count", "2", "--candidates", str(scores),
                 "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"wrote {out}: 2 openings (0 positions judged)\n"
    suite = load_suite(parse_game("connect4"), str(out))
    assert suite.lines == ("4453", "1234") and suite.values == ("0", "-1")
    assert suite.about("built by") == ("plyground openings connect4 --build --count 2 "
                                       f"--seed 1 --candidates {scores} --out {out}")
    assert suite.about("sources") == f"2 read from {scores} with its values"
