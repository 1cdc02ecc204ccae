"""Which agents run code from outside plyground, said without running any of it.

Records, lessons and history entries come from other people, so the agents they name
are data until the user says otherwise. plyground's own kinds and the kinds of installed
packages (entry points: installing one is consent) run freely; anything else (an
`engine:cmd=…`, a `file.py:Class`, a `module:Class` no installed package declares) runs
only when trusted: the user named it (on the command line, in the setup screen), passed
`--trust-agents`, or said yes to a prompt that showed the exact command or file.
A visitor of `plyground serve` plays an outside agent only as the server's user wrote
it, and any agent only within the served ceilings and naming only the files the server
offers (`served_agent`).
"""
from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any

from .agents.base import MEM, Agent, name_values, split_settings
from .agents.ceilings import Ceilings, over_ceiling
from .agents.files import OfferedFiles
from .catalogue import HUMAN, agent_kinds, parse_agent
from .errors import BadSetting, PlygroundError
from .plugins import installed_entry_points, names_a_file, split_plugin_ref

TRUST_OPTION = "--trust-agents"
# What a spec may change of an allowed one (`serve --allow-agent`): its time (which a
# served app holds to a ceiling, core/agents/ceilings.py) and its seed. Its command
# line or file, memory, options and every other setting are as the server's user
# wrote them.
FREE_SETTINGS = ("time", "seed")

# What may run: True, anything; False, only plyground's own and installed kinds; a
# collection of specs, those too (`serve --allow-agent`).
Trust = bool | Collection[str]


class NeedsTrust(PlygroundError):
    """Agents that would run code from outside plyground, not trusted to. `outside`
    holds each one as (spec, what it would run)."""

    def __init__(self, outside: list[tuple[str, str]], where: str = "",
                 allow: str = TRUST_OPTION) -> None:
        self.outside = outside
        whose = f"{where} names" if where else "this names"
        runs = "; ".join(f"{spec!r} runs {what}" for spec, what in outside)
        super().__init__(f"{whose} an agent from outside plyground: {runs}. Nothing was "
                         f"run; {allow} allows it")


def installed_refs() -> set[str]:
    """`module:Class` of every agent an installed package declares."""
    return {point.value.replace(" ", "")
            for point in installed_entry_points("plyground.agents")}


def outside_code(spec: str) -> str | None:
    """What playing `spec` would import or start, in words that name the exact file,
    module or command line; None for a human, plyground's own kinds and installed
    packages' kinds. Imports nothing and starts nothing (a malformed spec is None: the
    error comes when it is parsed)."""
    spec = spec.strip()
    if spec == HUMAN:
        return None
    ref = split_plugin_ref(spec)
    if ref is not None:
        source, name = ref[0].strip(), ref[1].strip()
        if names_a_file(source):
            return f"the Python file {Path(source).expanduser().resolve()} (class {name})"
        if f"{source}:{name}" in installed_refs():
            return None
        return f"the Python module {source} (class {name})"
    kind, _, settings = spec.partition(":")
    cls = agent_kinds().get(kind.strip())
    return None if cls is None else cls.outside_code(settings)


def fixed_settings(spec: str) -> dict[str, Any]:
    """The settings of `spec` that only the one who allows it may choose: all but
    FREE_SETTINGS, read as values where plyground knows them (an engine's, any agent's
    `mem`: `2G` and `2048M` are one) and as written otherwise (a bot's own), a setting
    not written at its default. Imports nothing; BadSetting for a malformed spec."""
    spec = spec.strip()
    ref = split_plugin_ref(spec)
    if ref is not None:
        kind, rest, known = f"{ref[0].strip()}:{ref[1].strip()}", ref[2], {"mem": MEM}
    else:
        kind, _, rest = spec.partition(":")
        cls = agent_kinds().get(kind.strip())
        known = {s.name: s for s in cls.settings_spec} if cls is not None else {}
    values = name_values(
        split_settings(rest),
        value=lambda name, text: known[name].parse(kind, text) if name in known
        else text,
        needs_value=lambda item: f"{kind}: setting {item!r} needs a value, as in "
        "name=value",
        twice=lambda name: f"{kind}: {name} is given twice")
    for name, setting in known.items():
        values.setdefault(name, setting.default)
    # (an engine's command line is compared as the shell reads it, by outside_code)
    return {name: value for name, value in values.items()
            if name not in FREE_SETTINGS and name != "cmd"}


def untrusted(specs: Iterable[str], trust: Trust) -> list[tuple[str, str]]:
    """(spec, what it runs) for each of `specs` that runs outside code `trust` does
    not cover. An allowed spec covers a spec that runs the same command, file or
    module with the same settings but for its time and seed (FREE_SETTINGS): a
    spec that changes its memory, its options or any other is not covered."""
    if trust is True:
        return []
    allowed: dict[str, list[dict[str, Any]]] = {}
    for spec in () if trust is False else trust:
        what = outside_code(spec)
        if what is not None:
            try:
                allowed.setdefault(what, []).append(fixed_settings(spec))
            except PlygroundError:
                continue  # (an allowed spec that cannot be read allows nothing)
    found = []
    for spec in specs:
        what = outside_code(spec)
        if what is None:
            continue
        if what not in allowed:
            found.append((spec, what))
            continue
        try:
            fixed = fixed_settings(spec)
        except PlygroundError as error:
            found.append((spec, f"{what} ({error})"))
            continue
        if fixed not in allowed[what]:
            first = allowed[what][0]
            changed = sorted(name for name in {*fixed, *first}
                             if fixed.get(name) != first.get(name))
            found.append((spec, f"{what} with its {', '.join(changed)} changed from "
                                "what is allowed (only its time and seed may change)"))
    return found


def require_trust(specs: Iterable[str], trust: Trust, where: str = "",
                  allow: str = TRUST_OPTION) -> None:
    """Raise NeedsTrust, before anything is imported or started, if any of `specs` runs
    code from outside that `trust` does not cover."""
    outside = untrusted(specs, trust)
    if outside:
        raise NeedsTrust(outside, where, allow)


SERVE_OPTION = "only the server's `plyground serve --allow-agent`"


def served_agent(spec: str, allowed: Collection[str], save_dir: Path | None = None,
                 ceilings: Ceilings = Ceilings()) -> Agent | None:
    """The agent `spec` names (None for a human) if a visitor of `plyground serve` may
    play it, else a PlygroundError in one line, before anything is started or read:
    an agent from outside only as `allowed` writes it (its time and seed may
    differ), no search over the `ceilings` (core/agents/ceilings.py), and a setting
    that names a file naming only one the server offers (core/agents/files.py: the
    shipped ones, those in `save_dir`). Asked wherever a visitor chooses an agent, and
    of the players of a record a visitor opens."""
    if spec.strip() == HUMAN:
        return None
    require_trust([spec], allowed, "this", SERVE_OPTION)
    agent = parse_agent(spec, files=OfferedFiles(() if save_dir is None else (save_dir,)))
    refusal = over_ceiling(agent, ceilings)
    if refusal is not None:
        raise BadSetting(refusal)
    return agent
