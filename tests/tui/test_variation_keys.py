"""Variations from the keyboard: walking forward follows the line walked, and at a
branch `{`/`}` (or ↑/↓ in the move list) choose the move that `]` (or →) plays, shown
highlighted in the list and named in its title."""
from __future__ import annotations

import pytest
from rich.style import Style

from plyground.tui.widgets.move_list import MoveList
from tests.tui.helpers import SIZE, SMALL, make_app, record_notifications


async def press(pilot, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await pilot.pause()


async def game_with_a_variation(pilot, app):
    """Connect 4, 4 4 3 5 played, and 6 7 tried instead of 3 (a branch after 4 4),
    back at the live game."""
    await press(pilot, "4", "4", "3", "5", "left_square_bracket", "left_square_bracket",
                "6", "7", "l")
    screen = app.game_screen
    assert screen.viewing is None and screen.match.moves == [3, 3, 2, 4]
    return screen, screen.query_one(MoveList)


def highlighted(moves: MoveList) -> list[str]:
    """The moves the list draws as the chosen one (on a colour, in italics)."""
    text = moves.query_one("#moves").content
    return [text.plain[span.start:span.end] for span in text.spans
            if isinstance(span.style, Style) and span.style.italic and span.style.bgcolor]


@pytest.mark.parametrize("size", [SIZE, SMALL])
async def test_the_brackets_choose_a_variation_at_a_branch_and_walk_into_it(size):
    app = make_app("connect4", ("human", "human"))
    async with app.run_test(size=size) as pilot:
        screen, moves = await game_with_a_variation(pilot, app)
        await press(pilot, "left_square_bracket", "left_square_bracket")
        branch = screen.viewing
        assert branch.moves() == [3, 3] and len(branch.children) == 2
        # from the live game, forward follows the main line, as before
        assert moves.chosen.move == 2 and highlighted(moves) == ["3"]
        assert moves.border_title == "Moves — next 3, 1 of 2 (↑↓ { })"
        await press(pilot, "right_curly_bracket")
        assert screen.viewing is branch  # choosing does not move
        assert moves.chosen.move == 5
        assert moves.border_title == "Moves — next 6, 2 of 2 (↑↓ { })"
        assert highlighted(moves) == ["6"]
        await press(pilot, "right_square_bracket", "right_square_bracket")
        assert screen.viewing.moves() == [3, 3, 5, 6]
        assert screen.board.state == screen.viewing.state
        # out of the variation and forward again: back into it
        await press(pilot, "left_square_bracket", "left_square_bracket",
                    "left_square_bracket", "right_square_bracket",
                    "right_square_bracket", "right_square_bracket")
        assert screen.viewing.moves() == [3, 3, 5, 6]
        # the main line again, chosen with {
        await press(pilot, "left_square_bracket", "left_square_bracket",
                    "left_curly_bracket", "right_square_bracket")
        assert screen.viewing.moves() == [3, 3, 2]
        told = record_notifications(app)
        await press(pilot, "right_curly_bracket")  # no branch after 4 4 3
        assert any("Only one move follows this position" in m for m in told)
        await press(pilot, "right_square_bracket")
        assert screen.viewing is None  # the live game, 4 4 3 5


async def test_up_and_down_choose_in_the_move_list_and_step_elsewhere():
    app = make_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        screen, moves = await game_with_a_variation(pilot, app)
        moves.focus()
        await press(pilot, "up")  # no branch at the live game: a step back
        assert screen.viewing.moves() == [3, 3, 2]
        await press(pilot, "left")
        assert screen.viewing.moves() == [3, 3]
        await press(pilot, "down")  # a branch: the move below, 6
        assert screen.viewing.moves() == [3, 3] and moves.chosen.move == 5
        await press(pilot, "down")  # the last one stays chosen
        assert moves.chosen.move == 5
        await press(pilot, "right")
        assert screen.viewing.moves() == [3, 3, 5]
        await press(pilot, "down")  # no branch: a step forward
        assert screen.viewing.moves() == [3, 3, 5, 6]
        await press(pilot, "left", "left", "up", "right")
        assert screen.viewing.moves() == [3, 3, 2]
        await press(pilot, "end")
        assert screen.viewing is None


async def test_a_click_into_a_variation_is_the_line_walked():
    app = make_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        screen, moves = await game_with_a_variation(pilot, app)
        moves.action_go(moves.nodes.index(screen.game_tree.root.children[0]
                                          .children[0].children[1].children[0]))
        await pilot.pause()
        assert screen.viewing.moves() == [3, 3, 5, 6]
        await press(pilot, "left_square_bracket", "left_square_bracket",
                    "right_square_bracket")
        assert screen.viewing.moves() == [3, 3, 5]
