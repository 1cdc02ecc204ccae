"""Saved strategy-agent profiles in the setup menu: one choice each, Connect 4 only,
and each becomes the agent spec that plays it."""
from __future__ import annotations

import pytest

from plyground.core import get_game
from plyground.core.catalogue import parse_agent
from plyground.core.ga.profile import (DEFAULT_PROFILE, Profile, ProfileError,
                                       install_profile, load_profile)
from plyground.tui.screens.setup import player_choices, row_from_spec, spec_for


def test_each_saved_profile_is_an_opponent_in_connect4_only(tmp_path, monkeypatch):
    monkeypatch.setenv("PLYGROUND_PROFILES", str(tmp_path))
    mine = install_profile(Profile("mine", (0.1, 0.2, 0.3, 0.4)))
    choices = player_choices(get_game("connect4"))
    ga = [(title, choice) for title, choice in choices if choice.startswith("ga")]
    assert ga == [("GA: default", f"ga:profile={DEFAULT_PROFILE}"),
                  ("GA: mine", f"ga:profile={mine}")]
    assert not [c for _, c in player_choices(get_game("boom")) if c.startswith("ga")]
    spec = spec_for(f"ga:profile={mine}", "")
    assert spec == f"ga:profile={mine}"
    agent = parse_agent(spec)
    assert agent.label == "Strategy (GA): mine"
    assert row_from_spec(spec) == (f"ga:profile={mine}", "", [])
    assert row_from_spec("ga")[:2] == (f"ga:profile={DEFAULT_PROFILE}", "")


async def test_typed_settings_stay_when_the_game_changes_and_disabled_boxes_are_empty():
    from textual.widgets import Input, Select

    from plyground.tui.screens.setup import SetupScreen

    from .helpers import make_app

    app = make_app(game_id=None)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        first, second = screen.rows()
        second.query_one(Select).value = "alphabeta"
        await pilot.pause()
        second.query_one(Input).value = "0.5"
        first.query_one(Select).value = "random"
        await pilot.pause()
        for game in ("quarto", "cephalopod", "connect4"):
            screen.query_one("#game", Select).value = game
            await pilot.pause()
            assert (second.kind, second.query_one(Input).value) == ("alphabeta", "0.5")
            box = first.query_one(Input)
            assert first.kind == "random" and box.disabled and box.value == ""
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.game_screen.match.sides == ("random", "alphabeta:time=0.5")


async def test_a_game_from_the_command_line_comes_back_to_the_setup_with_its_settings():
    from plyground.tui.screens.setup import SetupScreen

    from .helpers import make_app, wait_until

    app = make_app(sides=("human", "alphabeta:time=0.5"))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.game_screen is not None)
        assert app.game_screen.match.sides == ("human", "alphabeta:time=0.5")
        assert app.game_screen.match.agents[1].label == "Alpha-Beta (0.5s)"


async def test_the_setup_screen_says_which_profile_file_it_skips_and_why(tmp_path,
                                                                       monkeypatch):
    from plyground.tui.screens.setup import SetupScreen

    from .helpers import make_app

    monkeypatch.setenv("PLYGROUND_PROFILES", str(tmp_path))
    install_profile(Profile("mine", (0.1, 0.2, 0.3, 0.4)))
    (tmp_path / "broken.json").write_text('{"name": "half"}')
    app = make_app(game_id=None)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        with pytest.raises(ProfileError) as why:
            load_profile(tmp_path / "broken.json")
        assert [n.message for n in app._notifications] == [f"skipped {why.value}"]
        assert str(tmp_path / "broken.json") in str(why.value)
        assert [title for title, _ in player_choices(get_game("connect4"))
                if title.startswith("GA")] == ["GA: default", "GA: mine"]
