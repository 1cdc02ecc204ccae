"""Which agents run code from outside plyground, said without running any of it.

Records, lessons and history entries come from other people, so the agents they name
are data until the user says otherwise. plyground's own kinds and the kinds of installed
packages (entry points: installing one is consent) run freely; anything else (an
`engine:cmd=…`, a `file.py:Class`, a `module:Class` no installed package declares) runs
only when trusted: the user named it (on the command line, in the setup screen), passed
`--trust-agents`, or said yes to a prompt that showed the exact command or file.
"""
from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path

from .catalogue import HUMAN, agent_kinds
from .errors import PlygroundError
from .plugins import installed_entry_points, names_a_file, split_plugin_ref

TRUST_OPTION = "--trust-agents"

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


def untrusted(specs: Iterable[str], trust: Trust) -> list[tuple[str, str]]:
    """(spec, what it runs) for each of `specs` that runs outside code `trust` does
    not cover. An allowed spec covers any spec that runs the same command, file or
    module (its settings, such as its time, may differ)."""
    if trust is True:
        return []
    allowed = set() if trust is False else {outside_code(spec) for spec in trust}
    found = []
    for spec in specs:
        what = outside_code(spec)
        if what is not None and what not in allowed:
            found.append((spec, what))
    return found


def require_trust(specs: Iterable[str], trust: Trust, where: str = "",
                  allow: str = TRUST_OPTION) -> None:
    """Raise NeedsTrust, before anything is imported or started, if any of `specs` runs
    code from outside that `trust` does not cover."""
    outside = untrusted(specs, trust)
    if outside:
        raise NeedsTrust(outside, where, allow)
