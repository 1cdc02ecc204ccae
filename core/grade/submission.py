"""A class's submissions: one folder a student, named for the student, and the agent
each holds, as the grading spec says how to find it (`agent = "bot.py:MyBot"` or
`engine = "./run.sh"`).

The grading process never imports a student's code nor starts it: a `Submission` is
an agent that only names the student's real agent by its spec, and travels to a
worker as that. It is `external`, so that a worker decides with it in a boxed child
of its own (core/play/isolation.py), which alone reads the spec and loads the
student's file: a module that calls `os._exit` or forks without end at import costs
that child, never the run.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

from ..agents.base import MEM, SEED, TIME, Agent
from ..agents.box import memory_text
from ..errors import PlygroundError, visible
from ..search.control import Budget
from .spec import GradingSpec

# what a student's folder name may hold to be put in an agent's spec as it stands
UNSPEAKABLE = set(':,"\'=') | {"\\"}


class Submission(Agent):
    """Student `student`'s agent, whose spec is `real` (a bot file's or an engine's),
    played under the spec's clock `time` and memory `mem`. `seeds`: whether the real
    agent takes a seed (a bot does, an engine does not), which a game then gives it as
    it gives plyground's own agents (core/play/match.seeded)."""

    kind, title = "submission", "Submission"
    settings_spec = (TIME, MEM, SEED)
    main_setting = "time"
    external = True

    def __init__(self, real: str = "", student: str = "", seeds: bool = False,
                 **settings) -> None:
        super().__init__(**settings)
        self.real, self.student, self.seeds = real, student, seeds
        # where what its process writes goes, and the most it may write (isolation's
        # redirect_output); None: the worker's own stderr
        self.output: tuple[str, int] | None = None

    def with_defaults(self, **defaults) -> "Submission":
        chosen = {name: self.settings[name] for name in self.given}
        extra = {k: v for k, v in defaults.items()
                 if k in self.settings and k not in self.given}
        made = Submission(self.real, self.student, self.seeds, **chosen, **extra)
        made.output = self.output
        if self.settings["mem"] is None:
            made.settings["mem"] = None
        return made

    @property
    def spec(self) -> str:
        if self.seeds and SEED.name in self.given:
            return f"{self.real},{SEED.name}={self.settings[SEED.name]}"
        return self.real

    @property
    def label(self) -> str:
        return visible(self.student)

    def budget(self) -> Budget:
        return Budget(time=self.settings["time"])

    def search(self, state, budget, observer, control, exact_root):
        raise PlygroundError("a submission decides only in a child process of its own")


@dataclass(frozen=True)
class Student:
    """A student's folder and, if it can be run at all, its agent; else `problem`,
    why not (found without running anything)."""

    name: str
    folder: Path
    agent: Submission | None
    problem: str | None = None


def students(submissions: Path) -> list[Path]:
    """The student folders of `submissions`, by name (hidden ones left out)."""
    try:
        found = sorted(entry for entry in submissions.iterdir()
                       if entry.is_dir() and not entry.name.startswith("."))
    except OSError as error:
        raise PlygroundError(f"cannot read the submissions folder "
                             f"{visible(str(submissions))}: "
                             f"{error.strerror or error}") from None
    if not found:
        raise PlygroundError(f"{visible(str(submissions))} holds no student folders "
                             "(one folder a student, named for the student)")
    return found


def student(spec: GradingSpec, folder: Path) -> Student:
    """The student of `folder`, with the agent the spec says it holds."""
    name = folder.name
    folder = folder.resolve()
    if UNSPEAKABLE & set(str(folder)) or not str(folder).isprintable():
        return Student(name, folder, None, "its folder's path holds a character an "
                       "agent's spec cannot (: , = quotes or a control character)")
    mem = memory_text(spec.mem) if spec.mem is not None else None
    if spec.agent is not None:
        file, _, cls = spec.agent.rpartition(":")
        path = folder / file
        if not path.is_file():
            return Student(name, folder, None, f"its folder has no {file}")
        real = f"{path}:{cls}:time={spec.time:g}" + (f",mem={mem}" if mem else "")
        return Student(name, folder, _agent(real, name, True, spec))
    command = shlex.join(["sh", "-c", f"cd {shlex.quote(str(folder))} && exec "
                          f"{spec.engine}"])
    real = f'engine:cmd="{command}",time={spec.time:g}' + (f",mem={mem}" if mem else "")
    agent = _agent(real, name, False, spec)
    agent.settings["mem"] = None  # its child only relays: the engine has the limit
    return Student(name, folder, agent)


def _agent(real: str, name: str, seeds: bool, spec: GradingSpec) -> Submission:
    settings = {"time": spec.time}
    if spec.mem is not None:
        settings["mem"] = spec.mem
    return Submission(real, name, seeds, **settings)


def one_student(spec: GradingSpec, agent: str) -> Student:
    """A student's own agent given on the command line (`grade student`), named for
    its folder: `path/to/bot.py:MyBot` or `engine:cmd=...`; the spec's clock and
    memory are added to it."""
    agent = agent.strip()
    mem = memory_text(spec.mem) if spec.mem is not None else None
    extra = f"time={spec.time:g}" + (f",mem={mem}" if mem else "")
    if agent.startswith("engine:"):
        real = f"{agent},{extra}"
        submission = _agent(real, "you", False, spec)
        submission.settings["mem"] = None
        return Student("you", Path.cwd(), submission)
    file, _, cls = agent.rpartition(":")
    path = Path(file).expanduser()
    if not file or not cls or not path.is_file():
        raise PlygroundError(f"{visible(agent)} is not a bot as path/to/bot.py:MyBot "
                             "(a Python file here and its class) nor an engine:cmd=...")
    path = path.resolve()
    name = path.parent.name or "you"
    if UNSPEAKABLE & set(str(path)) or not str(path).isprintable():
        raise PlygroundError(f"the bot's path {visible(str(path))} holds a character "
                             "an agent's spec cannot (: , = quotes or a control "
                             "character): copy it to a plainer folder")
    return Student(name, path.parent, _agent(f"{path}:{cls}:{extra}", name, True, spec))
