"""Lessons: a teacher's script of positions, searches and captions, shown a step at a
time (`plyground lesson run / check / export`; the format is in docs/lessons.md).

A lesson file is TOML: a title and scenes; a scene is a game, a position, the sides, a
caption and steps; each step does one thing (play moves, search, move through the
search's recorded events, highlight moves, or only wait) and may change the caption.
`read_lesson` parses a file and `compile_lesson` plays it through, running every
search (each is seeded and bounded by depth, nodes or iterations, never by the clock,
so a lesson gives the same slides every time): one `Slide` per scene opening and per
step. Every fault is collected with its scene and line, so `lesson check` names them
all at once.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from ..game import Game, parse_game
from ..errors import PlygroundError, shown
from ..paths import UnreadableFile, parse_toml, read_text_file
from ..records.record import load_record
from ..search.control import Budget
from ..search.events import TRACE_CAP, TRACE_EVENTS, NodeLeft, Recorder, SearchDone
from ..search.replay import PHASES, MctsReplay, Replay, TreeReplay, replay_for
from ..trust import NeedsTrust, Trust, untrusted
from ..agents.base import Shows
from ..catalogue import parse_agent
from ..play.match import parse_side
from .lesson_train import TrainStep, check_trains, read_train
from .lesson_files import files_beside, record_beside
from .lesson_work import past_most_searches

LESSON_KEYS = {"title", "otherwise", "scene"}
SCENE_KEYS = {"title", "game", "position", "record", "sides", "caption", "step"}
ACTIONS = ("play", "search", "show", "highlight", "train", "wait")
STEP_KEYS = {"caption", *ACTIONS}
# what `show` takes besides an event number, and the kind of search each is for
SHOW_WORDS = {"next cutoff": TreeReplay.kind, "next table hit": TreeReplay.kind,
              "next iteration": None, "end": None, "next phase": MctsReplay.kind,
              **{f"next {name}": MctsReplay.kind for name in PHASES.values()}}
SEARCH_NAMES = {TreeReplay.kind: "tree", MctsReplay.kind: "MCTS"}
# A lesson's search records at most TRACE_CAP events (as the app's step mode). Its
# ceiling: the work whose every step that recording holds (a tree search's node is
# entered and left, an MCTS iteration has four phases); beyond it a shared lesson
# could keep a machine busy for hours.
EVENTS_PER_UNIT = {Shows.VISITS: 4}  # else 2: a node entered and left


class LessonError(PlygroundError):
    """A lesson that cannot be shown; `faults` lists every problem found."""

    def __init__(self, faults: list["Fault"]) -> None:
        self.faults = faults
        first = faults[0]
        more = f" (and {len(faults) - 1} more: `plyground lesson check` lists them)" \
            if len(faults) > 1 else ""
        super().__init__(f"{first}{more}")


@dataclass(frozen=True)
class Fault:
    file: str
    line: int | None
    scene: int | None  # 1-based
    problem: str
    outside: tuple[str, ...] = ()  # the agents from outside it names, not trusted

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        scene = f" scene {self.scene}:" if self.scene else ""
        return f"{where}:{scene} {self.problem}"


def toml_fault(file: str, error: tomllib.TOMLDecodeError) -> Fault:
    """A file that is not TOML, as one fault at the line tomllib names."""
    found = re.search(r"\(at line (\d+), column \d+\)", str(error))
    problem = re.sub(r"\s*\(at line.*\)$", "", str(error))
    return Fault(file, int(found.group(1)) if found else None, None, f"not TOML: {problem}")


@dataclass
class Step:
    line: int | None
    caption: str | None
    action: str  # one of ACTIONS
    value: Any


@dataclass
class Scene:
    number: int  # 1-based
    line: int | None
    title: str
    game: Game
    start: Any  # the state the scene opens on
    sides: tuple[str, str]
    caption: str
    steps: list[Step]


@dataclass
class Lesson:
    path: Path
    title: str
    scenes: list[Scene]


@dataclass
class ShownSearch:
    """A search a step ran, and where in its recorded events the slide stands."""

    agent: Any  # the agent that searched
    state: Any  # the position searched
    done: SearchDone
    events: tuple  # what it reported as it went (iterations, snapshots): the live view's
    replay: Replay | None  # its recorded steps
    truncated: bool
    index: int | None = None  # the step shown (0-based), None: the decision
    capped: str | None = None  # the line saying the step mode's ceiling cut it short

    def at(self, index: int) -> "ShownSearch":
        return replace(self, index=index)


@dataclass
class Slide:
    """What one step of a lesson shows."""

    scene: Scene
    step: int  # 0: the scene's opening, else the step's number
    caption: str
    state: Any
    before: Any = None  # the position before the last move played (None: none played)
    search: ShownSearch | None = None
    highlight: tuple = ()
    training: TrainStep | None = None  # a training the learner starts on this slide


# --- reading ---------------------------------------------------------------------------


class Lines:
    """Where the tables and keys of a lesson file are: tomllib keeps no positions, so
    the file's `[[scene]]` and `[[scene.step]]` headers are found in its text (the
    format writes scenes and steps as such tables)."""

    HEADER = re.compile(r"^\s*\[\[\s*scene(\s*\.\s*step)?\s*\]\]")

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.scenes: list[int] = []  # each scene's header line (1-based)
        self.steps: list[list[int]] = []  # each scene's steps' header lines
        for number, line in enumerate(self.lines, 1):
            match = self.HEADER.match(line)
            if match and not match.group(1):
                self.scenes.append(number)
                self.steps.append([])
            elif match and self.steps:
                self.steps[-1].append(number)

    def scene(self, index: int) -> int | None:
        return self.scenes[index] if index < len(self.scenes) else None

    def step(self, scene: int, index: int) -> int | None:
        steps = self.steps[scene] if scene < len(self.steps) else []
        return steps[index] if index < len(steps) else self.scene(scene)

    def key(self, start: int | None, name: str) -> int | None:
        """The line of `name = ...` in the table whose header is at `start`."""
        if start is None:
            return None
        pattern = re.compile(rf"^\s*{re.escape(name)}\s*=")
        for number in range(start + 1, len(self.lines) + 1):
            line = self.lines[number - 1]
            if self.HEADER.match(line) or re.match(r"^\s*\[", line):
                break
            if pattern.match(line):
                return number
        return start


def read_lesson(path: str | Path, trust: Trust = False) -> tuple[Lesson, list[Fault]]:
    """The lesson in the file, and every fault its text has (an unreadable file, a
    TOML error, an unknown key, a game, position or side that is not one, a step
    that is not one, an agent from outside plyground that `trust` does not cover:
    nothing of it is imported or started). A scene whose game, position or sides have
    a fault is left out of the lesson, and a faulty step out of its scene (with the
    steps after it, if it played moves)."""
    path = Path(path)
    name = shown(str(path))
    try:
        text = read_text_file(path, "lesson")
    except UnreadableFile as error:
        return Lesson(path, "", []), [Fault(name, None, None,
                                            f"cannot read it: {error.reason}")]
    try:
        data = parse_toml(text)
    except tomllib.TOMLDecodeError as error:
        return Lesson(path, "", []), [toml_fault(name, error)]
    lines = Lines(text)
    faults: list[Fault] = []
    for key in sorted(set(data) - LESSON_KEYS):
        faults.append(Fault(name, lines.key(0, key) or None, None,
                            f"unknown key {key!r} (a lesson has a title, scenes and "
                            "perhaps otherwise)"))
    other = data.get("otherwise")
    if other is not None:
        try:  # (the folder rule first: a lesson asks nothing of other files)
            if not record_beside(path.parent, other, "otherwise").is_file():
                raise PlygroundError(f"otherwise names {other!r}, which is not a "
                                     "lesson file beside this one")
        except PlygroundError as error:
            faults.append(Fault(name, lines.key(0, "otherwise") or None, None,
                                str(error)))
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        faults.append(Fault(name, lines.key(0, "title") or None, None,
                            "the lesson needs a title (title = \"...\")"))
        title = ""
    scenes = data.get("scene")
    if not isinstance(scenes, list) or not scenes:
        faults.append(Fault(name, None, None, "the lesson has no scenes ([[scene]] tables)"))
        scenes = []
    lesson = Lesson(path, title, [])
    for index, table in enumerate(scenes):
        scene, found = read_scene(table, index, lines, name, path.parent, trust)
        faults.extend(found)
        if scene is not None:  # (its faulty steps left out)
            lesson.scenes.append(scene)
    faults.extend(past_most_searches(lesson.scenes, lambda *at: Fault(name, *at)))
    return lesson, faults


def read_scene(table: Any, index: int, lines: Lines, name: str, folder: Path,
               trust: Trust) -> tuple[Scene | None, list[Fault]]:
    number, line = index + 1, lines.scene(index)

    def fault(problem: str, key: str | None = None, at: int | None = None,
              outside: tuple[str, ...] = ()) -> Fault:
        return Fault(name, at or (lines.key(line, key) if key else line), number, problem,
                     outside)

    if not isinstance(table, dict):
        return None, [fault("a scene is a [[scene]] table")]
    faults = [fault(f"unknown key {key!r} (scene keys: {', '.join(sorted(SCENE_KEYS))})",
                    key) for key in sorted(set(table) - SCENE_KEYS)]
    text = {key: table.get(key, "") for key in ("title", "caption")}
    for key, value in text.items():
        if not isinstance(value, str):
            faults.append(fault(f"{key} is text, in quotes", key))
    game = start = None
    players = ["human", "human"]
    if "record" in table and ("game" in table or "position" in table):
        faults.append(fault("a scene gives a record, or a game and a position, not both",
                            "record"))
    elif "record" in table:
        try:
            record = load_record(record_beside(folder, table["record"]))
            game, start, players = record.game, record.final, list(record.players)
        except PlygroundError as error:
            faults.append(fault(str(error), "record"))
    elif "game" not in table:
        faults.append(fault("the scene needs a game (game = \"connect4\") or a record"))
    else:
        try:
            game = parse_game(str(table["game"]))
        except PlygroundError as error:
            faults.append(fault(str(error), "game"))
        else:
            try:
                start = game.parse_position(str(table.get("position", ""))) \
                    if table.get("position") else game.start()
            except PlygroundError as error:
                faults.append(fault(f"position: {error}", "position"))
    sides = table.get("sides", players)
    if not (isinstance(sides, list) and len(sides) == 2
            and all(isinstance(side, str) for side in sides)):
        faults.append(fault("sides is a list of two players, as in "
                            "[\"human\", \"alphabeta:depth=4\"]", "sides"))
        sides = ["human", "human"]
    elif game is not None:
        sides = list(sides)
        for which, side in enumerate(sides):
            outside = untrusted([side], trust)
            if outside:
                faults.append(fault(f"sides: {NeedsTrust(outside, 'the scene')}", "sides",
                                    outside=(side,)))
                continue
            try:
                sides[which] = files_beside(side, folder)
                agent = parse_side(sides[which])
            except PlygroundError as error:
                faults.append(fault(f"sides: {error}", "sides"))
                continue
            if agent is not None and not agent.plays(game):
                faults.append(fault(f"sides: {agent.title} does not play {game.title}",
                                    "sides"))
    steps_table = table.get("step", [])
    if not isinstance(steps_table, list):
        faults.append(fault("steps are [[scene.step]] tables", "step"))
        steps_table = []
    scene_faults = bool(faults) or game is None
    steps = []
    for step_index, step_table in enumerate(steps_table):
        step, found = read_step(step_table, lines.step(index, step_index), fault)
        if step is not None and step.action == "search" and isinstance(step.value, str):
            outside = untrusted([step.value], trust)
            if outside:
                step, found = None, [fault(f"search: {NeedsTrust(outside, 'the step')}",
                                           at=step.line, outside=(step.value,))]
            else:
                step, found = searched_step(step, folder, fault)
        if step is not None and step.action == "train" and game is not None:
            step, found = trained_step(step, game, trust, folder, fault)
        faults.extend(found)
        if step is not None:
            steps.append(step)
        elif isinstance(step_table, dict) and "play" in step_table:
            break  # the moves after it would be checked from the wrong position
    if scene_faults:
        return None, faults
    return Scene(number, line, text["title"], game, start, tuple(sides),
                 text["caption"], steps), faults


def searched_step(step: Step, folder: Path, fault) -> tuple[Step | None, list[Fault]]:
    """A search step whose agent's files, if it names any, are the lesson's."""
    try:
        return replace(step, value=files_beside(step.value, folder)), []
    except PlygroundError as error:
        return None, [fault(f"search: {error}", at=step.line)]


def trained_step(step: Step, game: Game, trust: Trust, folder: Path, fault
                 ) -> tuple[Step | None, list[Fault]]:
    """A train step checked against its scene's game: one it can learn, and an
    opponent that plays it, that `trust` covers and whose files are the lesson's."""
    against = step.value.against
    outside = untrusted([against], trust) if against else []
    if outside:
        return None, [fault(f"train: against: {NeedsTrust(outside, 'the step')}",
                            at=step.line, outside=(against,))]
    try:
        if against:
            against = files_beside(against, folder)
            step = replace(step, value=replace(step.value, against=against))
        check_trains(step.value, game)
    except PlygroundError as error:
        return None, [fault(f"train: {error}", at=step.line)]
    return step, []


