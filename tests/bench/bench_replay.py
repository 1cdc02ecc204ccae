"""Step mode's faithful replay of an Alpha-Beta decision of about a million nodes.

The decision: Connect 4 Alpha-Beta with a 1,000,000-node budget (the numba kernel) from
a mid-game position. The replay runs as the app runs it: the same agent, the budget
`replay_plan` gives, tracing in pure Python in an engine process, keeping only the
deciding iteration (capped). Printed: the replay's time, whether it matched the
decision (move, value, nodes), the events kept, and the peak memory (VmHWM) of the
engine process and of this one.
"""
from __future__ import annotations

import time

from plyground.core import get_game
from plyground.core.catalogue import parse_agent
from plyground.core.play.worker import Engine, SearchRequest
from plyground.core.search.events import TRACE_CAP
from plyground.core.fast import warm_up

GAME = get_game("connect4")
POSITION = "4453"
AGENT = "alphabeta:nodes=1000000"


def peak_mib(pid: int | str = "self") -> float:
    """A process's peak resident memory so far (VmHWM), in MiB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    print("Step-mode replay of a ~1M-node Alpha-Beta decision "
          f"(Connect 4 {POSITION}, {AGENT})")
    warm_up("connect4")
    state = GAME.parse_position(POSITION)
    agent = parse_agent(AGENT)
    decision = agent.decide(state)
    replayer, budget = agent.replay_plan(decision)
    print(f"  decision: move {GAME.format_move(decision.best_move)}, value {decision.value}, depth "
          f"{decision.depth}, {decision.work:,} nodes in {decision.elapsed:.2f} s")
    with Engine() as engine:
        engine.warm("connect4")
        request = SearchRequest("connect4", POSITION, replayer.spec, trace=True,
                                budget=budget, trace_depth=decision.depth,
                                target=decision.work)
        engine.run(SearchRequest("connect4", POSITION, "greedy"))  # the child is up
        child_before, own_before = peak_mib(engine.pid), peak_mib()
        started = time.perf_counter()
        done = engine.run(request)
        seconds = time.perf_counter() - started
        child_after, own_after = peak_mib(engine.pid), peak_mib()
    again = done.result
    same = (again.best_move, again.value, again.work) == \
        (decision.best_move, decision.value, decision.work)
    print(f"  replay:   move {GAME.format_move(again.best_move)}, value {again.value}, depth "
          f"{again.depth}, {again.work:,} nodes in {seconds:.1f} s "
          f"({again.work / seconds:,.0f} nodes/s traced): "
          f"{'matches the decision' if same else 'DIFFERS from the decision'}")
    print(f"  trace kept: {len(done.trace):,} events of the deciding iteration "
          f"(cap {TRACE_CAP:,}{', reached' if done.truncated else ''})")
    print(f"  peak memory: engine process {child_before:.0f} -> {child_after:.0f} MiB, "
          f"this process {own_before:.0f} -> {own_after:.0f} MiB")


if __name__ == "__main__":
    main()
