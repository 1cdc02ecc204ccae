"""Building a balanced opening suite (the format: openings.py).

An opening is found by seeded play from the game's start to a ply drawn from the range
asked for: each move is, by a coin's toss, uniformly random or the choice of a short
MCTS search (`mcts:iterations=2000`), so the openings look like games people play and
many stay even. The position reached is then judged, and kept if it is even and new:
- a game with an exact solver (its registration's `solver`) by the solver, at most
  `cap` nodes a position (a node cap rather than a clock, so that the same seed keeps
  the same positions on any machine): kept if its score is 0 or ±1, a draw or the
  smallest win or loss (Connect 4: a win with the 21st stone);
- any other by `mcts:iterations=N` (the side to move's mean result, 0..1, draws
  counting half): kept if it is within `margin` of 0.5.
A ply where 50 tries in a row kept nothing (all its even positions found, or too hard
to solve within the cap) is not drawn again.

Each judged position goes into OUT.partial as it is judged, so a build stopped by
Ctrl-C or a crash, run again with the same command, replays its walk from there
instead of judging anything twice; the finished suite is written to OUT whole.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..catalogue import parse_agent
from ..errors import PlygroundError
from ..game import Game, State, load_ref
from ..paths import read_text_file, write_atomically
from .openings import VALUE_MARK

WALK_ITERATIONS = 2000  # the MCTS that chooses half the moves on the way
GIVE_UP = 50  # tries in a row that keep nothing before a ply is left out
OVER_CAP = "-"  # a position the solver did not finish within the cap, in the progress


@dataclass(frozen=True)
class Plan:
    """What to build: `count` openings of `game` at `plies` (fewest, most), from `seed`;
    the solver's node cap, or the judging MCTS's iterations and the margin kept."""

    game: Game
    count: int
    seed: int
    plies: tuple[int, int]
    command: str  # the command line that asked for it, for the suite's header
    cap: int = 10_000_000
    iterations: int = 20_000
    margin: float = 0.05


class ExactJudge:
    """The game's exact solver: a position's score for the side to move."""

    def __init__(self, plan: Plan) -> None:
        self.solver, self.cap = load_ref(plan.game.entry.solver)(), plan.cap
        self.meaning = (f"the exact solver's score for the side to move (0 a draw; "
                        f"±1 the smallest win or loss); kept: -1, 0 or +1; solves over "
                        f"{plan.cap:,} nodes left out")

    def value(self, state: State) -> str:
        score = self.solver.solve(state, nodes=self.cap)
        return OVER_CAP if score is None else f"{score:+d}" if score else "0"

    @staticmethod
    def even(value: str) -> bool:
        return value != OVER_CAP and abs(int(value)) <= 1


class SearchJudge:
    """A fixed MCTS search: the side to move's mean result."""

    def __init__(self, plan: Plan) -> None:
        self.agent = parse_agent(f"mcts:iterations={plan.iterations},seed={plan.seed}")
        self.margin = plan.margin
        self.meaning = (f"mcts:iterations={plan.iterations},seed={plan.seed}'s mean "
                        f"result for the side to move (0..1, draws half); kept: "
                        f"{0.5 - plan.margin:.2f} to {0.5 + plan.margin:.2f}")

    def value(self, state: State) -> str:
        return f"{self.agent.decide(state).value:.3f}"

    def even(self, value: str) -> bool:
        return abs(float(value) - 0.5) <= self.margin + 1e-9


def judge_for(plan: Plan) -> ExactJudge | SearchJudge:
    return ExactJudge(plan) if plan.game.entry.solver else SearchJudge(plan)


def default_plies(game: Game) -> tuple[int, int]:
    """4-8 where an exact solver judges (nearer the start it takes minutes a
    position), else 2-6."""
    return (4, 8) if game.entry.solver else (2, 6)


