"""The agent kinds the CLI and the menus offer, in menu order, and spec parsing.

An agent is made from a kind and settings: `make_agent("mcts", iterations=5000, seed=1)`
or, as the CLI and menus write it, `parse_agent("mcts:iterations=5000,seed=1")`. The
kinds are listed here, not registered by their modules, so that no agent module imports
the catalogue back.
"""
from __future__ import annotations

import copyreg
from typing import Any

from .agents.base import (Agent, FileSetting, name_values, split_settings,
                          unknown_setting_message)
from .agents.bot import Bot, bot_agent_class
from .agents.external import EngineAgent
from .agents.files import FilePolicy
from .agents.kinds import (AlphaBetaAgent, GreedyAgent, MctsAgent, MinimaxAgent,
                           RandomAgent, SeedAgent)
from .agents.learned.agent import AzAgent
from .connect4.agent import PerfectAgent
from .errors import BadSetting, PluginError, UnknownName
from .ga.agent import GaAgent
from .plugins import load_entry_points, load_object, split_plugin_ref


# plyground's own kinds, in the menus' order; installed packages' kinds follow
AGENT_KINDS: dict[str, type[Agent]] = {cls.kind: cls for cls in (
    RandomAgent, GreedyAgent, MinimaxAgent, AlphaBetaAgent, MctsAgent, AzAgent,
    SeedAgent, PerfectAgent, GaAgent, EngineAgent)}
DEFAULT_OPPONENT = "mcts"  # the menus' opponent until the user picks another
HUMAN = "human"  # the side a person plays: no agent kind, offered first in the menus
_plugins_loaded = False


def register_plugin_kind(point, cls) -> None:
    """Offer the Agent or Bot class an installed package names, under its entry
    point's name."""
    if not (isinstance(cls, type) and issubclass(cls, (Agent, Bot))):
        raise TypeError("it is not an Agent or a Bot class")
    AGENT_KINDS.setdefault(point.name, plugin_class(cls, point.name))


def agent_kinds() -> dict[str, type[Agent]]:
    """Every agent kind: plyground's, then those installed packages declare in the
    entry-point group `plyground.agents` (loaded once; a broken one is reported as a
    warning and left out)."""
    global _plugins_loaded
    if not _plugins_loaded:
        _plugins_loaded = True
        load_entry_points("plyground.agents", "agent", register_plugin_kind)
    return AGENT_KINDS


def make_agent(kind: str, **settings: Any) -> Agent:
    try:
        cls = agent_kinds()[kind]
    except KeyError:
        raise UnknownName(
            f"unknown agent {kind!r} (agents: {', '.join(agent_kinds())}; or a Python "
            "class as path/to/file.py:Class or package.module:Class)"
        ) from None
    return cls(**settings)


def parse_agent(text: str, files: FilePolicy | None = None) -> Agent:
    """`kind`, `kind:name=value,name=value`, or a Python class from outside:
    `path/to/bot.py:Class` or `package.module:Class`, its settings after another colon
    (`bot.py:Bot:depth=3`). A value with commas goes in double quotes
    (`engine:cmd="./bot --flag"`). `files`, if given, says which files a setting that
    names one may name (core/agents/files.py), before the agent reads any."""
    text = text.strip()
    ref = split_plugin_ref(text)
    if ref is not None:
        source, name, rest = ref
        kind = f"{source}:{name}"
        cls = plugin_class(load_object(kind), kind)
    else:
        kind, _, rest = text.partition(":")
        cls = agent_kinds().get(kind)
        if cls is None:
            make_agent(kind)  # raises the unknown-agent error
    known = {s.name: s for s in cls.settings_spec}

    def setting(name: str, text: str) -> Any:
        if name not in known:
            raise BadSetting(unknown_setting_message(kind, name, known))
        if files is not None and isinstance(known[name], FileSetting):
            text = files(kind, known[name], text)
        return known[name].parse(kind, text)

    return cls(**name_values(
        split_settings(rest), value=setting,
        needs_value=lambda item: f"{kind}: setting {item!r} needs a value, as in name=value",
        twice=lambda name: f"{kind}: {name} is given twice"))


def plugin_class(found: Any, kind: str) -> type[Agent]:
    """The agent class for a plugin's class: an Agent subclass (one of plyground's with
    its own evaluation, say) under the kind it was named by, or a student's Bot wrapped
    as an agent."""
    if isinstance(found, type) and issubclass(found, Bot):
        return by_spec_too(bot_agent_class(found, kind))
    if not (isinstance(found, type) and issubclass(found, Agent)):
        raise PluginError(f"{kind}: {found!r} is not a class deriving from "
                          "plyground's Bot or Agent")
    if found.__dict__.get("kind") == kind:
        return by_spec_too(found)
    title = found.__dict__.get("title") or found.__name__
    return by_spec_too(type(found.__name__, (found,), {
        "kind": kind, "title": title, "external": True, "__module__": found.__module__}))


def by_spec(agent: Agent):
    """An agent from outside travels to another process as its spec, which that
    process reads again (its class may live in a file no import path reaches)."""
    return parse_agent, (agent.spec,)


def by_spec_too(cls: type[Agent]) -> type[Agent]:
    """`cls`, whose agents travel as their spec from now on if it is from outside."""
    if cls.external:
        copyreg.pickle(cls, by_spec)
    return cls


copyreg.pickle(EngineAgent, by_spec)
