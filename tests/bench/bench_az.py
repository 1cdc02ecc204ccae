"""The az agent graded by Connect 4's exact solver: the share of held-out positions
(tests/bench/data/connect4_heldout.txt, made by tests/bench/heldout.py) where each
agent plays an optimal move (one keeping the best result, win, draw or loss, any
move has), beside every agent we have; and a training curve.

Issue 34's targets: `az:sims=0` with the shipped net >= 85% (greedy about 80%,
minimax at depth 3 about 90%), `az:time=0.2` >= 98% (alphabeta:time=0.2 95-97%,
mcts:time=0.2 about 97%). Columns: optimal on every position; on the decisive ones
(where some move's result is worse than the best's: elsewhere every move is
optimal); fastest (the best score: the quickest win, the slowest loss); the mean
seconds a move took.

    python -m tests.bench.bench_az [--net FILE] [--quick] [--curve DIR]

The net: --net, else $PLYGROUND_AZ_NET, else the one Connect 4 ships. --quick grades
every fifth position (100). --curve DIR prints, for the nets `plyground train az ...
--keep-generations DIR` kept, each generation's training time and `az:sims=0`
accuracy, instead of the table.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from plyground.core.agents.learned.agent import shipped_net
from plyground.core.catalogue import parse_agent
from plyground.core.game import get_game

from . import heldout

AZ_AGENTS = ("az:sims=0", "az:time=0.2")
OTHERS = ("greedy", "minimax:depth=3", "alphabeta:time=0.2", "mcts:time=0.2")
SPEED_POSITIONS = 20  # held-out positions the speed line searches from
QUICK_EVERY = 5  # --quick: every fifth position
NET_VARIABLE = "PLYGROUND_AZ_NET"


def with_net(spec: str, net: Path) -> str:
    return f'{spec},net="{net}"'


def grade(spec: str, positions: list[heldout.Position]) -> tuple[int, int, int, float]:
    """(optimal moves, optimal moves in decisive positions, fastest moves, mean seconds
    a move) of the agent `spec` on `positions`."""
    agent = parse_agent(spec)
    agent.prepare()
    optimal = decisive = fastest = 0
    started = time.perf_counter()
    for position in positions:
        column = agent.choose(position.state(), agent.budget())
        optimal += position.optimal(column)
        decisive += position.decisive() and position.optimal(column)
        fastest += position.fastest(column)
    return optimal, decisive, fastest, (time.perf_counter() - started) / len(positions)


def the_net(given: str | None) -> Path | None:
    """The net graded: --net, $PLYGROUND_AZ_NET, or Connect 4's shipped one (None if
    there is none)."""
    given = given or os.environ.get(NET_VARIABLE)
    if given:
        return Path(given).expanduser()
    shipped = shipped_net(get_game("connect4"))
    return shipped if shipped is not None and shipped.is_file() else None


def speed(net: Path | None, positions: list[heldout.Position]) -> None:
    """Simulations in a 0.2 s az move from the start and from SPEED_POSITIONS held-out
    positions, with the default net shape (a fresh one if no net is given): in wall
    time, and scaled by wall over processor time (what an idle core would do: the
    machine is shared)."""
    with tempfile.TemporaryDirectory() as folder:
        if net is None:
            net = fresh_net(Path(folder) / "fresh.npz")
            print("  (no net given: a fresh net of the default shape, 32 channels x 2 "
                  "blocks; a trained one grows other trees)")
        agent = parse_agent(with_net("az:time=0.2", net))
        agent.prepare()
        game = get_game("connect4")
        states = [game.start()] + [p.state() for p in positions[:SPEED_POSITIONS]]
        agent.decide(states[0], agent.budget())  # off the clock: the first forward
        sims, scaled = [], []
        for state in states:
            cpu = time.process_time()
            done = agent.decide(state, agent.budget())
            cpu = time.process_time() - cpu
            sims.append(done.work)
            scaled.append(done.work * done.elapsed / max(cpu, 1e-9))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"  az:time=0.2 simulations a move (load {load}): from the start "
          f"{sims[0]:,} (an idle core: {scaled[0]:,.0f}); {SPEED_POSITIONS} held-out "
          f"positions mean {statistics.mean(sims[1:]):,.0f}, least {min(sims[1:]):,} "
          f"(an idle core: mean {statistics.mean(scaled[1:]):,.0f}); target >= 2,000")


def fresh_net(path: Path) -> Path:
    from plyground.core.agents.learned.net import Net, NetConfig, save_net

    encoding = get_game("connect4").encoding()
    save_net(Net.new(NetConfig(encoding.shape, encoding.policy_size), 0), path,
             {"game": "connect4"})
    return path


def table(net: Path | None, positions: list[heldout.Position]) -> None:
    from plyground.core.agents.learned.net import file_hash

    decisive = sum(p.decisive() for p in positions)
    print(f"Connect 4 held-out positions: {len(positions)} ({decisive} decisive), plies "
          f"{heldout.PLIES[0]}-{heldout.PLIES[1]}, scored by the solver")
    if net is None:
        print(f"  no Connect 4 net is shipped: az not graded (give --net FILE or set "
              f"{NET_VARIABLE})")
        specs = OTHERS
    else:
        print(f"  net {net} (sha256 {file_hash(net)[:16]})")
        specs = tuple(with_net(spec, net) for spec in AZ_AGENTS) + OTHERS
    speed(net, heldout.load())
    print(f"  {'agent':<22}{'optimal':>9}{'decisive':>10}{'fastest':>9}{'s/move':>9}")
    for spec in specs:
        optimal, right, fastest, seconds = grade(spec, positions)
        name = spec.split(",net=")[0]
        print(f"  {name:<22}{optimal / len(positions):>9.1%}"
              f"{right / max(decisive, 1):>10.1%}{fastest / len(positions):>9.1%}"
              f"{seconds:>9.3f}", flush=True)
    print("  targets: az:sims=0 >= 85% optimal, az:time=0.2 >= 98% and ahead of every "
          "other agent")


def match_score(az: str, against: str, games: int) -> float:
    """`az`'s score against `against` over `games` games (pairs from Connect 4's
    balanced openings, colours swapped, seed 1), on this machine's cores."""
    from plyground.core.game import get_game
    from plyground.core.play.openings import opening_suite
    from plyground.core.play.tournament import local_pool, match_jobs, run_games

    game = get_game("connect4")
    lines = opening_suite(game, "balanced").lines
    jobs = match_jobs((parse_agent(az), parse_agent(against)), games, 1,
                      openings=lambda pair: lines[pair % len(lines)])
    points = 0.0
    with local_pool(game, os.cpu_count() or 1) as pool:
        for _, result in run_games(game, jobs, pool):
            points += 0.5 if result.winner is None else float(result.winner == 0)
    return points / games


