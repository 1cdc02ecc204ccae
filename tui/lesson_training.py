"""What the lesson screen shows of a train step (core/study/lesson_train.py): before
it starts, what it will do; as it runs, the generation under way, a line per
generation (losses, the gate, the games against the step's opponent) and the time; at
the end, what the last accepted net did. A plain class that gathers the training's
events and draws them, so that it is tested without Textual.
"""
from __future__ import annotations

from rich.text import Text

from plyground.core.study.lesson_train import (Checked, Ended, Failed, Finished, Phase,
                                               TrainStep)

START_KEY = "t"
ROWS, ROWS_NARROW = 24, 8  # generations listed: the untrained net, then the latest


def clock(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    return f"{minutes}:{seconds:02d}"


class TrainingProgress:
    """The events of one training, as they came."""

    def __init__(self, step: TrainStep, opponent: str | None) -> None:
        self.step = step
        self.opponent = opponent  # the opponent's title
        self.phase: Phase | None = None
        self.ended: dict[int, Ended] = {}
        self.checked: dict[int, Checked] = {}
        self.finished: Finished | None = None
        self.failed: str | None = None

    def add(self, event) -> None:
        if isinstance(event, Phase):
            self.phase = event
        elif isinstance(event, Ended):
            self.ended[event.generation] = event
        elif isinstance(event, Checked):
            self.checked[event.generation] = event
        elif isinstance(event, Finished):
            self.finished = event
        elif isinstance(event, Failed):
            self.failed = event.message

    @property
    def done(self) -> bool:
        return self.finished is not None or self.failed is not None


def training_text(progress: TrainingProgress | None, step: TrainStep, opponent: str | None,
                  narrow: bool) -> Text:
    settings = step.settings
    text = Text("Training AlphaZero", style="bold")
    text.append(f"  seed {settings.seed} · up to {clock(step.seconds)}\n", style="dim")
    if progress is None:
        text.append(f"Press {START_KEY} to start the training.\n", style="bold")
        return text
    if progress.failed:
        text.append(f"The training failed: {progress.failed}\n", style="bold red")
    elif progress.finished:
        done = progress.finished
        text.append(f"Done: {done.generations} generations in {clock(done.seconds)}; "
                    f"the net is generation {done.accepted_generation}'s.\n", style="bold")
    elif progress.phase is not None:
        phase = progress.phase
        what = "the untrained net" if phase.generation == 0 else \
            f"generation {phase.generation}"
        count = f" {phase.done} of {phase.total}" if phase.phase != "checking" else ""
        text.append(f"{what}: {phase.phase}{count} · {clock(phase.seconds)} of "
                    f"{clock(step.seconds)}\n")
    else:
        text.append("starting…\n")
    text.append(table(progress, opponent, narrow))
    return text


def table(progress: TrainingProgress, opponent: str | None, narrow: bool) -> Text:
    """A line per generation: its losses and gate (from generation 1), and its net's
    games against the opponent (when accepted)."""
    text = Text()
    header = "gen  policy  value   gate" if narrow else \
        "generation  policy loss  value loss    gate  net     "
    label = "" if narrow else f"  vs {opponent}:"
    checks = f"{label} won drawn lost" if opponent else ""
    text.append(header + checks + "\n", style="bold")
    numbers = sorted(set(progress.ended) | set(progress.checked))
    rows = ROWS_NARROW if narrow else ROWS
    if len(numbers) > rows:  # the untrained net, then the latest
        numbers = numbers[:1] + numbers[1 - rows:]
    for number in numbers:
        ended, checked = progress.ended.get(number), progress.checked.get(number)
        if ended is None:
            figures = ("-", "-", "-", "")
        else:
            score = "-" if ended.score is None else f"{100 * ended.score:.0f}%"
            figures = (f"{ended.policy_loss:.3f}", f"{ended.value_loss:.3f}", score,
                       "kept" if ended.accepted else "dropped")
        if narrow:
            text.append(f"{number:>3}  {figures[0]:>6}  {figures[1]:>5}  {figures[2]:>5}")
        else:
            text.append(f"{number:>10}  {figures[0]:>11}  {figures[1]:>10}  "
                        f"{figures[2]:>6}  {figures[3]:<8}")
        if checked is not None:
            text.append(f"{' ' * len(label)} {checked.won:>3} {checked.drawn:>5} ")
            text.append(f"{checked.lost:>4}", style="bold red" if checked.lost else
                        "bold green")
        text.append("\n")
    return text
