"""Each header of the inspector's MCTS and az tables stands over its own column as the
column's cells do: right-aligned over numbers (Visits, Mean, UCT; N, P, Q, U), so that
no header sits between two columns of figures. Checked on the table as drawn."""
from __future__ import annotations

import pytest
from rich.cells import cell_len

from plyground.core import parse_game
from plyground.core.agents.learned.net import Net, NetConfig, save_net
from plyground.tui.widgets.inspector.mcts_view import MctsView

from .helpers import SIZE, SMALL, make_app, settled

NUMBERS = {"visits", "share", "prior", "mean", "uct"}


def drawn_columns(table: MctsView) -> dict[str, tuple[str, str]]:
    """Each numeric column's header and first row as drawn, cut at the column's edges
    (padding included)."""
    header, row = table.render_line(0).text, table.render_line(1).text
    found, x = {}, 0
    for column in table.ordered_columns:
        width = column.get_render_width(table)
        if column.key.value in NUMBERS:
            found[column.key.value] = (header[x:x + width], row[x:x + width])
        x += width
    return found


def assert_right_aligned(table: MctsView) -> None:
    columns = drawn_columns(table)
    assert {"visits", "mean"} <= set(columns), columns
    for key, (header, cell) in columns.items():
        if not header.strip():
            continue  # the share under the bar's "Share of visits"
        # the header's last character sits over the cell's last digit
        assert cell_len(header.rstrip()) == cell_len(cell.rstrip()), (key, header, cell)


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["160x50", "80x24"])
async def test_the_mcts_tables_headers_stand_over_their_numbers(size):
    app = make_app(sides=("human", "mcts:iterations=2000,seed=1"), position="44536")
    async with app.run_test(size=size) as pilot:
        await settled(pilot, app)
        table = app.game_screen.inspector.query_one(MctsView)
        assert_right_aligned(table)
        assert set(drawn_columns(table)) >= {"visits", "mean"}


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["160x50", "80x24"])
async def test_the_az_tables_p_n_q_u_stand_over_their_numbers(tmp_path, size):
    game = parse_game("tictactoe")
    encoding = game.encoding()
    net = Net.new(NetConfig(encoding.shape, encoding.policy_size, channels=8, blocks=1), 5)
    path = tmp_path / "ttt.npz"
    save_net(net, path, {"game": game.spec})
    app = make_app("tictactoe", ("human", f"az:net={path},sims=40,seed=3"))
    async with app.run_test(size=size) as pilot:
        await pilot.press("5")
        await settled(pilot, app)
        table = app.game_screen.inspector.query_one(MctsView)
        assert set(drawn_columns(table)) >= {"visits", "prior", "mean", "uct"}
        assert_right_aligned(table)
