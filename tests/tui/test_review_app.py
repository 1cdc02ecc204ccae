"""The review in the app (`e`): the game's moves reviewed in the review engine, their
labels in the move list, the accuracies and the value graph under the board, a click
on the graph views that ply (issue 15). The review itself (core/study/review.py) is tested
against the solver in tests/core/test_review.py; here the app must show what it gives."""
from __future__ import annotations

from contextlib import asynccontextmanager

from plyground.core.study.review import review
from plyground.tui.review_labels import GLYPHS
from plyground.tui.value_chart import plies_of
from plyground.tui.widgets.review_panel import ReviewPanel
from plyground.tui.widgets.value_graph import ValueGraph
from tests.tui.helpers import make_app, record_notifications, status_text, wait_until

# a Connect 4 position from the reference data (Test_L1_R1, 25 stones, O to move):
# solved in moments, so a review of a few moves from it is quick
START = "5554224333234511764415115"
MOVES = "1222"  # blunders among them (the review of the core says which)
SMALL, LARGE = (80, 24), (160, 50)


async def play(pilot, keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await pilot.pause()


async def review_in_app(pilot, app) -> None:
    """Press e and wait for the review of the game's moves."""
    screen = app.game_screen
    panel = screen.query_one(ReviewPanel)
    await pilot.press("e")
    await wait_until(pilot, lambda: screen.review_id is None and panel.review is not None
                     and len(panel.review.moves) == len(screen.match.moves),
                     timeout=240)


@asynccontextmanager
async def reviewed(size=LARGE):
    """The app, MOVES played from START and reviewed: (app, pilot, notifications)."""
    app = make_app("connect4", ("human", "human"), START)
    async with app.run_test(size=size) as pilot:
        await play(pilot, MOVES)
        told = record_notifications(app)
        await review_in_app(pilot, app)
        yield app, pilot, told


def expected_review(app):
    screen = app.game_screen
    return review((screen.match.game, screen.match.start, screen.match.moves))


async def test_the_review_labels_the_moves_and_charts_the_values_as_the_review_gives():
    async with reviewed() as (app, pilot, told):
        screen = app.game_screen
        expected = expected_review(app)
        panel = screen.query_one(ReviewPanel)
        assert panel.display and panel.review is not None
        assert [move.label for move in panel.review.moves] == \
            [move.label for move in expected.moves]
        assert "blunder" in [move.label for move in expected.moves]  # the test shows one
        moves_text = str(screen.query_one("#moves").content)
        for node, move in zip(screen.game_tree.main_line(), expected.moves):
            assert screen.match.game.format_move(node.move) + GLYPHS[move.label] \
                in moves_text
        accuracies = [expected.accuracy(side) for side in (0, 1)]
        assert panel.border_title == (f"Review: accuracy X {accuracies[0]:.0f}% · "
                                      f"O {accuracies[1]:.0f}%")
        assert panel.border_subtitle == "exact" and expected.exact
        graph = panel.query_one(ValueGraph)
        assert graph.values == expected.values
        assert graph.current == len(MOVES)  # the live game's ply is marked
        assert any("Reviewed 4 moves" in message for message in told)


async def test_walking_back_judges_each_move_and_a_click_on_the_graph_views_its_ply():
    async with reviewed() as (app, pilot, _):
        screen = app.game_screen
        expected = expected_review(app)
        line = screen.query_one("#review-line")
        first = expected.moves[0]
        await play(pilot, "[" * (len(MOVES) - 1))  # after the first move
        assert screen.viewing.moves() == screen.match.moves[:1]
        text = str(line.content)
        assert text.startswith(f"O 1: {first.label}") and first.best_text in text
        graph = screen.query_one(ValueGraph)
        assert graph.current == 1
        # a click on the graph's last column: the last ply, the live game
        await pilot.click(ValueGraph, offset=(graph.size.width - 1, 1))
        await pilot.pause()
        assert screen.viewing is None and graph.current == len(MOVES)
        # its first column: the start
        await pilot.click(ValueGraph, offset=(0, 1))
        await pilot.pause()
        assert plies_of(0, len(graph.values), graph.size.width)[-1] == 0
        assert screen.viewing is screen.game_tree.root
        assert "The start" in str(line.content)


async def test_e_says_why_it_cannot_review_and_a_second_e_stops_a_review():
    app = make_app("connect4", ("human", "human"), START)
    async with app.run_test(size=LARGE) as pilot:
        screen = app.game_screen
        await pilot.press("e")
        await pilot.pause()
        assert "No move to review yet" in status_text(app)
        assert screen.review_id is None
        await play(pilot, MOVES)
        await pilot.press("e")
        await pilot.pause()
        # running: the review engine's first review waits for its process to start
        assert screen.review_id is not None
        await pilot.press("e")  # stops it
        await pilot.pause()
        assert screen.review_id is None
        panel = screen.query_one(ReviewPanel)
        assert "stopped" in str(screen.query_one("#review-line").content)
        await review_in_app(pilot, app)  # and it starts again
        assert panel.review is not None
        await pilot.press("e")
        await pilot.pause()
        assert "reviewed already" in status_text(app)
        # a move played after the review: e reviews the longer game
        await play(pilot, "7")
        await review_in_app(pilot, app)
        assert len(panel.review.moves) == len(MOVES) + 1
        await pilot.press("n")  # a new game has no review
        await pilot.pause()
        assert not panel.display and panel.review is None


async def test_a_short_terminal_keeps_the_graph_and_one_line():
    async with reviewed(SMALL) as (app, pilot, _):
        screen = app.game_screen
        panel = screen.query_one(ReviewPanel)
        assert panel.has_class("small")
        graph = panel.query_one(ValueGraph)
        assert graph.size.height == 3 and len(graph.rows()) == 3
        assert str(screen.query_one("#review-line").content).startswith(
            "Review: accuracy X")
        assert panel.region.bottom <= app.size.height - 1  # above the footer