def read_step(table: Any, line: int | None, fault) -> tuple[Step | None, list[Fault]]:
    if not isinstance(table, dict):
        return None, [fault("a step is a [[scene.step]] table", at=line)]
    unknown = sorted(set(table) - STEP_KEYS)
    if unknown:
        return None, [fault(f"unknown key {unknown[0]!r} in a step (a step has a caption "
                            f"and one of: {', '.join(ACTIONS)})", at=line)]
    actions = [key for key in ACTIONS if key in table]
    caption = table.get("caption")
    if caption is not None and not isinstance(caption, str):
        return None, [fault("caption is text, in quotes", at=line)]
    if len(actions) > 1:
        return None, [fault(f"a step does one thing; this one has {' and '.join(actions)}",
                            at=line)]
    if not actions and caption is None:
        return None, [fault(f"an empty step: give a caption or one of: {', '.join(ACTIONS)}",
                            at=line)]
    action = actions[0] if actions else "wait"
    value = table.get(action, True)
    kinds = {"play": (list, str), "search": (str, bool), "show": (int, str),
             "highlight": (list, str), "train": (dict,), "wait": (bool,)}
    if not isinstance(value, kinds[action]) or (action == "show"
                                                 and isinstance(value, bool)):
        examples = {"play": 'play = ["4", "3"]', "search": 'search = "alphabeta:depth=4"',
                    "show": 'show = 12, or show = "next cutoff"',
                    "highlight": 'highlight = ["4"]',
                    "train": "train = {seconds = 90, seed = 1}", "wait": "wait = true"}
        return None, [fault(f"{action} takes a value as in {examples[action]}", at=line)]
    if action == "show" and isinstance(value, str) and value not in SHOW_WORDS:
        return None, [fault(f"show {value!r}: an event number, or one of "
                            f"{', '.join(map(repr, SHOW_WORDS))}", at=line)]
    if action == "show" and isinstance(value, int) and value < 1:
        return None, [fault(f"show {value}: events are numbered from 1", at=line)]
    if action == "train":
        try:
            value = read_train(value)
        except PlygroundError as error:
            return None, [fault(str(error), at=line)]
    return Step(line, caption, action, value), []


