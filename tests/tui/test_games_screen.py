"""The Games screen (tui/screens/games.py): the history's games in a table, narrowed by
the filters, Enter or a click opening one (the screen dismisses with its id), Esc
leaving with None, an empty history and an unreadable one said on the screen."""
from __future__ import annotations

import pytest
from textual.app import App
from textual.widgets import Input, Select

from plyground.core import get_game, parse_game
from plyground.core.game import Outcome, Termination
from plyground.core.records.history import History, played_record
from plyground.core.records.record import format_record
from plyground.tui.screens.games import ConfirmDelete, GamesScreen, GameTable

from .helpers import SIZE, wait_until

C4 = get_game("connect4")
CEPH = parse_game("cephalopod:rows=3,cols=3")
NOTHING = object()  # the screen has not been dismissed yet


def connect4(moves: str, players, date: str, outcome=None, reason=""):
    start = C4.start()
    final = C4.play_moves(start, list(moves))
    record = played_record(C4, start, C4.parse_line(start, moves),
                           outcome or final.outcome(), players, reason=reason)
    record.date = date
    return record


def cephalopod(plies: int, players, date: str):
    """An unfinished 3×3 Cephalopod game: the first legal move, `plies` times."""
    state, moves = CEPH.start(), []
    for _ in range(plies):
        moves.append(state.moves()[0])
        state = state.play(moves[-1])
    record = played_record(CEPH, CEPH.start(), moves, None, players, reason="abandoned")
    record.date = date
    return record


RECORDS = [  # oldest first; the screen lists them newest first
    (connect4("1212121", ("random", "greedy"), "2026-01-01T10:00:00"), "demo"),
    (connect4("12123232", ("human", "alphabeta:time=1"), "2026-01-02T11:30:00"), "app"),
    (connect4("44", ("human", "human"), "2026-01-03T09:15:00", reason="abandoned"), "app"),
    (connect4("4455", ("mcts:iterations=500", "greedy"), "2026-01-04T20:00:00",
              Outcome(None, Termination.DECLARED, "agreed")), "match"),
    (cephalopod(3, ("mcts:iterations=500", "random"), "2026-01-05T08:00:00"),
     "tournament"),
]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def ids(home) -> list[int]:
    """The games' ids, oldest first."""
    with History() as history:
        return [history.add(record, source) for record, source in RECORDS]


class GamesApp(App):
    """Pushes the Games screen and keeps what it dismissed with."""

    def __init__(self) -> None:
        super().__init__()
        self.chosen = NOTHING

    def on_mount(self) -> None:
        self.push_screen(GamesScreen(), self.keep)

    def keep(self, chosen) -> None:
        self.chosen = chosen


def shown_ids(screen: GamesScreen) -> list[int]:
    table = screen.query_one(GameTable)
    return [int(row.key.value) for row in table.ordered_rows]


def row_texts(screen: GamesScreen) -> list[list[str]]:
    table = screen.query_one(GameTable)
    return [[str(cell) for cell in table.get_row_at(row)] for row in range(table.row_count)]


def message(screen: GamesScreen) -> str:
    return str(screen.query_one("#games-message").content)


async def started(pilot, app) -> GamesScreen:
    await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen))
    await pilot.pause()
    return app.screen


async def test_the_games_are_listed_newest_first(ids):
    app = GamesApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot, app)
        assert shown_ids(screen) == ids[::-1]
        rows = row_texts(screen)
        assert rows[-1] == ["2026-01-01 10:00", "connect4", "random", "greedy",
                            "1-0 X connects four", "7", "demo"]
        assert rows[0] == ["2026-01-05 08:00", "cephalopod:rows=3,cols=3",
                           "mcts:iterations=500", "random", "* abandoned", "3",
                           "tournament"]
        assert rows[1][4] == "½-½ agreed"
        assert message(screen).startswith("5 games")
        detail = str(screen.query_one("#games-detail").content)
        assert detail.startswith(f"Game {ids[-1]} · cephalopod:rows=3,cols=3")
        footer = {active.binding.description for active in screen.active_bindings.values()
                  if active.binding.show}
        assert {"Open", "Delete", "Back"} <= footer


