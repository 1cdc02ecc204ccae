"""Connect 4 held-out positions, scored exactly: what `bench_az.py` grades every agent on.

A position is made by seeded random play to a ply drawn from 16-34, kept if the game
is not over and the side to move cannot win at once (a one-move win measures
nothing), and scored by the exact solver (core/connect4/): every column's score for
the side to move (22 - k for a win with the mover's k-th stone, 0 a draw, negative a
loss; the solver's scale). No network and no agent takes part, so the set is
held out from any training.

A move is optimal if its result (win, draw or loss) is the best any move has, and
fastest if its score is the best (the quickest win, the slowest loss). In a position
every move loses, every move is optimal: `decisive` says whether the moves' results
differ.

Make the shipped file again (the same bytes for the same seed and count):

    python -m tests.bench.heldout --count 500 --seed 34 > tests/bench/data/connect4_heldout.txt
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from plyground.core.game import get_game
from plyground.core.rng import SplitMix64

DATA = Path(__file__).parent / "data" / "connect4_heldout.txt"
PLIES = (16, 34)
FULL = "-"  # a full column's score in the file


@dataclass(frozen=True)
class Position:
    """A held-out position: its moves (1-based columns) and each column's score for
    the side to move (None for a full column)."""

    line: str
    scores: tuple[int | None, ...]

    def state(self):
        game = get_game("connect4")
        return game.play_moves(game.start(), list(self.line))

    def optimal(self, column: int) -> bool:
        """Whether `column` (0-6) keeps the best result any move has."""
        return sign(self.scores[column]) == max(map(sign, self.legal()))

    def fastest(self, column: int) -> bool:
        """Whether `column` has the best score: the quickest win, the slowest loss."""
        return self.scores[column] == max(self.legal())

    def decisive(self) -> bool:
        """Whether some move's result is worse than the best's."""
        return len({sign(score) for score in self.legal()}) > 1

    def legal(self) -> list[int]:
        return [score for score in self.scores if score is not None]


def sign(score: int | None) -> int:
    return 0 if not score else 1 if score > 0 else -1


def random_position(rng: SplitMix64):
    """Random play to a ply in PLIES: the state, or None if it ended before or leaves
    the mover a win at once."""
    game = get_game("connect4")
    state = game.start()
    target = PLIES[0] + rng.below(PLIES[1] - PLIES[0] + 1)
    while state.ply < target:
        moves = state.moves()
        if not moves:
            return None
        state = state.play(moves[rng.below(len(moves))])
    if state.outcome() is not None or state.winning_moves():
        return None
    return state


def scored(state, solver) -> tuple[int | None, ...]:
    """Each column's exact score for the side to move, None for a full column."""
    from plyground.core.fast.c4solver import INVALID

    return tuple(None if score == INVALID else score for score in solver.analyze(state))


def make(count: int, seed: int, solver) -> list[Position]:
    rng, found, seen = SplitMix64(seed), [], set()
    while len(found) < count:
        state = random_position(rng)
        if state is None or state.key() in seen:
            continue
        seen.add(state.key())
        line = "".join(str(column + 1) for column in state.history)
        found.append(Position(line, scored(state, solver)))
    return found


def header(count: int, seed: int) -> str:
    return (f"# Connect 4 held-out positions: {count} by seeded random play to plies "
            f"{PLIES[0]}-{PLIES[1]}, unfinished, no win at once for the mover\n"
            f"# made by: python -m tests.bench.heldout --count {count} --seed {seed}\n"
            "# each line: the moves (columns 1-7), then columns 1-7's exact scores for the "
            "side to move\n# (22 - k: a win with its k-th stone; 0 a draw; negative a "
            f"loss; {FULL} a full column)\n")


def format_position(position: Position) -> str:
    return " ".join([position.line] + [FULL if score is None else str(score)
                                       for score in position.scores])


def load(path: Path = DATA) -> list[Position]:
    """The positions of a held-out file."""
    positions = []
    for text in path.read_text().splitlines():
        if text.startswith("#") or not text.strip():
            continue
        line, *scores = text.split()
        positions.append(Position(line, tuple(None if score == FULL else int(score)
                                              for score in scores)))
    return positions


def main(argv: list[str] | None = None) -> None:
    from plyground.core.connect4.solver import new_solver

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--seed", type=int, default=34)
    args = parser.parse_args(argv)
    solver = new_solver()
    sys.stdout.write(header(args.count, args.seed))
    for position in make(args.count, args.seed, solver):
        print(format_position(position), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
