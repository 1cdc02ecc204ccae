"""The players' bar names an az player's network file (the one given, or the game's
shipped one), and still fits 80 columns with the seed; step mode's footer names its
keys apart (no two "Next") at 160 and at 80 columns."""
from __future__ import annotations

import shutil

import pytest
from textual.widgets import Footer, Static
from textual.widgets._footer import FooterKey, FooterLabel

from plyground.core import get_game
from plyground.core.agents.learned.agent import shipped_net

from .helpers import SIZE, SMALL, make_app, settled, wait_until

SIZES = pytest.mark.parametrize("size", [SIZE, SMALL], ids=["160x50", "80x24"])


def players_bar(app) -> str:
    return str(app.game_screen.query_one("#players", Static).content)


@SIZES
async def test_the_players_bar_names_an_az_players_network(tmp_path, size):
    net = tmp_path / "my-c4.npz"
    shutil.copy(shipped_net(get_game("connect4")), net)
    app = make_app(sides=("human", f"az:sims=50,net={net}"), seed=65535)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        bar = players_bar(app)
        assert "my-c4.npz" in bar and str(tmp_path) not in bar, bar
        assert bar.endswith("seed 65535"), bar  # all of it fits
        assert len(bar) <= size[0] - 2
    app = make_app(sides=("az:sims=50", "human"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        bar = players_bar(app)
        assert "connect4.npz" in bar, bar
        assert ("net connect4.npz (shipped)" in bar) == (size == SIZE), bar
        app.game_screen.cancel_search()


def footer_labels(screen) -> list[str]:
    """What the footer says of each key shown (a key group's label for its keys)."""
    footer = screen.query_one(Footer)
    shown = [widget for widget in footer.query("FooterKey, FooterLabel")
             if widget.display and all(node.display for node in widget.ancestors
                                       if node is not footer and node is not screen
                                       and hasattr(node, "display"))]
    labels = []
    for widget in shown:
        if isinstance(widget, FooterLabel):
            labels.append(str(widget.content))
        elif isinstance(widget, FooterKey) and widget.description:
            labels.append(widget.description)
    return labels


@SIZES
async def test_step_modes_footer_names_each_key_apart(size):
    app = make_app(sides=("human", "mcts:iterations=300"))
    async with app.run_test(size=size) as pilot:
        screen = app.game_screen
        await pilot.press("4")
        await settled(pilot, app)
        await pilot.press("s")
        await wait_until(pilot, lambda: screen.inspector.stepping)
        await pilot.pause()
        labels = footer_labels(screen)
        first_words = [label.split()[0] for label in labels]
        assert len(set(first_words)) == len(first_words), labels
        assert "Event" in labels and "Iteration" in labels, labels
        assert footer_labels(screen)[:2] == ["Event", "Iteration"]