def curve(folder: Path, positions: list[heldout.Position], against: str | None,
          games: int) -> None:
    """Each kept generation's training time and policy-only accuracy, and with
    `against`, az's score at 0.2 s a move against it."""
    from plyground.core.agents.learned.net import load_net

    nets = sorted(folder.expanduser().glob("generation-*.npz"))
    if not nets:
        print(f"no generation-*.npz in {folder}: train with --keep-generations "
              f"{folder}", file=sys.stderr)
        raise SystemExit(2)
    print(f"Training curve of {folder}: az:sims=0 on {len(positions)} held-out "
          "positions" + (f"; az:time=0.2 against {against}, {games} games" if against
                         else ""))
    print(f"  {'generation':>10}{'trained':>10}{'samples':>10}{'optimal':>9}"
          f"{'decisive':>10}" + (f"{'score':>8}" if against else ""))
    decisive = sum(p.decisive() for p in positions)
    for path in nets:
        info = load_net(path)[1]
        optimal, right, _, _ = grade(with_net("az:sims=0", path), positions)
        score = (f"{match_score(with_net('az:time=0.2', path), against, games):>8.1%}"
                 if against else "")
        print(f"  {info.get('generation', '?'):>10}{info.get('seconds', 0):>9.0f}s"
              f"{info.get('samples', 0):>10,}{optimal / len(positions):>9.1%}"
              f"{right / max(decisive, 1):>10.1%}{score}", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--net", help=f"the net graded (default: ${NET_VARIABLE}, "
                        "else Connect 4's shipped one)")
    parser.add_argument("--quick", action="store_true",
                        help=f"every {QUICK_EVERY}th position only")
    parser.add_argument("--curve", type=Path, metavar="DIR",
                        help="print the training curve of the nets kept in DIR")
    parser.add_argument("--against", metavar="SPEC",
                        help="with --curve: each net's score at 0.2 s a move against "
                        "this agent, e.g. mcts:time=0.2")
    parser.add_argument("--games", type=int, default=20,
                        help="with --against: games a net (an even number)")
    args = parser.parse_args(argv if argv is not None else [])
    positions = heldout.load()
    if args.quick:
        positions = positions[::QUICK_EVERY]
    if args.curve is not None:
        curve(args.curve, positions, args.against, args.games)
    else:
        table(the_net(args.net), positions)


if __name__ == "__main__":
    main(sys.argv[1:])