# --- playing a lesson through ----------------------------------------------------------


def compile_lesson(lesson: Lesson, faults: list[Fault] | None = None,
                   progress: Callable[[Scene, Step], None] | None = None) -> list[Slide]:
    """Every slide of the lesson, its searches run (`progress` told of each step first).
    A step that cannot be done (an illegal move, a step past the end of a search) adds
    a fault to `faults`; the scene is checked on without it, up to a move that could
    not be played."""
    faults = [] if faults is None else faults
    name = shown(str(lesson.path))
    slides: list[Slide] = []
    for scene in lesson.scenes:
        slide = Slide(scene, 0, scene.caption, scene.start)
        slides.append(slide)
        for number, step in enumerate(scene.steps, 1):
            if progress is not None:
                progress(scene, step)
            try:
                slide = next_slide(slide, step, number)
            except PlygroundError as error:
                faults.append(Fault(name, step.line, scene.number, f"{step.action}: {error}"))
                if step.action == "play":
                    break
                continue
            slides.append(slide)
    return slides


def next_slide(slide: Slide, step: Step, number: int) -> Slide:
    """The slide `step` makes of the one before it (raises PlygroundError)."""
    scene, game = slide.scene, slide.scene.game
    after = Slide(scene, number, slide.caption if step.caption is None else step.caption,
                  slide.state, slide.before, slide.search, slide.highlight)
    if step.action == "play":
        texts = [step.value] if isinstance(step.value, str) else step.value
        for text in texts:
            if after.state.outcome() is not None:
                raise PlygroundError(f"{shown(str(text))}: the game is over")
            move = game.parse_move(str(text), after.state)
            after.before, after.state = after.state, after.state.play(move)
        after.highlight, after.search = (), None
    elif step.action == "search":
        after.search = run_search(after.state, step.value, scene)
        after.highlight = ()
    elif step.action == "show":
        if slide.search is None:
            raise PlygroundError("there is no search to show: put a search step first")
        after.search = slide.search.at(event_index(slide.search, step.value))
    elif step.action == "train":
        after.training, after.search = step.value, None
    elif step.action == "highlight":
        texts = [step.value] if isinstance(step.value, str) else step.value
        after.highlight = tuple(game.parse_move(str(text), after.state) for text in texts)
    return after


