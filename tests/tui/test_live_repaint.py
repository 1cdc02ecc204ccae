"""What keeps the screen quick to answer a key while an agent searches (issue 18): the
live views repaint at most every LIVE_INTERVAL, whatever the engine's pace, and lose no
event; a board repaints only for what it draws; the app's long-lived objects are left
out of the garbage collector's full collections."""
from __future__ import annotations

import gc
import time

from plyground.core.engine import EngineEvents
from plyground.tui.screens.game import LIVE_INTERVAL, GameScreen
from plyground.tui.widgets.inspector import Inspector
from plyground.tui.widgets.inspector.mcts_view import MctsView
from tests.tui.helpers import SIZE, make_app, settled

TIMER_SLACK = 0.01  # a timer may fire this much before its time


async def test_live_events_reach_the_views_in_batches_and_none_is_lost(monkeypatch):
    sent: list[list] = []  # the move search's events, batch by batch, as the engine sent them
    fed: list[tuple[float, list]] = []  # (when, events) handed to the inspector
    on_engine_update, feed = GameScreen.on_engine_update, Inspector.feed

    def record_sent(screen, message):
        update, search = message.update, screen.search
        if isinstance(update, EngineEvents) and search is not None \
                and update.search_id == search.search_id:
            sent.append(list(update.events))
        on_engine_update(screen, message)

    def record_fed(inspector, events):
        fed.append((time.monotonic(), list(events)))
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
    shown: list[tuple[float, bool, bool]] = []  # (when, summary agrees, heat agrees)
    show_heat = GameScreen.show_heat

    def checked(screen, events):
        show_heat(screen, events)
        snapshot = screen.inspector.query_one(MctsView).snapshot
        total = sum(stat.visits for stat in snapshot.stats)
        shown.append((time.monotonic(),
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


async def test_a_board_repaints_for_a_searchs_shares_only_where_it_draws_them():
    renders = {"connect4": 0, "cephalopod": 0}
    for game_id in renders:
        app = make_app(game_id, sides=("human", "human"))
        async with app.run_test(size=SIZE) as pilot:
            board = app.game_screen.board
            move = board.state.moves()[0]
            await pilot.pause()
            render = board.render

            def counted(render=render, game_id=game_id):
                renders[game_id] += 1
                return render()

            board.render = counted
            board.show_heat({move: 0.5})
            await pilot.pause()
            if game_id == "connect4":  # no shares drawn: nothing to repaint
                assert renders[game_id] == 0
                board.show_marks([move])  # a hint marks its column ...
                await pilot.pause()
                assert renders[game_id] == 1
                board.show_heat({})  # ... and a new search's heat clears it
                await pilot.pause()
                assert renders[game_id] == 2 and board.heat == {} and not board.marked
    assert renders["cephalopod"] == 1  # the cell writes its share


async def test_the_apps_long_lived_objects_are_frozen_while_it_runs():
    gc.unfreeze()
    app = make_app(sides=("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
