"""Connect 4 analysis panel: how long until every column has a value (an estimate at
least), and until every column's value is exact.

The positions: every position with 0 to 8 stones reached in 100 seeded games between
the shipped agents (Alpha-Beta, MCTS, greedy and random, quick budgets; only their first
8 moves are played), a position and its mirror image counted once. Analysing all of
them takes most of an hour (a position just past the opening book has columns that take
seconds to tens of seconds each to solve), so by default a sample is analysed: a tenth
of the positions of each stone count (`--fraction`, at least one of each), drawn with a
seed; `--all` analyses every one.

Each position is analysed as the app's analysis process does (`analyse_columns`, the
solver's table kept from one position to the next, stone counts in increasing order),
after the kernels are loaded; the times are read off its progress reports, which come
every 0.01 s here. One line more: the first analysis of a fresh analysis process (as
when the app starts), through the engine: its first report, its estimates, its exact
values. Figures only, never an assertion.

`python -m tests.bench.bench_c4_analysis [--fraction F] [--all] [--seed N]`
"""
from __future__ import annotations

import argparse
import random
import time
from statistics import median

from plyground.core.connect4 import analysis, book as c4book
from plyground.core import get_game
from plyground.core.catalogue import parse_agent
from plyground.core.games.connect4 import WARM_POSITION
from plyground.core.connect4.analysis import analyse_columns
from plyground.core.play.worker import AnalysisRequest, Engine
from plyground.core.play.match import seeded
from plyground.core.search.control import Budget, SearchControl
from plyground.core.search.events import AnalysisProgress
from plyground.core.values import Bound

GAME = get_game("connect4")
GAMES = 100
MAX_STONES = 8
PAIRINGS = (  # quick budgets: the games only need to reach 8 stones
    ("alphabeta:depth=4", "mcts:iterations=300"),
    ("mcts:iterations=300", "greedy"),
    ("greedy", "alphabeta:depth=4"),
    ("mcts:iterations=300", "mcts:iterations=300"),
    ("random", "alphabeta:depth=4"),
)
COLD_POSITION = "4453122716"  # past the book: estimates, then seconds of solving


def reached_positions(games: int = GAMES, stones: int = MAX_STONES) -> dict[int, object]:
    """Every position with at most `stones` stones in `games` seeded games, by canonical
    key (a position and its mirror image once), none over."""
    found: dict[int, object] = {}
    for number in range(games):
        specs = PAIRINGS[number % len(PAIRINGS)]
        agents = [seeded(parse_agent(spec), number, side)
                  for side, spec in enumerate(specs)]
        state = GAME.start()
        while state.outcome() is None and state.ply <= stones:
            found.setdefault(c4book.canonical(state), state)
            if state.ply == stones:
                break
            state = state.play(agents[state.to_move].decide(state).best_move)
    return found


class Timer:
    """An analysis's observer: when every column first had a value, and an exact one."""

    def __init__(self, state) -> None:
        self.columns = len(state.moves())
        self.started = time.perf_counter()
        self.valued = self.exact = None

    def __call__(self, event) -> None:
        if not isinstance(event, AnalysisProgress) or len(event.values) < self.columns:
            return
        now = time.perf_counter() - self.started
        if self.valued is None:
            self.valued = now
        if self.exact is None and all(v.bound == Bound.EXACT for v in event.values):
            self.exact = now


def timed(state) -> Timer:
    timer = Timer(state)
    analyse_columns(state, timer, SearchControl(Budget()))
    # its return is every column's exact value: a book position may report nothing first
    done = time.perf_counter() - timer.started
    timer.valued = done if timer.valued is None else timer.valued
    timer.exact = done if timer.exact is None else timer.exact
    return timer


def cold_start() -> None:
    """The first analysis in a fresh analysis process, as when the app starts."""
    state = GAME.parse_position(COLD_POSITION)
    columns = len(state.moves())
    marks: dict[str, float] = {}
    with Engine() as engine:
        started = time.perf_counter()

        def seen(events) -> None:
            now = time.perf_counter() - started
            marks.setdefault("first report", now)
            for event in events:
                if isinstance(event, AnalysisProgress) and len(event.values) == columns:
                    marks.setdefault("every column valued", now)

        engine.run(AnalysisRequest("connect4", COLD_POSITION), on_events=seen)
        marks["every column exact"] = time.perf_counter() - started
    print(f"  a fresh analysis process, position {COLD_POSITION}: " + ", ".join(
        f"{name} {seconds:.1f} s" for name, seconds in marks.items()))


def sample(found: dict[int, object], fraction: float | None, seed: int) -> list:
    """`fraction` of the positions of each stone count (at least one), or all (None),
    in increasing stone counts."""
    by_stones: dict[int, list] = {}
    for state in sorted(found.values(), key=GAME.format_position):
        by_stones.setdefault(state.ply, []).append(state)
    rng = random.Random(seed)
    return [state for stones in sorted(by_stones) for state in (
        by_stones[stones] if fraction is None else rng.sample(
            by_stones[stones], max(1, round(fraction * len(by_stones[stones])))))]


def summary(label: str, timers: list[Timer], total: int) -> str:
    valued, exact = ([getattr(timer, name) for timer in timers]
                     for name in ("valued", "exact"))
    return (f"  {label:<8} {len(timers):>4}/{total:<4} {median(valued):>8.2f} "
            f"{max(valued):>8.2f} {median(exact):>8.2f} {max(exact):>8.2f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fraction", type=float, default=0.1, metavar="F",
                        help="the share of each stone count's positions analysed (0.1)")
    parser.add_argument("--all", action="store_true", help="analyse every position")
    parser.add_argument("--seed", type=int, default=1, help="the sample's seed")
    args = parser.parse_args(argv if argv is not None else [])
    analysis.PROGRESS_INTERVAL = 0.01  # finer readings than the app's 0.1 s
    book = c4book.default_book()
    found = reached_positions()
    chosen = sample(found, None if args.all else args.fraction, args.seed)
    print("Connect 4 analysis: seconds until every column has a value (an estimate at "
          "least) and until all seven are exact; opening book depth "
          f"{book.depth if book else 'none'}")
    print(f"  {len(found)} positions with 0-{MAX_STONES} stones in {GAMES} seeded games; "
          + ("all analysed" if args.all else
             f"a SAMPLE of {len(chosen)}: {args.fraction:g} of each stone count, seed "
             f"{args.seed} (--all for every one)"))
    timed(GAME.parse_position(WARM_POSITION))  # load the kernels first
    print(f"  {'stones':<8} {'analysed':>9} {'valued':>8} {'(worst)':>8} {'exact':>8} "
          f"{'(worst)':>8}   (medians and worst, s)")
    every: list[Timer] = []
    started = time.perf_counter()
    for stones in sorted({state.ply for state in chosen}):
        some = [timed(state) for state in chosen if state.ply == stones]
        total = sum(state.ply == stones for state in found.values())
        print(summary(str(stones), some, total), flush=True)
        every += some
    print(summary("all", every, len(found)))
    print(f"  ({time.perf_counter() - started:.0f} s of analysis)")
    cold_start()


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
