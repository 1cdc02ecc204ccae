"""A short run of the UI fuzzer (tests/tui/fuzz.py; `make fuzz` runs a long one):
random keys, clicks and resizes over the four games must raise nothing, show no error
and keep every game's moves and board in agreement."""
from __future__ import annotations

from tests.tui.fuzz import GAMES, consistency_problem, fuzz


async def test_a_short_fuzz_over_every_game_finds_nothing():
    report = await fuzz(events=4 * 25, seed=7, per_session=25)
    assert report.problems == []
    assert report.events == 100 and report.sessions >= len(GAMES)


async def test_the_fuzzers_check_sees_a_board_that_disagrees_with_the_moves():
    """The check can fail: a board showing another position is caught."""
    from tests.tui.helpers import make_app, settled

    app = make_app("connect4", ("human", "random"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("4")
        await settled(pilot, app)
        assert consistency_problem(app) is None
        screen = app.game_screen
        screen.board.state = screen.match.start
        assert consistency_problem(app) == \
            "the board does not show the position the screen shows"
        screen.match.moves.append(screen.match.moves[-1])
        moves = len(screen.match.moves)
        assert consistency_problem(app) == f"{moves} moves but {moves} positions"
