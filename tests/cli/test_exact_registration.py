"""A game's exact wing is declared in its registration (`GameEntry.solver`, `book`,
`exact_review`): `plyground solve` and the review use whatever a game declares, so a
game with a solver of its own edits no shared file."""
from __future__ import annotations

from dataclasses import replace

import pytest
from typer.testing import CliRunner

from plyground.core import get_game
from plyground.core.game import _REGISTRY, game_entries, load_ref
from plyground.core.study.review import review
from plyground.tui import cli


class PlyCountingSolver:
    """A stand-in solver: a position scores its ply count, each move its column."""

    def solve(self, state, weak=False):
        return state.ply

    def analyze(self, state, weak=False):
        return list(range(len(state.moves())))[:3]


class ReviewedByTheDeclaredReview(Exception):
    pass


def declared_review(states, moves, progress):
    raise ReviewedByTheDeclaredReview(len(moves))


@pytest.fixture
def quarto_with_a_solver(monkeypatch):
    entry = get_game("quarto").entry
    monkeypatch.setitem(_REGISTRY, "quarto", replace(
        entry, solver=f"{__name__}:PlyCountingSolver",
        exact_review=f"{__name__}:declared_review"))


def test_every_declared_solver_book_and_exact_review_loads():
    declared = [ref for entry in game_entries()
                for ref in (entry.solver, entry.book, entry.exact_review) if ref]
    assert len(declared) >= 3  # Connect 4's
    for ref in declared:
        assert load_ref(ref) is not None, ref


def test_solve_runs_the_solver_a_game_declares(quarto_with_a_solver):
    start = "..../..../..../.... -"
    result = CliRunner().invoke(cli.app, ["solve", "quarto"], input=start + "\n")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{start} 0\n"
    analysed = CliRunner().invoke(cli.app, ["solve", "quarto", "--analyze"],
                                  input=start + "\n")
    assert analysed.stdout == f"{start} 0 1 2\n"


def test_a_review_uses_the_exact_review_a_game_declares(quarto_with_a_solver):
    game = get_game("quarto")
    with pytest.raises(ReviewedByTheDeclaredReview):
        review((game, game.start(), []))
