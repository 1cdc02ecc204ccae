"""The Connect 4 opening book: the shipped file against the solver and the published
values, the solver's use of it, and clear errors for a missing or corrupt file."""
from __future__ import annotations

import json
import warnings

import pytest

from plyground.core.connect4 import book as c4book
from plyground.core import get_game
from plyground.core.connect4.book import BookError
from plyground.core.fast import c4solver
from plyground.core.connect4.book import default_book
from plyground.core.fast.c4solver import Solver
from tests.core.positions import connect4_endgames

GAME = get_game("connect4")


@pytest.fixture(scope="module")
def book() -> c4book.Book:
    return c4book.load(c4book.BOOK_PATH)


class CountingSolver:
    """A stand-in for the solver in `build`: a made-up score per 2-stone position."""

    nodes = 0

    def __init__(self):
        self.solved = []

    def solve(self, state):
        self.solved.append(GAME.format_position(state))
        return (state.history[0] * 3 + state.history[1]) % 7 - 3


def test_the_shipped_book_holds_every_position_up_to_its_depth_once(book):
    assert book.depth >= 2
    assert len(book) == sum(len(layer) for layer in c4book.layers(book.depth))
    assert len(c4book.layers(2)[2]) == 25  # 49 positions, 24 mirror pairs and 4-4


def test_the_book_gives_the_published_values_of_the_first_moves(book):
    # rules/connect4.md: the empty board scores +1; each first move's value is the
    # well-known -2 -1 0 1 0 -1 -2 (only the centre wins, the columns next to it draw)
    assert book.score(GAME.start()) == 1
    assert [-book.score(GAME.start().play(c)) for c in range(7)] == \
        [-2, -1, 0, 1, 0, -1, -2]


@pytest.mark.parametrize("moves", ["151", "443"])  # of the quicker ones to prove
def test_the_books_3_stone_scores_are_the_solvers(book, moves):
    # the score s is proven as the solver proves it: one null-window search finds the
    # score above s - 1, another not above s (a full solve takes a few of them)
    state = GAME.parse_position(moves)
    score, solver = book.score(state), Solver()
    position, mask, stones = c4solver.kernel_position(state)
    assert c4solver.negamax(position, mask, stones, score - 1, score, solver.table,
                            solver.scratch) >= score
    assert c4solver.negamax(position, mask, stones, score, score + 1, solver.table,
                            solver.scratch) <= score


def test_the_book_holds_every_position_up_to_3_stones(book):
    assert book.depth >= 3
    assert [len(layer) for layer in c4book.layers(3)] == [1, 4, 25, 121]


def test_a_position_and_its_mirror_share_their_entry(book):
    for moves in ("12", "45", "37", "1"):
        mirrored = "".join(str(8 - int(c)) for c in moves)
        assert book.score(GAME.parse_position(moves)) == \
            book.score(GAME.parse_position(mirrored)) is not None
    assert book.score(GAME.parse_position("4" * (book.depth + 1))) is None


def test_the_solver_answers_book_positions_without_searching(book):
    solver = Solver(default_book())
    assert solver.book is not None and solver.book.depth == book.depth
    start = GAME.start()
    assert solver.solve(start, nodes=1) == 1 and solver.solve(start, weak=True) == 1
    assert solver.analyze(start) == [-2, -1, 0, 1, 0, -1, -2]
    assert solver.analyze(start, weak=True) == [-1, -1, 0, 1, 0, -1, -1]
    one = GAME.parse_position("1")
    assert solver.analyze(one) == [-book.score(one.play(c)) for c in range(7)]
    assert solver.solve_many([start, one, GAME.parse_position("7")]) == \
        [1, book.score(one), book.score(one)]
    assert solver.nodes == 0


@pytest.mark.parametrize("text, problem", [
    (None, "not found"),
    ("{not json", "unreadable"),
    ('{"format": "something else"}', "not a Connect 4 opening book"),
    ('{"format": "plyground connect4 book", "depth": "two", "scores": {}}', "corrupt"),
    ('{"format": "plyground connect4 book", "depth": 1, "scores": {"": 1, "9": 0}}',
     "corrupt"),
    ('{"format": "plyground connect4 book", "depth": 1, "scores": {"": 1, "1": 44}}',
     "corrupt"),
    ('{"format": "plyground connect4 book", "depth": 1, "scores": {"": 1, "1": -2}}',
     "incomplete"),
    ('{"format": "plyground connect4 book", "depth": 1, "scores": '
     '{"": 2, "1": 2, "2": 1, "3": 0, "4": -1}}', "not the best of its moves"),
])
def test_a_bad_book_file_raises_a_clear_error(tmp_path, text, problem):
    path = tmp_path / "book.json"
    if text is not None:
        path.write_text(text)
    with pytest.raises(BookError, match=problem) as raised:
        c4book.load(path)
    assert str(path) in str(raised.value)


