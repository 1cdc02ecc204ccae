"""`?` (or F1) in a game: the game's rules as it declared them, the keys that act now,
and what the inspector's symbols mean."""
from __future__ import annotations

import pytest

from plyground.tui.screens.help import HelpScreen

from .helpers import SIZE, make_app, wait_until


@pytest.mark.parametrize("game, key, rule", [
    ("connect4", "question_mark", "Four of your discs in a row"),
    ("boom", "f1", "LOSES"),  # the misère rule, and the bomb's
    ("cephalopod", "question_mark", "sum to at most 6 must capture"),
    ("quarto", "question_mark", "they must place"),
])
async def test_help_gives_the_games_rules_its_keys_and_the_symbols(game, key, rule):
    app = make_app(game, ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(key)
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = {part: str(app.screen.query_one(f"#help-{part}").content)
                for part in ("rules", "keys", "symbols")}
        assert rule in text["rules"] and text["rules"] == app.game_screen.match.game.entry.rules
        assert "Undo" in text["keys"] and "New game" in text["keys"]
        assert "Focus Next" not in text["keys"] and "Copy" not in text["keys"]
        assert "★ the decision" in text["symbols"] and "UCT" in text["symbols"]
        if game == "boom":
            assert "BOOM" in text["rules"] and "bomb" in text["rules"]
            assert "BOOM" in text["keys"]  # the board's own key is listed
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.game_screen)


async def test_keys_are_named_as_typed_not_by_their_textual_names():
    app = make_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        keys = str(app.screen.query_one("#help-keys").content)
        for line in ("[  Back", "]  Forward", "{  At a branch", "}  At a branch",
                     "?  Help", "esc  Setup"):
            assert line in keys
        assert "bracket" not in keys and "question_mark" not in keys
        assert "↑/↓ there or { }" in keys  # the move list's own keys