class Progress:
    """The positions judged so far (`line<TAB>value` a line in OUT.partial), read back
    when a build goes on; each is appended as it is judged."""

    def __init__(self, path: Path) -> None:
        self.path, self.values = path, {}
        if path.exists():
            for row in read_text_file(path, "build progress").splitlines():
                line, tab, value = row.partition("\t")
                if tab and value:  # a row cut short by a crash is judged again
                    self.values[line] = value
        self.earlier, self.file = set(self.values), None

    def add(self, line: str, value: str) -> None:
        if self.file is None:
            self.file = open(self.path, "a", encoding="utf-8")
        self.file.write(f"{line}\t{value}\n")
        self.file.flush()
        self.values[line] = value

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def walk(game: Game, rng: random.Random, ply: int) -> tuple[State, str] | None:
    """A running position `ply` moves from the start, each move random or a short
    search's, and its line; None if the game ended on the way."""
    state, moves = game.start(), []
    while state.ply < ply:
        if rng.random() < 0.5:
            move = rng.choice(list(state.moves()))
        else:
            seed = rng.randrange(1 << 30)
            move = parse_agent(f"mcts:iterations={WALK_ITERATIONS},seed={seed}"
                               ).decide(state).best_move
        state = state.play(move)
        moves.append(move)
        if state.outcome() is not None:
            return None
    return state, game.format_record(game.start(), moves)


@dataclass
class Found:
    """The build so far: the openings kept, by line with their values, and counts."""

    kept: dict[str, str]
    judged: int = 0
    reused: int = 0  # of those judged, how many an earlier run had judged
    over_cap: int = 0


def build(plan: Plan, out: Path, report: Callable[[Found], None] = lambda found: None
          ) -> Found:
    """Build the suite `plan` asks for into `out` (see the module's doc); `report` is
    called after each position judged. Fewer than `count` is a PlygroundError once no
    ply finds new ones (the partial file keeps what was judged)."""
    game, judge = plan.game, judge_for(plan)
    progress = Progress(out.with_name(out.name + ".partial"))
    rng = random.Random(plan.seed)
    found, seen, misses = Found({}), set(), {p: 0 for p in range(plan.plies[0],
                                                                   plan.plies[1] + 1)}
    started = time.monotonic()

    def judged(state: State, line: str) -> str:
        value = progress.values.get(line)
        if value is None:
            value = judge.value(state)
            progress.add(line, value)
        found.judged += 1
        found.reused += line in progress.earlier
        found.over_cap += value == OVER_CAP
        return value

    try:
        while len(found.kept) < plan.count and misses:
            ply = rng.choice(sorted(misses))
            state, line = walk(game, rng, ply) or (None, "")
            key = None if state is None else game.symmetric_key(state)
            value = None if state is None or key in seen else judged(state, line)
            if value is not None and judge.even(value):
                seen.add(key)
                found.kept[line] = value
                misses[ply] = 0
            else:
                misses[ply] += 1
                if misses[ply] == GIVE_UP:
                    del misses[ply]
            report(found)
    finally:
        progress.close()
    if len(found.kept) < plan.count:
        raise PlygroundError(f"only {len(found.kept)} of {plan.count} openings found at "
                             f"plies {plan.plies[0]}-{plan.plies[1]}; try more plies")
    write_atomically(out, suite_text(plan, judge.meaning, found, time.monotonic() - started))
    progress.path.unlink()
    return found


def suite_text(plan: Plan, meaning: str, found: Found, seconds: float) -> str:
    """The suite file: its header (see openings.py), then the openings as found."""
    plies = sorted({len(plan.game.parse_line(plan.game.start(), line))
                    for line in found.kept})
    header = [f"# A balanced opening suite for {plan.game.title}: {len(found.kept)} "
              f"distinct positions at plies {plies[0]}-{plies[-1]}.",
              f"# game: {plan.game.spec}",
              f"# values: {meaning}",
              f"# built by: {plan.command}",
              f"# judged: {found.judged} positions"
              + (f", {found.over_cap} over the cap" if found.over_cap else "")
              + f"; the last run took {seconds:.0f} s"]
    openings = [line + VALUE_MARK + value for line, value in found.kept.items()]
    return "\n".join(header + openings) + "\n"
