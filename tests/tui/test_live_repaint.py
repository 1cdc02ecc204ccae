"""What keeps the screen quick to answer a key while an agent searches (issue 18): the
live views repaint at most every LIVE_INTERVAL, whatever the engine's pace, and lose no
event; a board repaints only for what it draws; the app's long-lived objects are left
out of the garbage collector's full collections."""
from __future__ import annotations

import gc
import os
import subprocess
import sys

from plyground.core.play.worker import EngineEvents
from plyground.tui.engine_update import SEARCH
from plyground.tui.screens.game import GameScreen
from plyground.tui.search_driver import LIVE_INTERVAL
from plyground.tui.widgets.inspector import Inspector
from plyground.tui.widgets.inspector.mcts_view import MctsView
from tests.tui.helpers import SIZE, make_app, settled

TIMER_SLACK = 0.01  # a timer may fire this much before its time


async def test_live_events_reach_the_views_in_batches_and_none_is_lost(monkeypatch):
    sent: list[list] = []  # the move search's events, batch by batch, as the engine sent them
    fed: list[tuple[float, list]] = []  # (when the screen took them to show, events) handed to the inspector
    on_engine_update, feed = GameScreen.on_engine_update, Inspector.feed

    def record_sent(screen, message):
        update, search = message.update, screen.search
        if message.source == SEARCH and isinstance(update, EngineEvents) \
                and search is not None and update.search_id == search.search_id:
            sent.append(list(update.events))
        on_engine_update(screen, message)

    def record_fed(inspector, events):
        fed.append((inspector.screen.driver.live_shown_at, list(events)))
        feed(inspector, events)

    monkeypatch.setattr(GameScreen, "on_engine_update", record_sent)
    monkeypatch.setattr(Inspector, "feed", record_fed)
    # the real clock: a second's search sends about twenty batches
    app = make_app(sides=("human", "mcts:time=1,seed=1"), position="44536", clock="real")
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot, app)
        assert app.game_screen.match.moves[-1] is not None  # MCTS has played
    assert len(fed) >= 2, "the search ended before its live views were shown twice"
    assert [e for _, events in fed for e in events] == [e for batch in sent for e in batch]
    # the last batch goes with the decision, at once; every other waits its turn
    gaps = [later - earlier for (earlier, _), (later, _) in zip(fed, fed[1:-1])]
    assert all(gap >= LIVE_INTERVAL - TIMER_SLACK for gap in gaps), gaps


async def test_the_summary_table_and_heat_map_show_one_snapshot(monkeypatch):
    """A large table (Cephalopod's 25 first moves) is painted less often than a small
    one; the summary and the heat map wait with it, never ahead of it."""
    shown: list[tuple[float, bool, bool]] = []  # (when taken to show, summary agrees, heat agrees)
    show_heat = GameScreen.show_heat

    def checked(screen, events):
        show_heat(screen, events)
        snapshot = screen.inspector.query_one(MctsView).snapshot
        total = sum(stat.visits for stat in snapshot.stats)
        shown.append((screen.driver.live_shown_at,
                      f"{snapshot.iterations:,} iterations" in screen.inspector.summary.plain,
                      screen.board.heat == {stat.move: stat.visits / total
                                            for stat in snapshot.stats}))

    monkeypatch.setattr(GameScreen, "show_heat", checked)
    app = make_app("cephalopod", sides=("mcts:time=2,seed=1", "human"), clock="real")
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot, app)
        interval = app.game_screen.inspector.query_one(MctsView).repaint_interval
    assert interval > LIVE_INTERVAL  # a table this large asks for more time
    assert len(shown) >= 2 and all(summary and heat for _, summary, heat in shown), shown
    gaps = [later - earlier for (earlier, *_), (later, *_) in zip(shown, shown[1:-1])]
    assert all(gap >= interval - TIMER_SLACK for gap in gaps), gaps


async def test_a_board_repaints_for_a_searchs_shares_only_when_its_drawing_changes():
    repaints = {"connect4": 0, "cephalopod": 0}
    for game_id in repaints:
        app = make_app(game_id, sides=("human", "human"))
        async with app.run_test(size=SIZE) as pilot:
            board = app.game_screen.board
            move = board.state.moves()[0]
            await pilot.pause()
            refresh = board.refresh

            def counted(*args, refresh=refresh, game_id=game_id, **kwargs):
                repaints[game_id] += 1
                return refresh(*args, **kwargs)

            board.refresh = counted
            board.show_heat({move: 0.5})
            board.show_heat({move: 0.501})  # the same whole percent: the same drawing
            if game_id == "connect4":  # no shares drawn: nothing to repaint
                assert repaints[game_id] == 0
                board.show_marks([move])  # a hint marks its column ...
                assert repaints[game_id] == 1
                board.show_heat({})  # ... and a new search's heat clears it
                assert repaints[game_id] == 2 and board.heat == {} and not board.marked
            else:
                assert repaints[game_id] == 1  # the cell writes its share: 50%
            board.refresh = refresh
    assert set(repaints.values()) == {1, 2}  # (each game was checked)


def test_screens_may_paint_120_frames_a_second_unless_textual_is_told_otherwise():
    program = ("import plyground.tui.app, textual.screen; plyground.tui.app.create_app(); "
               "print(round(1 / textual.screen.UPDATE_PERIOD))")
    environ = {key: value for key, value in os.environ.items() if key != "TEXTUAL_FPS"}
    frames = [subprocess.run([sys.executable, "-c", program], env=env, check=True,
                             capture_output=True, text=True).stdout.strip()
              for env in (environ, {**environ, "TEXTUAL_FPS": "30"})]
    assert frames == ["120", "30"]


async def test_the_apps_long_lived_objects_are_frozen_while_it_runs():
    gc.unfreeze()
    app = make_app(sides=("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


async def test_a_boards_sums_by_cell_follow_each_new_heat():
    app = make_app("cephalopod", sides=("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        board = app.game_screen.board
        first, second = board.state.moves()[:2]
        board.show_heat({first: 0.25, second: 0.75})
        assert board.heat_by("cell") == {first.cell: 0.25, second.cell: 0.75}
        board.show_heat({first: 1.0})  # worked out again, not the last heat's sums
        assert board.heat_by("cell") == {first.cell: 1.0}
        board.show_marks([second])
        assert board.heat_by("cell") == {second.cell: 1.0}
