"""What plyground runs on each worker of a Dask cluster besides the games: the warm-up
when a worker joins, and the check that an agent from outside plyground can be made
there.

This module imports Dask distributed (a worker plugin must derive from its class), so
only cluster.py's `cluster_pool` imports it, once --cluster is given; the functions
and the plugin travel to the workers by reference, and each worker imports it again.
"""
from __future__ import annotations

import multiprocessing
import shutil
from pathlib import Path

from distributed.diagnostics.plugin import WorkerPlugin

from ..agents.engine_process import split_command
from ..agents.external import EngineAgent
from ..catalogue import parse_agent
from ..errors import PlygroundError, UnknownName
from ..fast import warm_up
from ..plugins import names_a_file, split_plugin_ref


class WarmUp(WorkerPlugin):
    """Compiles the game's kernels (or loads them from numba's cache) on each worker as
    it joins, those already there when the pool opens and any that join later, so that
    no game's clock pays for it."""

    idempotent = True  # a second run of the same game registers nothing new

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.name = f"plyground-warm-up-{game_id}"

    def setup(self, worker) -> None:
        warm_up(self.game_id)


NEEDS = "(a worker needs the file at the same path, or the package installed)"
# An outside agent decides in a process of its own (isolation.py), which a daemon
# process may not start: Dask's nanny starts its workers as daemons unless told not to.
DAEMON = ("the worker is a daemon process, which may not start the agent's own "
          "process (start the workers with DASK_DISTRIBUTED__WORKER__DAEMON=False; "
          "see docs/cluster.md)")


def cannot_run(spec: str) -> str | None:
    """Why the agent `spec` cannot be made in this process (None if it can): its file
    missing, its module or entry point not installed, its engine's program not found."""
    ref = split_plugin_ref(spec)
    if ref is not None and names_a_file(ref[0]):
        if not Path(ref[0]).expanduser().is_file():
            return f"no file {ref[0]} there {NEEDS}"
    try:
        agent = parse_agent(spec)
    except UnknownName:
        return (f"no installed package declares the agent {spec.partition(':')[0]!r} "
                f"there {NEEDS}")
    except PlygroundError as error:
        return f"{error} {NEEDS}"
    if isinstance(agent, EngineAgent):
        program = split_command(agent.settings["cmd"])[0]
        if shutil.which(program) is None:
            return f"no program {program} there {NEEDS}"
    return None


def agents_trouble(specs: list[str]) -> dict[str, str]:
    """For each of `specs` (agents from outside) that cannot play on this worker, why."""
    if multiprocessing.current_process().daemon:
        return dict.fromkeys(specs, DAEMON)
    return {spec: reason for spec in specs if (reason := cannot_run(spec)) is not None}