def run_search(state, spec: str | bool, scene: Scene) -> ShownSearch:
    """The search a step asks for (`true`: the side to move's agent), recorded."""
    if state.outcome() is not None:
        raise PlygroundError("the game is over: there is nothing to search")
    if spec is True:
        spec = scene.sides[state.to_move]
        if spec.strip() == "human":
            raise PlygroundError("the side to move is played by a human: name an agent, "
                                 "as in search = \"alphabeta:depth=4\"")
    elif spec is False:
        raise PlygroundError('search takes an agent, as in search = "alphabeta:depth=4"')
    agent = parse_agent(spec)
    if not agent.plays(state.game):
        raise PlygroundError(f"{agent.title} does not play {state.game.title}")
    budget = agent.budget()
    if budget.time is not None:
        raise PlygroundError(f"{spec}: a lesson's search is bounded by depth, nodes or "
                             "iterations, not by the clock (it must give the same steps "
                             "every time)")
    budget, unit, ceiling = within_ceiling(agent, budget)
    recorder = Recorder(trace=True, cap=TRACE_CAP)
    agent.prepare()
    done = agent.decide(state, budget, observer=recorder)
    capped = None if done.work < ceiling else (
        f"{spec} stopped at {ceiling:,} {unit}, the ceiling of a lesson's search (as "
        "of the app's step mode)")
    live = tuple(event for event in recorder.events
                 if not isinstance(event, (SearchDone, *TRACE_EVENTS)))
    return ShownSearch(agent, state, done, live,
                       replay_for(recorder.events), recorder.truncated, capped=capped)


