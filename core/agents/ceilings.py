"""The ceilings on one search when a visitor of `plyground serve` chose the agent: its
seconds, and its work (tree nodes, MCTS iterations, AlphaZero simulations).

A visitor's choice over a ceiling is refused where it is made (`over_ceiling`, one line
naming the ceiling and the option that raises it). A choice that sets no bound at all,
`minimax:depth=12` say, whose work grows with the depth and the game's moves, is not
refused: every search the served app's processes run is held to the ceilings as it
starts (`held`, called by Agent.decide), which gives such a search the work ceiling as
its bound. The served app passes the ceilings to the processes it starts (its search
engine, a match's pool) in the environment (`CEILINGS_ENV`), so that none of them
can run a search past them.

The defaults are a lesson's ceilings (core/study/lesson.py): as much work as the app's
step mode records (TRACE_CAP events: a tree node is entered and left, an MCTS iteration
has four phases).
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, replace

from ..search.control import Budget
from ..search.events import TRACE_CAP

CEILINGS_ENV = "PLYGROUND_SERVED_CEILINGS"
# each ceiling's field, the option of `plyground serve` that sets it, and its words
OPTIONS = {"time": "--max-time", "nodes": "--max-nodes",
           "iterations": "--max-iterations", "sims": "--max-sims"}


@dataclass(frozen=True)
class Ceilings:
    """The most one served search may take: seconds a move, and work by its kind."""

    time: float = 10.0
    nodes: int = TRACE_CAP // 2
    iterations: int = TRACE_CAP // 4
    sims: int = TRACE_CAP // 4

    def text(self) -> str:
        """As the environment carries it: `time=10,nodes=100000,...`."""
        return ",".join(f"{name}={getattr(self, name):g}" if name == "time"
                        else f"{name}={getattr(self, name)}" for name in OPTIONS)

    @classmethod
    def from_text(cls, text: str) -> "Ceilings":
        """The ceilings `text()` wrote; ValueError for anything else."""
        values = dict(item.split("=", 1) for item in text.split(","))
        if set(values) != set(OPTIONS):
            raise ValueError(text)
        found = cls(float(values["time"]),
                    *(int(values[name]) for name in ("nodes", "iterations", "sims")))
        if not (math.isfinite(found.time) and found.time > 0
                and min(found.nodes, found.iterations, found.sims) >= 1):
            raise ValueError(text)
        return found


def work_of(agent) -> tuple[str | None, str | None]:
    """(the Budget field that counts `agent`'s search work, the Ceilings field that
    bounds it): nodes for a tree search, iterations for MCTS, simulations for az;
    (None, None) for an agent that does not search, or one from outside plyground
    (an engine, a bot: its own program counts its work; its time and memory bound it)."""
    if agent.shows == "none" or agent.external:
        return None, None
    if agent.shows == "visits":
        return "iterations", ("sims" if agent.work_noun == "simulations"
                              else "iterations")
    return "nodes", "nodes"


def over_ceiling(agent, ceilings: Ceilings) -> str | None:
    """The one line that refuses `agent` for a search over a ceiling, or None."""
    budget = agent.budget()
    if budget.time is not None and budget.time > ceilings.time:
        return (f"{agent.kind}: time={budget.time:g} is over this server's ceiling of "
                f"{ceilings.time:g} s a move ({OPTIONS['time']})")
    field, ceiling = work_of(agent)
    asked = None if field is None else getattr(budget, field)
    if asked is not None and asked > getattr(ceilings, ceiling):
        noun = agent.work_noun or field
        return (f"{agent.kind}: {ceiling}={asked} is over this server's ceiling of "
                f"{getattr(ceilings, ceiling):,} {noun} a move ({OPTIONS[ceiling]})")
    return None


def held(agent, budget: Budget, ceilings: Ceilings) -> Budget:
    """`budget` within the ceilings: its time no longer than the time ceiling; its work
    no more than the work ceiling, and the work ceiling as its bound when it has
    neither a time nor a work bound (a search bounded by depth alone)."""
    if budget.time is not None and budget.time > ceilings.time:
        budget = replace(budget, time=ceilings.time)
    field, ceiling = work_of(agent)
    if field is None:
        return budget
    most, asked = getattr(ceilings, ceiling), getattr(budget, field)
    if asked is not None and asked > most or asked is None and budget.time is None:
        budget = replace(budget, **{field: most})
    return budget


def hold_searches(ceilings: Ceilings) -> None:
    """Hold every search this process runs from now on, and every process it starts,
    to `ceilings` (a served app, as it starts)."""
    os.environ[CEILINGS_ENV] = ceilings.text()


_parsed: dict[str, Ceilings | None] = {}


def served_ceilings() -> Ceilings | None:
    """The ceilings this process runs under (None: it does not serve a visitor). A
    value that cannot be read holds searches to the defaults rather than to none."""
    text = os.environ.get(CEILINGS_ENV)
    if not text:
        return None
    if text not in _parsed:
        try:
            _parsed[text] = Ceilings.from_text(text)
        except ValueError:
            _parsed[text] = Ceilings()
    return _parsed[text]
