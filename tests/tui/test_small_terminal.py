"""What matters stays on screen at 80×24 (and at 160×50): every row of the inspector keeps
its value and depth, the footer shows whole keys and always Review, Save, Setup and
Help, and the paused line is shown whole."""
from __future__ import annotations

import re
from contextlib import asynccontextmanager

import pytest
from rich.text import Text
from textual.widgets import Footer

from plyground.core import get_game
from plyground.tui.screens.help import keys_text
from plyground.tui.widgets.inspector.live_tree import LiveTree
from plyground.tui.widgets.inspector.mcts_view import MctsView, mean_text
from tests.tui.helpers import SIZE, SMALL, make_app, settled, wait_until

# each game from a position whose moves have long descriptions (captures, placing and
# giving)
POSITIONS = {
    "connect4": "44536",
    "boom": "1234567234535",
    "cephalopod": ".r2.../b1r1.../..r3../....b2/..... b",
    "quarto": "8.a./.5c./3..6/.... f",
    "tictactoe": "b2 a1",
}
INSPECTORS = {"alphabeta": "alphabeta:depth=3", "mcts": "mcts:iterations=1000,seed=1"}
# a value as the tree writes it: `+12`, `≤ +11`, `-3`, `0`, `win in 3`, `loss in ≤2`
VALUE = r"(≤ |≥ )?([+-]\d+|0|win in ≤?\d+|loss in ≤?\d+|draw)"


def sides(game: str, agent: str) -> tuple[str, str]:
    """The agent plays the side to move in the game's position."""
    if get_game(game).parse_position(POSITIONS[game]).to_move:
        return "human", agent
    return agent, "human"


BOTH_SIZES = pytest.mark.parametrize("size", [SMALL, SIZE], ids=["80x24", "160x50"])
EACH_GAME = pytest.mark.parametrize("game", POSITIONS)


@asynccontextmanager
async def searched(game: str, inspector: str, size):
    """The game screen once the agent has moved from the game's position."""
    app = make_app(game, sides(game, INSPECTORS[inspector]), POSITIONS[game])
    async with app.run_test(size=size) as pilot:
        await settled(pilot, app)
        yield app.game_screen


def line(widget, y: int) -> str:
    return "".join(segment.text for segment in widget.render_line(y)).rstrip()


def tree_lines(tree: LiveTree) -> list[tuple[tuple | None, str]]:
    """(the row's path, None for the root; its text as drawn) for each visible row."""
    rows = []
    for y in range(min(tree.size.height, tree.last_line + 1)):
        node = tree.get_node_at_line(y)
        if node is not None:
            rows.append((node.data, line(tree, y)))
    return rows


@BOTH_SIZES
@EACH_GAME
async def test_each_tree_row_keeps_its_value_and_depth(game, size):
    async with searched(game, "alphabeta", size) as screen:
        tree = screen.query_one(LiveTree)
        depth = tree.decided.depth
        rows = tree_lines(tree)
        assert rows[0][0] is None and rows[0][1].endswith(f"depth {depth}") \
            or f"depth {depth} (the decision)" in rows[0][1], rows[0][1]
        root_moves = [text for path, text in rows if path is not None and len(path) == 1]
        assert root_moves
        for text in root_moves:
            assert re.search(rf"  {VALUE}  +depth {depth}$", text), text
        for text in (text for path, text in rows if path is not None and len(path) == 2):
            assert re.search(rf"  ({VALUE}|pruned \(cut-off: .+\)|not at depth \d+|"
                             r"pruned: the cut-off at .+ made it unnecessary|"
                             r"not searched at depth \d+)$", text), text


@BOTH_SIZES
@EACH_GAME
async def test_each_mcts_row_keeps_its_move_visits_and_mean(game, size):
    async with searched(game, "mcts", size) as screen:
        table = screen.query_one(MctsView)
        stats = {stat.move: stat for stat in table.snapshot.stats}
        ply = table.state.ply
        for row, move in enumerate(table.moves[:table.size.height - 1]):
            text = line(table, row + 1)  # (under the header)
            stat = stats[move]
            assert text.endswith(mean_text(stat, ply)) or \
                f" {mean_text(stat, ply)} " in text, text
            assert f"{stat.visits:,}" in text, text


def shown_keys(footer: Footer) -> dict[str, str]:
    """action -> the text of each key the footer shows whole."""
    keys = {}
    for key in footer.query("FooterKey"):
        region = key.region
        if key.display and region.width and region.right <= footer.region.right:
            keys[key.action] = key.render().plain.strip()
    return keys


@pytest.mark.parametrize("watching", [False, True], ids=["human", "watching"])
@EACH_GAME
async def test_the_footer_shows_whole_keys_and_always_review_save_setup_and_help(
        game, watching):
    agent = INSPECTORS["alphabeta"]
    app = make_app(game, (agent, agent) if watching else sides(game, agent),
                   POSITIONS[game])
    async with app.run_test(size=SMALL) as pilot:
        screen = app.game_screen
        if watching:
            await pilot.press("p")
        await settled(pilot, app)
        footer = screen.query_one(Footer)
        await wait_until(pilot, lambda: {"review", "save", "setup", "help"}
                         <= set(shown_keys(footer)))
        for key in footer.query("FooterKey"):  # nothing cut in half
            if key.display and key.region.width:
                assert key.region.right <= footer.region.right, key.render().plain
        if watching:
            assert {"pause", "step_move"} <= set(shown_keys(footer))
        help_keys = keys_text(screen)
        for binding in screen.BINDINGS:
            if binding.show and screen.check_action(binding.action, ()):
                assert binding.description in help_keys


@BOTH_SIZES
async def test_the_paused_line_is_shown_whole(size):
    agent = "mcts:iterations=200,seed=1"
    app = make_app("quarto", (agent, agent))
    async with app.run_test(size=size) as pilot:
        screen = app.game_screen
        await pilot.press("p")
        await settled(pilot, app)
        status = screen.query_one("#status")
        text = str(status.content)
        assert text.startswith("Paused.") and text.endswith("p to resume.")
        lines = Text(text).wrap(app.console, status.content_size.width)
        assert len(lines) <= status.content_size.height, [str(l) for l in lines]


@BOTH_SIZES
async def test_the_viewing_line_keeps_its_keys(size):
    app = make_app("connect4", ("human", "human"))
    async with app.run_test(size=size) as pilot:
        await pilot.press("4", "4", "3", "5", "left_square_bracket", "left_square_bracket")
        await settled(pilot, app)
        status = app.game_screen.query_one("#status")
        text = str(status.content)
        assert text.startswith("Viewing after 44.") and "[ ]" in text
        assert text.endswith("l live") or text.endswith("l: live game")
        lines = Text(text).wrap(app.console, status.content_size.width)
        assert len(lines) <= status.content_size.height, [str(l) for l in lines]
