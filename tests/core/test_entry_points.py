"""Installed packages' entry points: each one that loads is registered, one that is
broken is a warning that names it, and the rest still load."""
from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from plyground.core import plugins
from plyground.core.agents.base import Agent
from plyground.core.catalogue import register_plugin_kind


def test_a_broken_entry_point_is_a_warning_and_the_others_still_load(monkeypatch):
    points = [EntryPoint("broken", "no_such_module_here:Thing", "plyground.agents"),
              EntryPoint("fine", "plyground.core.agents.base:Agent", "plyground.agents")]
    monkeypatch.setattr(plugins, "installed_entry_points", lambda group: points)
    loaded = []
    with pytest.warns(UserWarning, match=r"the agent plugin 'broken' "
                      r"\(no_such_module_here:Thing\) was not loaded: No module named"):
        plugins.load_entry_points("plyground.agents", "agent",
                                  lambda point, found: loaded.append((point.name, found)))
    assert loaded == [("fine", Agent)]


def test_an_agent_entry_point_must_name_an_agent_or_a_bot_class():
    point = EntryPoint("not-a-class", "plyground.core.plugins:is_plugin_ref",
                       "plyground.agents")
    with pytest.raises(TypeError, match="not an Agent or a Bot class"):
        register_plugin_kind(point, plugins.is_plugin_ref)
