"""What decides an AlphaZero training's result: the search of its games and the sizes of
its loop. Apart from the training itself (no numpy here), so that the CLI can show
the defaults without loading the trainer."""
from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import PlygroundError
from ...search.mcts import MAX_ITERATIONS

# The range of each of a training's numbers (the CLI's options check them as they are
# read, `check` here): generous, and short of sizes that cannot be allocated. What they
# come to together is checked against the machine (train.py, `check_sizes`).
RANGES: dict[str, tuple[int, int]] = {
    "games": (1, 100_000), "buffer": (1, 10_000_000), "steps": (1, 1_000_000),
    "batch": (1, 65_536), "eval_pairs": (0, 100_000), "channels": (1, 512),
    "blocks": (1, 64), "sims": (1, MAX_ITERATIONS)}


class TrainingError(PlygroundError):
    """Settings a training cannot run with."""


@dataclass(frozen=True)
class PlaySettings:
    """How a network's games are searched: `sims` simulations a move, `batch` leaves a
    network call, exploration `c`; `sample_plies` plies sampled by visits in
    self-play."""

    sims: int = 50
    c: float = 1.5
    batch: int = 8
    sample_plies: int = 4


@dataclass(frozen=True)
class AzSettings:
    """Everything that decides a training's result (not where its games run)."""

    games: int = 40  # self-play games a generation
    buffer: int = 5000  # samples kept
    steps: int = 100  # gradient steps a generation
    batch: int = 64  # samples a step
    eval_pairs: int = 10  # pairs of games in the gate (0: accept every generation)
    lr: float = 1e-3
    channels: int = 32
    blocks: int = 2
    seed: int = 1
    play: PlaySettings = field(default_factory=PlaySettings)

    def check(self) -> None:
        for name in ("games", "buffer", "steps", "batch", "channels", "blocks"):
            if getattr(self, name) < 1:
                raise TrainingError(f"{name} must be at least 1, not {getattr(self, name)}")
        if self.play.sims < 1:
            raise TrainingError("self-play needs at least 1 simulation a move")
        if self.eval_pairs < 0:
            raise TrainingError("eval pairs cannot be negative")
        for name, (_, most) in RANGES.items():
            value = self.play.sims if name == "sims" else getattr(self, name)
            if value > most:
                raise TrainingError(f"{name} must be at most {most}, not {value}")