def test_the_solver_warns_and_searches_without_an_unusable_book(tmp_path, monkeypatch):
    path = tmp_path / "book.json"
    path.write_text('{"format": "plyground connect4 book", "depth": 2, "scores": {}}')
    monkeypatch.setattr(c4book, "BOOK_PATH", path)
    monkeypatch.setattr(c4book, "_default", [])
    with pytest.warns(UserWarning, match="without its opening book: .*incomplete"):
        solver = Solver(default_book())
    assert solver.book is None
    late = GAME.parse_position("2252576253462244111563365343671351441")
    assert solver.solve(late) == -1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Solver(default_book())
    assert caught == []  # said once a process, not for every solver


def test_build_solves_the_deepest_layer_derives_the_rest_and_resumes(tmp_path):
    out = tmp_path / "books" / "connect4.json"
    stub = CountingSolver()
    built = c4book.build(2, out, log=lambda text: None, solver=stub)
    assert len(stub.solved) == 25 and len(built) == 30
    assert c4book.load(out).scores == built.scores
    assert not out.with_name("connect4.json.partial").exists()
    # an interrupted build keeps what it solved and goes on from there
    partial = out.with_name("connect4.json.partial")
    partial.write_text(json.dumps({"format": c4book.Progress.FORMAT, "depth": 2,
                                   "seconds": 5.0, "wall": 3.0,
                                   "scores": {"11": -3, "12": 0}}))
    again = CountingSolver()
    c4book.build(2, out, log=lambda text: None, solver=again)
    assert len(again.solved) == 23 and "11" not in again.solved
    assert c4book.load(out).score(GAME.parse_position("11")) == -3


class InterruptedSolver(CountingSolver):
    """The stub, interrupted (^C) at its `at`-th position."""

    def __init__(self, at: int):
        super().__init__()
        self.at = at

    def solve(self, state):
        if len(self.solved) + 1 == self.at:
            raise KeyboardInterrupt
        return super().solve(state)


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_interrupted_build_resumes_where_it_stopped_with_the_same_result(tmp_path,
                                                                            jobs):
    whole = c4book.build(2, tmp_path / "whole.json", log=lambda text: None,
                         solver=CountingSolver())
    out = tmp_path / "book.json"
    partial = tmp_path / "book.json.partial"
    lines: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        c4book.build(2, out, log=lines.append, solver=InterruptedSolver(at=10), jobs=jobs)
    assert not out.exists()
    saved = json.loads(partial.read_text())  # whole: written atomically, each time
    kept = len(saved["scores"])  # 9 (one thread), or 8 if the other's 9th was late
    assert saved["depth"] == 2 and 8 <= kept <= 9 and (jobs == 2 or kept == 9)
    assert not list(tmp_path.glob("*.tmp"))
    assert any("2 threads" in line for line in lines) == (jobs == 2)
    rest = CountingSolver()
    lines.clear()
    resumed = c4book.build(2, out, log=lines.append, solver=rest, jobs=jobs)
    assert "resuming from" in lines[0] and f"{kept} positions already solved" in lines[0]
    assert len(rest.solved) == 25 - kept and not set(rest.solved) & set(saved["scores"])
    assert resumed.scores == whole.scores and not partial.exists()


def test_a_progress_file_of_another_depth_or_unreadable_is_not_used(tmp_path):
    out = tmp_path / "book.json"
    partial = tmp_path / "book.json.partial"
    for text, said in ((json.dumps({"format": c4book.Progress.FORMAT, "depth": 3,
                                    "seconds": 0, "wall": 0, "scores": {"11": 5}}),
                        "not the progress of a depth-2 build"),
                       ("{half written", "ignoring unreadable")):
        partial.write_text(text)
        lines: list[str] = []
        stub = CountingSolver()
        c4book.build(2, out, log=lines.append, solver=stub)
        assert said in lines[0] and len(stub.solved) == 25


def test_the_threads_solve_with_one_table_as_the_solver_does():
    states = connect4_endgames(11, 12, empty=24)
    lanes = c4book.Lanes(2)
    solved = {state: score for state, score, _, nodes in
              c4book.solve_all(states, lanes.solve, 2, lanes.stop)}
    reference = Solver()
    assert solved == {state: reference.solve(state) for state in states}


@pytest.mark.parametrize("depth, jobs, problem", [
    (-1, 1, "a book depth must be 0..8, not -1"),
    (9, 1, "a book depth must be 0..8, not 9"),
    (2, 0, "a build needs 1 thread or more, not 0"),
])
def test_a_bad_build_request_raises_a_book_error(tmp_path, depth, jobs, problem):
    with pytest.raises(BookError, match=problem):
        c4book.build(depth, tmp_path / "b.json", log=lambda text: None, jobs=jobs)
    with pytest.raises(BookError, match="is a folder"):
        c4book.build(2, tmp_path, log=lambda text: None)
