"""Building a balanced opening suite (the format: openings.py).

Openings come from four sources until `count` are kept (the candidates, every
position at the first ply asked for where the game has an exact solver, their
children, the walk, then the walk's children); each is kept if it lies at the plies
asked for, is even and is new (no opening kept before reaches the same position or its
mirror image):
1. a candidates file, if given: positions with values already known (Connect 4: the
   solver benchmark Test_L1_R3 with its exact scores), taken with those values; then,
   for a game with an exact solver, every position at the first ply asked for (for
   Connect 4 its opening book answers them at once), whose children are judged only
   after the walk's (a position one ply past the book is slow to solve);
2. seeded play from the game's start to a ply drawn from the range asked for: each
   move is, by a coin's toss, uniformly random or the choice of a short MCTS search
   (`mcts:iterations=2000`), so the openings look like games people play and many stay
   even. A ply where 50 tries in a row kept nothing (all its even positions found, or
   too hard to judge) is not drawn again;
3. the children of the openings kept, the deepest's first: the side to move's best
   replies keep an even value, so every even opening has an even child, and a deeper
   position is quicker to solve (about one opening kept for seven children judged
   where the walk keeps one for ten walks, many of them over the cap).
Each position of 2 and 3 is judged:
- a game with an exact solver (its registration's `solver`) by the solver, at most
  `cap` nodes a position (a node cap rather than a clock, so that the same seed keeps
  the same positions on any machine): kept if its score is 0 or ±1, a draw or the
  smallest win or loss (Connect 4: a win with the 21st stone);
- any other by `mcts:iterations=N` (the side to move's mean result, 0..1, draws
  counting half): kept if it is within `margin` of 0.5.

Each judged position goes into OUT.partial as it is judged, so a build stopped by
Ctrl-C or a crash, run again with the same command, replays its steps from there
instead of judging anything twice; the finished suite is written to OUT whole.
"""
from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..catalogue import parse_agent
from ..errors import PlygroundError, shown
from ..game import Game, State, load_ref
from ..paths import read_text_file, write_atomically
from .openings import VALUE_MARK, opening_position, reach

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
    candidates: Path | None = None  # a file of positions with values, taken first


class ExactJudge:
    """The game's exact solver: a position's score for the side to move."""

    def __init__(self, plan: Plan) -> None:
        self.solver, self.cap = load_ref(plan.game.entry.solver)(), plan.cap
        self.meaning = (f"the exact solver's score for the side to move (0 a draw; "
                        f"±1 the smallest win or loss); kept: -1, 0 or +1; solves over "
                        f"{plan.cap:,} nodes left out")

    def value(self, state: State) -> str:
        score = self.solver.solve(state, nodes=self.cap)
        return OVER_CAP if score is None else self.read(str(score))

    @staticmethod
    def read(text: str) -> str:
        """A score as the suite writes it ("+1", "0", "-1"); ValueError if not one."""
        score = int(text)
        return f"{score:+d}" if score else "0"

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
        return self.read(str(self.agent.decide(state).value))

    @staticmethod
    def read(text: str) -> str:
        """A mean result as the suite writes it; ValueError if not a number."""
        return f"{float(text):.3f}"

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
    """The build so far: the openings kept, by line with their values, how many came
    from each source (`candidates`, `walk`, `children`), and counts."""

    kept: dict[str, str]
    sources: Counter = field(default_factory=Counter)
    judged: int = 0
    reused: int = 0  # of those judged, how many an earlier run had judged
    over_cap: int = 0


