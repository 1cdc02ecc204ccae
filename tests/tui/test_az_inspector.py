"""The inspector for an `az` search (PUCT guided by a network), at 160×50 and 80×24:
each root move's P, N, Q and U, the network's value at the root beside the search's on
the one % scale, the board's heat as visits or the network's prior (x), and step mode
through its simulations (selection, the leaf's network evaluation, the backup), checked
to repeat the decision. Expected figures come from the network itself (its evaluator
on the position) and from PUCT's formula, not from the search's own events."""
from __future__ import annotations

import math

import pytest

from plyground.core import parse_game
from plyground.core.agents.learned.net import Net, NetConfig, save_net
from plyground.core.agents.learned.selfplay import evaluator
from plyground.core.search.events import PuctSnapshot
from plyground.tui.widgets.inspector.mcts_view import MctsView

from .helpers import SIZE, SMALL, make_app, record_notifications, settled, wait_until

C = 1.5  # the az agent's exploration constant, given in its spec


@pytest.fixture
def tiny_net(tmp_path):
    """A seeded, untrained tic-tac-toe network saved to a file, with its evaluator."""
    game = parse_game("tictactoe")
    encoding = game.encoding()
    net = Net.new(NetConfig(encoding.shape, encoding.policy_size, channels=8, blocks=1),
                  5)
    path = tmp_path / "ttt.npz"
    save_net(net, path, {"game": game.spec})
    return path, evaluator(net, game)


def az_app(path, sims=40):
    return make_app("tictactoe", ("human", f"az:net={path},sims={sims},c={C},seed=3"))


async def after_b2(pilot, app):
    """X plays b2; az (O) searches and plays: its table, settled."""
    await pilot.press("5")
    await settled(pilot, app)
    return app.game_screen.inspector.query_one(MctsView)


def cells(table: MctsView) -> dict:
    """Each row's cells by column key, by the move's row label."""
    rows = {}
    for row, move in enumerate(table.moves):
        rows[move] = dict(zip(table.shown, (c.plain if hasattr(c, "plain") else str(c)
                                            for c in table.get_row_at(row))))
    return rows


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["160x50", "80x24"])
async def test_the_table_shows_p_n_q_u_and_the_value_line(tiny_net, size):
    path, evaluate = tiny_net
    app = az_app(path)
    async with app.run_test(size=size) as pilot:
        table = await after_b2(pilot, app)
        snapshot = table.snapshot
        assert isinstance(snapshot, PuctSnapshot)
        root = app.game_screen.match.states[1]
        priors, value = evaluate([root])[0]
        # P, N, Q and U at both sizes; the bar and the share only where there is room
        assert {"move", "visits", "prior", "mean", "uct"} <= set(table.shown)
        if size == SIZE:
            assert table.shown == ("move", "visits", "bar", "share", "prior", "mean",
                                   "uct")
            assert [str(c.label).split(" ")[0] for c in table.ordered_columns] == \
                ["Move", "N", "Share", "", "P", "Q", "U"]
        assert table.virtual_size.width <= table.size.width  # nothing cut or scrolled
        rows = cells(table)
        by_move = {stat.move: stat for stat in snapshot.stats}
        root_visits = 1 + sum(stat.visits for stat in snapshot.stats)
        for move, prior in zip(root.moves(), priors):
            stat, row = by_move[move], rows[move]
            assert row["visits"] == f"{stat.visits:,}"
            assert row["mean"] == f"{50 * (stat.q + 1):.1f}%"
            assert row["prior"] == f"{100 * prior:.1f}%"
            u = C * prior * math.sqrt(root_visits) / (1 + stat.visits)
            assert row["uct"] == f"{50 * u:+,.1f}"
        summary = app.game_screen.inspector.summary.plain
        best = max(snapshot.stats, key=lambda s: (s.visits, s.prior))
        assert f"network {50 * (value + 1):.1f}% · search {50 * (best.q + 1):.1f}% " \
               "for O" in summary, summary
        assert "U = c·P·√N/(1+n)" in summary and "no playouts" in summary
        assert "UCT = mean" not in summary and "playout results" not in summary


