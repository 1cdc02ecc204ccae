"""The Connect 4 opening book: the shipped file against the solver and the published
values, the solver's use of it, and clear errors for a missing or corrupt file."""
from __future__ import annotations

import json
import warnings

import pytest

from plyground.core import c4book, get_game
from plyground.core.c4book import BookError
from plyground.core.fast.c4solver import Solver

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


def test_a_position_and_its_mirror_share_their_entry(book):
    for moves in ("12", "45", "37", "1"):
        mirrored = "".join(str(8 - int(c)) for c in moves)
        assert book.score(GAME.parse_position(moves)) == \
            book.score(GAME.parse_position(mirrored)) is not None
    assert book.score(GAME.parse_position("4" * (book.depth + 1))) is None


def test_the_solver_answers_book_positions_without_searching(book):
    solver = Solver()
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
        solver = Solver()
    assert solver.book is None
    late = GAME.parse_position("2252576253462244111563365343671351441")
    assert solver.solve(late) == -1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Solver()
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
    partial.write_text(json.dumps({"depth": 2, "scores": {"11": -3, "12": 0}}))
    again = CountingSolver()
    c4book.build(2, out, log=lambda text: None, solver=again)
    assert len(again.solved) == 23 and "11" not in again.solved
    assert c4book.load(out).score(GAME.parse_position("11")) == -3
