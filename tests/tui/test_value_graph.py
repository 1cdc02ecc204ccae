"""The value graph (widgets/value_graph.py) and the block chart it draws
(value_chart.py): extremes fill their half, the zero line, the marked ply."""
from __future__ import annotations

from textual.app import App

from plyground.tui.value_chart import chart, marked_columns
from plyground.tui.widgets.value_graph import ValueGraph


def test_the_chart_fills_up_for_the_first_side_and_down_for_the_second():
    rows = chart([1.0, -1.0, 0.0, 0.5, None, -0.25], 6, half=2)
    assert rows == ["█     ",
                    "█  █  ",
                    "────·─",  # no value: a dot on the line
                    " █   ▀",
                    " █    "]


def test_plies_spread_over_the_width_or_share_a_column():
    assert chart([1.0, -1.0], 4, half=1) == ["██  ", "────", "  ██"]
    assert chart([1.0, 0.0, -1.0, 0.0], 2, half=1) == ["▄ ", "──", " ▀"]  # means
    assert marked_columns(2, 4, 1) == {2, 3}
    assert marked_columns(4, 2, 3) == {1} and marked_columns(4, 2, None) == set()


class GraphApp(App):
    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[int] = []

    def compose(self):
        yield ValueGraph(id="graph")

    def on_value_graph_chosen(self, message: ValueGraph.Chosen) -> None:
        self.chosen.append(message.ply)


async def test_the_widget_draws_the_values_with_the_ply_on_the_board_marked():
    app = GraphApp()
    async with app.run_test(size=(20, 7)) as pilot:
        graph = app.query_one(ValueGraph)
        graph.show([1.0, -1.0, 0.0, 0.5], current=1)
        await pilot.pause()
        assert graph.size == (20, 5)  # a few rows high, as wide as given
        text = graph.render()
        rows = text.plain.splitlines()
        assert rows == ["█████│││││          ",
                        "█████│││││     █████",
                        "─────┼┼┼┼┼──────────",
                        "     █████          ",
                        "     █████          "]
        marker = graph.get_component_rich_style("value-graph--marker")
        marked = {span.start for span in text.spans if span.style == marker}
        line = len(rows[0]) + 1  # each row ends with a newline
        assert {column % line for column in marked} == set(range(5, 10))
        graph.show([1.0, -1.0, 0.0, 0.5], current=None)
        await pilot.pause()
        assert "│" not in graph.render().plain


async def test_a_click_chooses_its_ply():
    app = GraphApp()
    async with app.run_test(size=(20, 7)) as pilot:
        app.query_one(ValueGraph).show([0.0, 0.5, -0.5, 1.0])
        await pilot.click(ValueGraph, offset=(12, 2))  # the third ply's columns
        await pilot.pause()
    assert app.chosen == [2]
