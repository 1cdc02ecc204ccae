"""Opening suites: reading and checking one, cycling through it, the shipped suites'
sizes and values, and building one that goes on after an interruption."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from plyground.core import PlygroundError, parse_game
from plyground.core.connect4 import book as c4book
from plyground.core.fast.c4solver import Solver
from plyground.core.play.openings import load_suite, shipped_suites
from plyground.core.play.openings_build import Builder, Plan, build, default_plies
from tests.reference import read_scored_positions

C4 = parse_game("connect4")
GAMES = ["connect4", "boom", "cephalopod", "quarto"]


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "suite.txt"
    path.write_text(text)
    return str(path)


def test_a_suite_cycles_through_its_lines_in_file_order(tmp_path):
    suite = load_suite(C4, write(tmp_path, "# game: connect4\n4453  # 0\n\n11  # +1\n"))
    assert suite.lines == ("4453", "11") and suite.values == ("0", "+1")
    assert [suite.opening(n) for n in range(5)] == ["4453", "11", "4453", "11", "4453"]
    state, moves = suite.start(C4, 3)
    assert C4.format_line(moves) == "11" and state == C4.parse_position("11")


@pytest.mark.parametrize("text, problem", [
    ("4453\n# a note\n448\n", "line 3: '448' is not a line of legal"),
    ("4453\n1212121\n", "line 2: the game is over there"),
    ("4453\n5344\n", "line 2: the same position as line 1"),
    ("1234\n7654\n", "line 2: the same position as line 1 (or its mirror"),
    ("# game: boom\n4453\n", "line 1: the suite is for boom, not connect4"),
    ("# only words\n\n", "the suite holds no openings"),
])
def test_a_bad_suite_is_one_line_naming_the_file_and_line(tmp_path, problem, text):
    with pytest.raises(PlygroundError) as error:
        load_suite(C4, write(tmp_path, text))
    message = str(error.value)
    assert "\n" not in message and message.startswith(str(tmp_path / "suite.txt"))
    assert problem in message


def test_an_unknown_name_says_which_suites_there_are():
    with pytest.raises(PlygroundError, match="no opening suite 'gambits' .shipped: balanced"):
        load_suite(parse_game("boom"), "gambits")


def test_the_symmetric_key_is_the_books_mirror_key():
    rng = random.Random(4)
    for _ in range(300):
        state = C4.start()
        for _ in range(rng.randrange(12)):
            if state.outcome() is None:
                state = state.play(rng.choice(state.moves()))
        if state.outcome() is not None:
            continue
        assert (C4.symmetric_key(state) == C4.symmetric_key(
            C4.parse_position("".join(str(7 - c) for c in state.history)))
            == c4book.canonical(state))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_ships_a_distinct_balanced_suite(game_id):
    game = parse_game(game_id)
    assert shipped_suites(game) == ["balanced"]
    suite = load_suite(game, "balanced")  # checks each line legal, running, distinct
    low, high = suite.plies(game)
    assert len(suite.lines) >= (500 if game.entry.solver else 200)
    assert suite.game == game.spec
    fewest, most = default_plies(game)
    assert fewest <= low <= high <= most
    assert suite.about("built by").startswith(f"plyground openings {game.spec} --build")


def test_the_connect4_suites_values_are_the_books_and_the_solvers():
    suite = load_suite(C4, "balanced")
    book, starts = c4book.load(), [suite.start(C4, n) for n in range(len(suite.lines))]
    shallow = [(state, value) for (state, _), value in zip(starts, suite.values)
               if state.ply <= book.depth]
    assert len(shallow) >= 20
    for state, value in random.Random(1).sample(shallow, 20):
        assert int(value) == book.score(state) and abs(book.score(state)) <= 1
    solved = [(start, value) for start, line, value in zip(starts, suite.lines, suite.values)
              if line[:-1] in suite.lines]  # a child the build solved, not a file's value
    deepest = sorted(solved, key=lambda item: -item[0][0].ply)[:4]  # ~0.8 s each
    assert len(deepest) == 4
    solver = Solver(book)  # one table: siblings share much of their search
    for (state, _), value in deepest:
        assert state.ply > book.depth and solver.solve(state) == int(value)


def test_the_solver_gives_some_of_test_l1_r3s_positions_the_scores_it_says():
    """The suite takes that file's values as they are: its scores must be the
    solver's (the same side, the same scale), checked on positions quick to solve."""
    published = dict(read_scored_positions("connect4/Test_L1_R3"))
    for moves in ["53154336", "3754574", "65543422", "1636341455"]:
        score = Solver(c4book.load()).solve(C4.parse_position(moves))
        assert score == published[moves]