def within_ceiling(agent, budget: Budget) -> tuple[Budget, str, int]:
    """`budget` held to the ceiling of the app's step mode (as many nodes, or MCTS
    iterations, as its recording holds), with the unit and the ceiling."""
    unit = "iterations" if agent.shows == Shows.VISITS else "nodes"
    ceiling = TRACE_CAP // EVENTS_PER_UNIT.get(agent.shows, 2)
    asked = getattr(budget, unit)
    held = ceiling if asked is None else min(asked, ceiling)  # 0: az's policy alone
    return replace(budget, **{unit: held}), unit, ceiling


def ceiling_notes(lesson: Lesson, slides: list[Slide]) -> list[str]:
    """A line for each search of the lesson that the ceiling stopped."""
    name = shown(str(lesson.path))
    return [str(Fault(name, slide.scene.steps[slide.step - 1].line, slide.scene.number,
                      f"note: {slide.search.capped}")) for slide in slides
            if slide.search is not None and slide.search.index is None
            and slide.search.capped]


def event_index(search: ShownSearch, where: int | str) -> int:
    """The 0-based event a `show` step names, from where the search stands."""
    replay = search.replay
    if replay is None or not len(replay):
        raise PlygroundError(f"{search.agent.label} recorded no steps to show")
    last = len(replay)
    cap = " (its recording stopped at its cap)" if search.truncated else ""
    if isinstance(where, int):
        if where > last:
            raise PlygroundError(f"event {where}: the search has {last:,} events{cap}")
        return where - 1
    wanted = SHOW_WORDS[where]
    if wanted is not None and wanted != replay.kind:
        raise PlygroundError(f"{where!r} is for {SEARCH_NAMES[wanted]} searches; "
                             f"{search.agent.label} is not one")
    start = -1 if search.index is None else search.index
    if where == "end":
        return last - 1
    if where == "next iteration":
        found = replay.next_iteration(start) if start >= 0 else 0
        if found <= start:
            raise PlygroundError(f"no iteration after event {start + 1}{cap}")
        return found
    for index in range(start + 1, last):
        event = replay.events[index]
        if (where == "next cutoff" and isinstance(event, NodeLeft) and event.cutoff
                or where == "next table hit" and isinstance(event, NodeLeft)
                and event.source == "table"
                or where == "next phase"
                or where.startswith("next ") and PHASES.get(type(event)) == where[5:]):
            return index
    what = where.removeprefix("next ").replace("cutoff", "cut-off")
    after = f"after event {start + 1} of {last:,}" if start >= 0 else \
        f"in the search's {last:,} events"
    raise PlygroundError(f"no {what} {after}{cap}")


def played_through(path: str | Path, trust: Trust = False, progress=None
                   ) -> tuple[Lesson, list[Slide], list[Fault]]:
    """The lesson, its slides, and every fault found reading and playing it through,
    in the order of their lines (`progress`: as compile_lesson's)."""
    lesson, faults = read_lesson(path, trust)
    slides = compile_lesson(lesson, faults, progress)
    return lesson, slides, sorted(faults, key=lambda fault: fault.line or 0)


def check_lesson(path: str | Path, trust: Trust = False
                 ) -> tuple[list[Slide], list[Fault]]:
    """The lesson's slides and every fault found."""
    _, slides, faults = played_through(path, trust)
    return slides, faults


def load_lesson(path: str | Path, trust: Trust = False) -> tuple[Lesson, list[Slide]]:
    """The lesson and its slides; raises LessonError naming every fault."""
    lesson, slides, faults = played_through(path, trust)
    if faults:
        raise LessonError(faults)
    return lesson, slides

