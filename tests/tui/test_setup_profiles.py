"""Saved strategy-agent profiles in the setup menu: one choice each, Connect 4 only,
and each becomes the agent spec that plays it."""
from __future__ import annotations

from plyground.core import get_game, parse_agent
from plyground.core.ga_profile import DEFAULT_PROFILE, Profile, install_profile
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