async def test_with_no_search_the_summary_and_the_star_name_the_move_played(tiny_net):
    """sims=0 plays the highest prior: no move has a visit, and the summary's best and
    the table's ★ are that move, not the first in the rules' order."""
    path, evaluate = tiny_net
    app = az_app(path, sims=0)
    async with app.run_test(size=SIZE) as pilot:
        table = await after_b2(pilot, app)
        root = app.game_screen.match.states[1]
        priors, _ = evaluate([root])[0]
        top = root.moves()[max(range(len(priors)), key=priors.__getitem__)]
        assert top != root.moves()[0]  # else the test could not tell
        assert app.game_screen.match.states[2] == root.play(top)
        label = root.game.format_move(top)
        summary = app.game_screen.inspector.summary.plain
        assert f"best {label} (" in summary, summary
        starred = [move for row, move in enumerate(table.moves)
                   if "★" in str(table.get_row_at(row)[0])]
        assert starred == [top]


async def test_x_shows_the_prior_or_the_visits_as_heat(tiny_net):
    path, evaluate = tiny_net
    app = az_app(path)
    async with app.run_test(size=SIZE) as pilot:
        table = await after_b2(pilot, app)
        board = app.game_screen.board
        visits = {s.move: s.visits for s in table.snapshot.stats}
        total = sum(visits.values())
        assert board.heat == {move: n / total for move, n in visits.items()}
        root = app.game_screen.match.states[1]
        priors = dict(zip(root.moves(), evaluate([root])[0][0]))
        seen = record_notifications(app)
        await pilot.press("x")
        assert board.heat.keys() == priors.keys()
        assert all(board.heat[m] == pytest.approx(p, abs=1e-6) for m, p in priors.items())
        assert "prior" in seen[-1]
        await pilot.press("x")
        assert board.heat == {move: n / total for move, n in visits.items()}
        assert "visits" in seen[-1]


async def test_x_without_a_network_search_says_so_and_changes_nothing():
    app = make_app("tictactoe", ("human", "mcts:iterations=200,seed=3"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        await settled(pilot, app)
        board = app.game_screen.board
        heat = dict(board.heat)
        assert heat
        seen = record_notifications(app)
        await pilot.press("x")
        assert board.heat == heat and board.heat_source == "visits"
        assert len(seen) == 1 and "network-guided search (az)" in seen[0], seen


def step_text(app) -> str:
    return str(app.game_screen.inspector.query_one("#step-text").render())


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["160x50", "80x24"])
async def test_step_mode_walks_selection_evaluation_and_backup(tiny_net, size):
    path, evaluate = tiny_net
    app = az_app(path, sims=12)
    async with app.run_test(size=size) as pilot:
        await after_b2(pilot, app)
        screen = app.game_screen
        await pilot.press("s")
        await wait_until(pilot, lambda: screen.inspector.stepping, timeout=60)
        view = screen.inspector.query_one("StepView")
        text = step_text(app)
        result = screen.driver.last.result
        assert f"✓ matches the decision: move {screen.match.game.format_move(result.best_move)}" \
               in text, text
        assert "simulation 1 · phase 1 of 3: selection" in text, text
        root = view.root_state
        priors = dict(zip(root.moves(), evaluate([root])[0][0]))
        first = view.replay.events[0]
        step = first.steps[0]
        assert f"P {100 * priors[step.move]:.1f}%  N 0" in text, text
        phases = {}
        while view.index < len(view.replay) - 1 and len(phases) < 3:
            event = view.replay.events[view.index]
            phase = view.replay.frame(view.index).phase
            phases.setdefault(phase, (view.index, event, step_text(app)))
            await pilot.press("right")
        assert set(phases) == {"selection", "evaluation", "backup"}
        index, event, text = phases["evaluation"]
        leaf = view.state_at(event.path)
        if not event.terminal:
            value = evaluate([leaf])[0][1]
            side = screen.match.game.side_labels[leaf.to_move]
            assert f"the network's value {50 * (value + 1):.1f}% for {side}" in text, text
            assert "its priors:" in text
        index, event, text = phases["backup"]
        assert f"Backup   {50 * (event.value + 1):.1f}% for O at the root" in text, text
        view.go(index + 1)
        await pilot.press("left")
        assert view.index == index and step_text(app) == text