class Builder:
    """One build: the judge, the progress file, the openings kept (with their plies and
    keys, a position and its mirror image one key) and the values judged by key."""

    def __init__(self, plan: Plan, out: Path, report: Callable[[Found], None]) -> None:
        self.plan, self.game, self.judge, self.report = plan, plan.game, judge_for(plan), report
        self.progress = Progress(out.with_name(out.name + ".partial"))
        self.found, self.plies, self.keys, self.values = Found({}), {}, set(), {}
        self.extended: set[str] = set()  # the openings whose children were judged

    def full(self) -> bool:
        return len(self.found.kept) >= self.plan.count

    def new(self, state: State) -> bool:
        return self.game.symmetric_key(state) not in self.keys

    def judged(self, state: State, line: str) -> str:
        """`state`'s value: the one its position (or its mirror image) was given in this
        build, the progress file's, or else the judge's."""
        key = self.game.symmetric_key(state)
        if key not in self.values:
            value = self.progress.values.get(line)
            if value is None:
                value = self.judge.value(state)
                self.progress.add(line, value)
            self.values[key] = value
            self.found.judged += 1
            self.found.reused += line in self.progress.earlier
            self.found.over_cap += value == OVER_CAP
            self.report(self.found)
        return self.values[key]

    def keep(self, state: State, line: str, value: str, source: str) -> bool:
        """Keep `line` if its value is even and its position new."""
        if not self.new(state) or not self.judge.even(value):
            return False
        self.found.kept[line], self.plies[line] = value, state.ply
        self.keys.add(self.game.symmetric_key(state))
        self.found.sources[source] += 1
        return True

    def take(self, candidates: list[tuple[State, str, str]]) -> None:
        """The candidates at the plies asked for that are even by their own values."""
        low, high = self.plan.plies
        for state, line, value in candidates:
            if self.full():
                return
            if low <= state.ply <= high:
                self.keep(state, line, value, "candidates")

    def first_ply(self) -> None:
        """Every position at the first ply asked for, judged: with an exact judge only,
        whose answers there are cheap (Connect 4's opening book holds every position
        up to 4 stones), where a search judge would take minutes a position."""
        if not isinstance(self.judge, ExactJudge):
            return
        level = [(self.game.start(), [])]
        for _ in range(self.plan.plies[0]):
            level = [(state.play(move), [*moves, move]) for state, moves in level
                     for move in state.moves() if state.outcome() is None]
        for state, moves in level:
            if self.full():
                return
            if state.outcome() is None and self.new(state):
                line = self.game.format_record(self.game.start(), moves)
                self.keep(state, line, self.judged(state, line), "first ply")

    def walk(self) -> None:
        """Seeded walks to plies drawn from those asked for, until the count is kept or
        every ply has missed GIVE_UP times in a row."""
        rng = random.Random(self.plan.seed)
        misses = {ply: 0 for ply in range(self.plan.plies[0], self.plan.plies[1] + 1)}
        while not self.full() and misses:
            ply = rng.choice(sorted(misses))
            state, line = walk(self.game, rng, ply) or (None, "")
            if state is not None and self.new(state) and self.keep(
                    state, line, self.judged(state, line), "walk"):
                misses[ply] = 0
            else:
                misses[ply] += 1
                if misses[ply] == GIVE_UP:
                    del misses[ply]

    def extend(self, shallowest: int = 0) -> None:
        """The children of kept openings (at `shallowest` plies or more), each judged,
        the even new ones kept, until the count is kept: the deepest opening's first
        (its children are the quickest to judge, and a child kept below the most plies
        is extended next)."""
        while not self.full():
            parents = [line for line, ply in self.plies.items()
                       if line not in self.extended and shallowest <= ply < self.plan.plies[1]]
            if not parents:
                return
            parent = max(parents, key=self.plies.__getitem__)  # the first of the deepest
            self.extended.add(parent)
            state, moves = reach(self.game, parent)
            for move in state.moves():
                child = state.play(move)
                if self.full() or child.outcome() is not None or not self.new(child):
                    continue
                line = self.game.format_record(self.game.start(), [*moves, move])
                self.keep(child, line, self.judged(child, line), "children")


def read_candidates(game: Game, path: Path, judge: ExactJudge | SearchJudge
                    ) -> list[tuple[State, str, str]]:
    """The positions of a candidates file, `<moves> <value>` a line (the value in the
    judge's terms: the exact solver's score, or a mean result 0..1), with their lines
    and values; PlygroundError naming the file and line of one that is not so."""
    rows = []
    for number, raw in enumerate(read_text_file(path, "candidates file").splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        where = f"{shown(str(path))} line {number}"
        moves, _, value = raw.strip().rpartition(" ")
        try:
            value = judge.read(value if moves.strip() else "")
        except ValueError:
            raise PlygroundError(f"{where}: {raw.strip()!r} is not moves and a value, "
                                 "as in '4453 0'") from None
        rows.append((opening_position(game, moves.strip(), where), moves.strip(), value))
    return rows


def build(plan: Plan, out: Path, report: Callable[[Found], None] = lambda found: None
          ) -> Found:
    """Build the suite `plan` asks for into `out` (see the module's doc); `report` is
    called after each position judged. Fewer than `count` is a PlygroundError once
    no source finds new ones (the partial file keeps what was judged)."""
    builder, started = Builder(plan, out, report), time.monotonic()
    if plan.candidates is not None:
        builder.take(read_candidates(plan.game, plan.candidates, builder.judge))
    try:
        builder.first_ply()
        # from the candidates: the fewest judged an opening kept; the first ply's
        # children come last (a position one ply past the book is slow to solve)
        builder.extend(shallowest=plan.plies[0] + 1)
        builder.walk()
        builder.extend()
    finally:
        builder.progress.close()
    found = builder.found
    if len(found.kept) < plan.count:
        raise PlygroundError(f"only {len(found.kept)} of {plan.count} openings found at "
                             f"plies {plan.plies[0]}-{plan.plies[1]}; try more plies")
    write_atomically(out, suite_text(plan, builder.judge.meaning, found,
                                     time.monotonic() - started))
    builder.progress.path.unlink(missing_ok=True)
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
              f"# sources: {sources(plan, found)}",
              f"# judged: {found.judged} positions"
              + (f", {found.over_cap} over the cap" if found.over_cap else "")
              + f"; the last run took {seconds:.0f} s"]
    openings = [line + VALUE_MARK + value for line, value in found.kept.items()]
    return "\n".join(header + openings) + "\n"


def sources(plan: Plan, found: Found) -> str:
    """Where the openings came from, for the suite's header."""
    said = {"candidates": f"read from {plan.candidates} with its values",
            "first ply": f"every even position at ply {plan.plies[0]}",
            "walk": "from seeded walks", "children": "children of kept openings"}
    return ", ".join(f"{found.sources[name]} {text}" for name, text in said.items()
                     if found.sources[name])