def test_candidates_keep_only_the_even_new_positions_at_the_plies_asked(tmp_path):
    path = tmp_path / "known.txt"
    path.write_text("\n".join([
        "# moves and exact scores", "4453 0",
        "44 0",  # two plies, not 4-8
        "5344 0",  # 4453 again
        "4435 0",  # 4453's mirror image
        "1235 2",  # not even
        "1234 -1", "", "112233 1", "2345 0"]))  # the last one over the count
    plan = Plan(C4, 3, 1, (4, 8), "test", candidates=path)
    found = build(plan, tmp_path / "suite.txt")
    assert found.kept == {"4453": "0", "1234": "-1", "112233": "+1"}
    assert found.judged == 0 and dict(found.sources) == {"candidates": 3}
    suite = load_suite(C4, str(tmp_path / "suite.txt"))
    assert suite.about("sources") == f"3 read from {path} with its values"


def test_the_children_of_an_even_opening_are_judged_and_the_even_new_ones_kept(tmp_path):
    parent = "3754574"  # a drawn position of Test_L1_R3 whose children solve quickly
    builder = Builder(Plan(C4, 10, 1, (7, 8), "test"),
                      tmp_path / "suite.txt", lambda found: None)
    builder.take([(C4.parse_position(parent), parent, "0")])
    builder.extend()
    state = C4.parse_position(parent)
    children = {parent + C4.format_move(move): state.play(move)
                for move in state.moves() if state.play(move).outcome() is None}
    kept = {line: value for line, value in builder.found.kept.items() if line != parent}
    assert kept and builder.found.judged == len(children)
    for line, child in children.items():
        value = builder.values[C4.symmetric_key(child)]
        assert (line in kept) == (abs(int(value)) <= 1)
    for line, value in kept.items():
        assert Solver(c4book.load()).solve(children[line]) == int(value)


def test_with_an_exact_solver_every_even_position_at_the_first_ply_is_kept(tmp_path):
    """At ply 3 the opening book holds every position: the build keeps exactly those
    it scores 0 or ±1, once each up to mirror image."""
    book = c4book.load()
    scores = json.loads(c4book.BOOK_PATH.read_text())["scores"]  # by a line reaching it
    even = {line for line, score in scores.items() if len(line) == 3 and abs(score) <= 1}
    builder = Builder(Plan(C4, 1000, 1, (3, 3), "test"), tmp_path / "suite.txt",
                      lambda found: None)
    builder.first_ply()
    kept = builder.found.kept
    assert len(kept) == len(even) and builder.found.sources["first ply"] == len(even)
    for line, value in kept.items():
        state = C4.parse_position(line)
        assert int(value) == book.score(state) and abs(int(value)) <= 1


def test_a_build_goes_on_after_an_interruption_and_ends_as_an_unbroken_one(tmp_path):
    plan = Plan(parse_game("boom"), 6, 3, (2, 4), "test", iterations=2000)

    def stop_at_three(found):
        if found.judged == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build(plan, tmp_path / "a.txt", stop_at_three)
    kept = len((tmp_path / "a.txt.partial").read_text().splitlines())
    resumed = build(plan, tmp_path / "a.txt")
    assert resumed.reused >= kept > 0 and not (tmp_path / "a.txt.partial").exists()
    build(plan, tmp_path / "b.txt")
    openings = [[line for line in (tmp_path / name).read_text().splitlines()
                 if not line.startswith("#")] for name in ("a.txt", "b.txt")]
    assert openings[0] == openings[1]
    suite = load_suite(parse_game("boom"), str(tmp_path / "a.txt"))
    assert len(suite.lines) == 6 and all(abs(float(v) - 0.5) <= 0.05 + 1e-9 for v in suite.values)