async def test_the_filters_narrow_the_list(ids):
    app = GamesApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot, app)
        screen.query_one("#games-game", Select).value = "cephalopod"
        await pilot.pause()
        assert shown_ids(screen) == [ids[4]]
        assert message(screen).startswith("1 game matches")

        screen.query_one("#games-game", Select).value = "connect4"
        await pilot.pause()
        assert shown_ids(screen) == ids[3::-1]

        screen.query_one("#games-agent", Input).focus()
        await pilot.press(*"GREED")  # any case, any part; `d` is typed, not a deletion
        await wait_until(pilot, lambda: shown_ids(screen) == [ids[3], ids[0]])
        assert screen.query_one("#games-agent", Input).value == "GREED"

        for result, expected in [("first", [ids[0]]), ("draw", [ids[3]]),
                                 ("second", [])]:
            screen.query_one("#games-result", Select).value = result
            await pilot.pause()
            assert shown_ids(screen) == expected
        assert message(screen) == "No games match these filters (5 in the history)."

        await pilot.press("ctrl+u", "enter")  # the box emptied; Enter: the list at once
        assert screen.query_one(GameTable).has_focus
        screen.query_one("#games-result", Select).value = "unfinished"
        await pilot.pause()
        assert shown_ids(screen) == [ids[2]]  # the game filter still says connect4
        screen.query_one("#games-game", Select).value = "all"
        await pilot.pause()
        assert shown_ids(screen) == [ids[4], ids[2]]


async def test_enter_opens_the_highlighted_game(ids):
    app = GamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot, app)
        await pilot.press("down", "down", "enter")
        await wait_until(pilot, lambda: app.chosen is not NOTHING)
        assert app.chosen == ids[2]
        assert not isinstance(app.screen, GamesScreen)
    with History() as history:
        assert format_record(history.get(app.chosen)) == format_record(RECORDS[2][0])


async def test_a_click_on_a_row_opens_it(ids):
    app = GamesApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot, app)
        table = screen.query_one(GameTable)
        await pilot.click(GameTable, offset=(3, 4))  # the header, then the 4th row
        await wait_until(pilot, lambda: app.chosen is not NOTHING)
        assert app.chosen == ids[1] and table.cursor_row == 3


async def test_esc_leaves_with_none(ids):
    app = GamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot, app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.chosen is not NOTHING)
        assert app.chosen is None


async def test_a_game_is_deleted_only_once_confirmed(ids):
    app = GamesApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot, app)
        await pilot.press("down", "d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDelete))
        await pilot.press("escape")  # no
        await wait_until(pilot, lambda: app.screen is screen)
        assert shown_ids(screen) == ids[::-1]

        await pilot.press("delete")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDelete))
        await pilot.click("#delete")
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.pause()
        assert shown_ids(screen) == [ids[4], *ids[2::-1]]
        assert screen.query_one(GameTable).cursor_row == 1  # where the game was
    with History() as history:
        assert [game.id for game in history.list()] == [ids[4], *ids[2::-1]]


async def test_an_empty_history_says_so(home):
    app = GamesApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot, app)
        assert shown_ids(screen) == []
        assert message(screen).startswith("No games yet: finished games are kept here")
        assert not screen.query_one(GameTable).display
        footer = {active.binding.description for active in screen.active_bindings.values()
                  if active.binding.show}
        assert "Delete" not in footer and "Open" not in footer
        await pilot.press("enter")
        await pilot.pause()
        assert app.chosen is NOTHING and app.screen is screen


async def test_an_unreadable_history_is_said_on_the_screen(home):
    (home / "history.sqlite3").write_text("these are not the games you are looking for\n"
                                          * 100)
    app = GamesApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot, app)
        said = message(screen)
        assert said.startswith("The game history cannot be read: ")
        assert "is not a game history (not a SQLite database)" in said
        assert screen.query_one("#games-message").has_class("error")
        assert not screen.query_one(GameTable).display
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.chosen is not NOTHING)
        assert app.chosen is None
    assert (home / "history.sqlite3").read_text().startswith("these are not")


@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_the_screen_fits(ids, size):
    app = GamesApp()
    async with app.run_test(size=size) as pilot:
        screen = await started(pilot, app)
        table = screen.query_one(GameTable)
        assert table.virtual_size.width <= table.scrollable_content_region.width
        assert table.region.height >= 5 + 1  # every game and the header
        for widget in ("#games-game", "#games-agent", "#games-result", "#games-detail",
                       "Footer"):
            region = screen.query_one(widget).region
            assert region.right <= size[0] and region.bottom <= size[1]
            assert region.width > 0 and region.height > 0


async def test_a_long_history_lists_the_newest(ids, monkeypatch):
    monkeypatch.setattr("plyground.tui.screens.games.SHOWN", 3)
    app = GamesApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot, app)
        assert shown_ids(screen) == ids[:1:-1]
        assert message(screen) == ("The newest 3 games are listed: the filters find "
                                   "older ones.")


@pytest.mark.parametrize("size", [(80, 24), SIZE], ids=["80x24", "160x50"])
def test_how_the_screen_looks(ids, size, snap_compare):
    """Looked at before it was accepted: the narrow table cuts the long cells with …,
    the line under it gives the highlighted game in full."""
    assert snap_compare(GamesApp(), terminal_size=size, press=["down"])
