"""The live MCTS table: sorted by visits, re-sorted by keys and header clicks, the best
and the played move marked. Expected orders come from the snapshot's own stats (a
stable sort: ties keep the rules' order)."""
from __future__ import annotations

from plyground.tui.widgets.inspector.mcts_view import MctsView
from tests.tui.helpers import SIZE, make_app, settled

SIDES = ("human", "mcts:iterations=2000,seed=1")


async def searched(pilot, app) -> MctsView:
    await settled(pilot, app)
    return app.game_screen.inspector.query_one(MctsView)


def shown(table: MctsView) -> list[str]:
    """The move column as drawn, top to bottom (marks included)."""
    return [table.get_row_at(row)[0].plain for row in range(table.row_count)]


def expected(table: MctsView, key=None, reverse=False) -> list[str]:
    """The labels in the order a stable sort of the stats by `key` gives."""
    stats = table.snapshot.stats
    ordered = sorted(stats, key=key, reverse=reverse) if key else \
        list(reversed(stats)) if reverse else list(stats)
    return [table.labels[stat.move] for stat in ordered]


def labels(table: MctsView) -> list[str]:
    return [text[3:] for text in shown(table)]


def header(table: MctsView, column: str) -> str:
    """A column's label, checked against the header as drawn."""
    label = table.columns[column].label.plain
    assert label in table.render_line(0).text
    return label


async def test_rows_are_sorted_by_visits_and_the_best_and_played_moves_are_marked():
    app = make_app(sides=SIDES, position="44536")
    async with app.run_test(size=SIZE) as pilot:
        table = await searched(pilot, app)
        stats = table.snapshot.stats
        assert len(stats) == table.row_count == 7
        assert labels(table) == expected(table, key=lambda s: -s.visits)
        visits = [int(table.get_row_at(row)[1].plain.replace(",", ""))
                  for row in range(table.row_count)]
        assert visits == sorted(visits, reverse=True)
        assert header(table, "visits") == "Visits ▼" and header(table, "mean") == "Mean"
        # MCTS plays its most visited move: the top row carries both marks.
        played = app.game_screen.match.moves[-1]
        best = max(stats, key=lambda s: s.visits)
        assert played == best.move == table.moves[0]
        rows = shown(table)
        assert rows[0] == f"★✓ {table.labels[played]}"
        assert all(not row.startswith(("★", " ✓")) for row in rows[1:])
        # Another played move: each mark stays on its own row.
        other = table.moves[1]
        table.played(other)
        await pilot.pause()
        assert shown(table)[:2] == [f"★  {table.labels[played]}",
                                    f" ✓ {table.labels[other]}"]


async def test_keys_sort_by_each_column_and_again_reverse():
    app = make_app(sides=SIDES, position="44536")
    async with app.run_test(size=SIZE) as pilot:
        table = await searched(pilot, app)
        table.focus()
        await pilot.pause()
        footer = {b.binding.description for b in app.screen.active_bindings.values()}
        assert {"Sort by visits", "Sort by mean", "Sort by UCT",
                "Sort in move order"} <= footer
        # With this seed the mean's order is the visits' order, so "m" after "v"
        # changes only the header: it must be redrawn all the same.
        assert expected(table, lambda s: -s.mean) == expected(table, lambda s: -s.visits)
        steps = [
            ("c", lambda s: -s.uct, False, "uct", "UCT ▼"),
            ("o", None, False, "move", "Move ▲"),
            ("o", None, True, "move", "Move ▼"),
            ("v", lambda s: -s.visits, False, "visits", "Visits ▼"),
            ("m", lambda s: -s.mean, False, "mean", "Mean ▼"),
            ("m", lambda s: s.mean, False, "mean", "Mean ▲"),
            ("v", lambda s: -s.visits, False, "visits", "Visits ▼"),
            ("v", lambda s: s.visits, False, "visits", "Visits ▲"),
        ]
        for key, sort_key, reverse, column, label in steps:
            await pilot.press(key)
            assert labels(table) == expected(table, sort_key, reverse), key
            assert header(table, column) == label
            assert sum("▲" in header(table, c) or "▼" in header(table, c)
                       for c in ("move", "visits", "mean", "uct")) == 1


async def test_a_header_click_sorts_by_that_column_and_again_reverses():
    app = make_app(sides=SIDES, position="44536")
    async with app.run_test(size=SIZE) as pilot:
        table = await searched(pilot, app)

        async def click(column: str) -> None:
            x = 1
            for each in table.ordered_columns:
                if each.key == column:
                    break
                x += each.get_render_width(table)
            await pilot.click(MctsView, offset=(x, 0))
            await pilot.pause()

        await click("mean")
        assert labels(table) == expected(table, lambda s: -s.mean)
        await click("mean")
        assert labels(table) == expected(table, lambda s: s.mean)
        await click("move")
        assert labels(table) == expected(table)
        await click("share")  # the bar and the share sort by visits too
        assert labels(table) == expected(table, lambda s: -s.visits)
        assert header(table, "visits") == "Visits ▼"


async def test_a_narrowing_table_keeps_move_visits_and_mean_and_drops_whole_columns():
    """As the terminal narrows, the table drops whole columns in KEEP's reverse order
    (the bar, then UCT, then the share), then writes moves in notation and closes its
    padding so that move, visits and mean stay; it never scrolls sideways."""
    from plyground.tui.widgets.inspector.mcts_view import KEEP, MUST
    from tests.tui.helpers import wait_until

    app = make_app("quarto", ("human", "mcts:iterations=2000,seed=3,uct=plain"),
                   "8.a./.5c./3..6/.... f")
    async with app.run_test(size=SIZE) as pilot:
        table = await searched(pilot, app)
        layouts = []
        for width in (160, 140, 120, 110, 100, 90, 80):
            await pilot.resize_terminal(width, SIZE[1])
            await wait_until(pilot, lambda: table.settled)
            layouts.append(table.drawn_layout)
            assert table.virtual_size.width <= table.size.width  # no sideways scroll
            assert all(key in table.shown for key in MUST), (width, table.drawn_layout,
                                                            table.size.width)
            shown_row = table.get_row_at(0)
            assert len(shown_row) == len(table.shown)
        assert layouts[0] == (("move", "visits", "bar", "share", "mean", "uct"), False, 1)
        assert layouts[-1][1:] == (True, 0)  # notation, no padding at 80 columns
        dropped = []
        for layout in layouts:
            for key in KEEP[::-1]:
                if key not in layout[0] and key not in dropped:
                    dropped.append(key)
        assert dropped == [key for key in KEEP[::-1] if key not in layouts[-1][0]]
        # moves in notation once descriptions no longer fit
        assert table.get_row_at(0)[0].plain[3:] == app.game_screen.match.game.format_move(
            table.moves[0])
