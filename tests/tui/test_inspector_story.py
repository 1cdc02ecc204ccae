"""The inspector tells one story: the summary, the tree's ★ row, `analyze --json` and
step mode all read the deciding search, in every game."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from plyground.core import get_game
from plyground.core.values import Score
from plyground.tui import cli
from tests.tui.helpers import SIZE, make_app, settled, wait_until

# (game id, options, position, agent) with the agent's side to move
CASES = {
    "connect4": ("connect4", {}, "4453", "alphabeta:depth=7"),
    "boom": ("boom", {}, "1234567234535", "alphabeta:depth=5"),
    "cephalopod": ("cephalopod", {"rows": 3, "cols": 3}, ".r6./b2b2b2/r1b6r1 r",
                   "alphabeta:depth=4"),
    "quarto": ("quarto", {}, "8.a./.5c./3..6/.... f", "alphabeta:depth=4"),
}


def case_app(name: str, agent: str | None = None, **settings):
    game_id, options, position, default = CASES[name]
    game = get_game(game_id, **options)
    side = game.parse_position(position).to_move
    sides = ["human", "human"]
    sides[side] = agent or default
    return game, make_app(game_id, tuple(sides), position, options=options, **settings)


def summary(app) -> str:
    return str(app.game_screen.inspector.query_one("#inspector-summary").render())


def star_row(app):
    """(move, value text, depth text) of the tree's ★ row."""
    tree = app.game_screen.inspector.query_one("LiveTree")
    starred = [node for node in tree.root.children if "★" in str(node.label)]
    assert len(starred) == 1, [str(node.label) for node in tree.root.children]
    parts = [part.strip() for part in str(starred[0].label).split("   ")]
    return starred[0].data[0], parts[1], parts[2]


def analyze_json(game, position: str, agent: str) -> dict:
    result = CliRunner().invoke(cli.app, ["analyze", game.spec, position, "--agent", agent,
                                          "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize("name", CASES)
async def test_summary_star_row_and_analyze_give_one_value(name):
    game, app = case_app(name)
    position = CASES[name][2]
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot, app)
        decision = app.game_screen.last.result
        move, value, depth = star_row(app)
        text = summary(app)
    report = analyze_json(game, position, CASES[name][3])
    state = game.parse_position(position)
    assert move == decision.best_move and report["best_move"] == game.format_move(move)
    assert value == report["description"] == str(Score(report["value"], state.ply))
    assert f"played {game.format_move(move)} ({value}) · {depth}" in text, text
    assert depth == f"depth {report['depth']}"


async def test_a_deeper_iteration_cut_short_is_only_counted():
    """A timed search (the fake clock makes it repeatable) stops during a depth: the
    decision, the ★ row and the summary are the last complete depth's, and the cut
    iteration appears only as a count of root moves searched."""
    game, app = case_app("connect4", "alphabeta:time=0.3")
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot, app)
        decision = app.game_screen.last.result
        assert decision.stopped
        move, value, depth = star_row(app)
        text = summary(app)
        tree = app.game_screen.inspector.query_one("LiveTree")
        root = str(tree.root.label)
        rows = [str(node.label) for node in tree.root.children]
    state = game.parse_position(CASES["connect4"][2])
    assert (move, value, depth) == (decision.best_move,
                                    str(Score(decision.value, state.ply)),
                                    f"depth {decision.depth}")
    assert f"stopped during depth {decision.depth + 1}:" in text
    assert f"depth {decision.depth + 1} cut short" in root
    assert all(f"depth {decision.depth}" in row for row in rows), rows
    assert not any("not searched yet" in row for row in rows), rows


@pytest.mark.parametrize("name", CASES)
async def test_step_mode_replays_the_decision_in_every_game(name):
    game, app = case_app(name)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await settled(pilot, app)
        before = summary(app)
        decision = screen.last
        await pilot.press("s")
        await wait_until(pilot, lambda: screen.inspector.stepping)
        view = screen.inspector.query_one("StepView")
        first = str(view.query_one("#step-text").render())
        side = game.side_labels[decision.state.to_move]
        assert "✓ matches the decision" in first, first
        assert f"{decision.result.work:,} nodes" in first
        assert f"Node     root   ({side} to move" in first, first
        await pilot.press("right")
        entered = view.replay.events[1]
        child = decision.state.play(entered.path[0])
        second = str(view.query_one("#step-text").render())
        assert f"({game.side_labels[child.to_move]} to move" in second, second
        await pilot.press("right", "left")
        assert view.index == 1
        assert "1 plies" not in second and "999" not in second
        await pilot.press("escape")
        assert not screen.inspector.stepping
        assert summary(app) == before  # the decision again, not the replay
        assert screen.inspector.query_one("ContentSwitcher").current == "live-tree"


async def test_a_timed_mcts_decision_is_replayed_with_its_iterations_and_seed():
    game, app = case_app("connect4", "mcts:time=0.02,seed=3")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await settled(pilot, app)
        work = screen.last.result.work
        await pilot.press("s")
        await wait_until(pilot, lambda: screen.inspector.stepping)
        view = screen.inspector.query_one("StepView")
        text = str(view.query_one("#step-text").render())
        assert f"✓ matches the decision" in text and f"{work:,} iterations" in text, text


async def test_a_quicker_replay_is_labelled_as_one():
    """d, while the deciding search is being replayed, replays a shallower depth and
    checks it against the decision's own iteration at that depth."""
    game, app = case_app("connect4", "alphabeta:time=0.5")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        await settled(pilot, app)
        decision = screen.last
        await pilot.press("s")
        await wait_until(pilot, lambda: screen.search is not None)
        assert "Recording the deciding search" in summary(app)
        await pilot.press("d")
        await wait_until(pilot, lambda: screen.inspector.stepping)
        text = str(screen.inspector.query_one("#step-text").render())
        quick = max(event.depth for event in decision.iterations
                    if event.nodes <= 60_000)
        assert f"a depth-{quick} replay of a depth-{decision.result.depth} decision" \
            in text, text
        assert "✓ matches the decision's own iteration at that depth" in text, text


async def test_the_perfect_agents_exact_values_fit_one_row():
    app = make_app(sides=("perfect:time=2", "human"),
                   position="225257625346224411156336534367135144")
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot, app)
        inspector = app.game_screen.inspector
        row = str(inspector.query_one("#no-search").render()).strip()
        assert inspector.query_one("ContentSwitcher").current == "no-search"
        assert "\n" not in row and len(row) <= 100, row
        assert "not searched" not in row and "exact: solved" in summary(app)
        decision = app.game_screen.last.result
        assert len(row.split("  ")) == len(decision.move_values)


async def test_a_minimax_stopped_by_its_clock_says_which_moves_it_reached():
    """Minimax has one iteration: stopped, it plays the best move searched so far, and
    every row says whether its value was reached before the clock ran out."""
    game, app = case_app("connect4", "minimax:depth=6,time=0.05")
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot, app)
        decision = app.game_screen.last.result
        tree = app.game_screen.inspector.query_one("LiveTree")
        rows = {node.data[0]: str(node.label) for node in tree.root.children}
        text = summary(app)
    assert decision.stopped and decision.note in text
    searched = {mv.move for mv in decision.move_values}
    assert searched and len(searched) < len(rows)
    assert all(("cut short" in row) == (move in searched) for move, row in rows.items())
    assert all("not reached" in row for move, row in rows.items() if move not in searched)
    assert "★" in rows[decision.best_move]
    assert not any("not searched yet" in row for row in rows.values())
