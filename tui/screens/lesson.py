"""Presentation mode (`plyground lesson run`): a lesson's slides one at a time.

A large board, the caption under it, and the inspector beside it: the search a step ran
(its tree or its table, and the decision), or the event of the recorded search a step
stands on. Space, Enter or → moves on; ← or Backspace goes back; Home and End jump.
Every slide was made before the screen opened (core/study/lesson.py), so moving is instant.
"""
from __future__ import annotations

from rich.cells import cell_len, set_cell_size
from rich.markdown import Markdown
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from plyground.core.errors import visible
from plyground.core.study.lesson import Lesson, Slide

from plyground.core.study.lesson_train import TrainingRun

from ..arena_driver import start_resource_tracker
from ..lesson_training import START_KEY, TrainingProgress, training_text
from ..widgets.boards import BoardWidget, board_for
from ..widgets.inspector import Inspector
from ..widgets.inspector.step_view import StepView


MIN_TITLE = 4  # columns a cut title keeps, … included


def title_line(lesson: str, scene: str, scene_count: str, step: str, slide: str,
              width: int) -> Text:
    """`Lesson  ·  scene 2 of 4: Scene  ·  step 3 of 5  ·  slide 7 of 20` in `width`
    columns (0: not laid out yet, as long as it is): the scene's title, then the
    lesson's, cut with … to make room, the counts never."""
    counts = [f"{scene_count}: " if scene else scene_count, step, slide]
    titles = [lesson, scene]
    for gap in ("  ·  ", " · "):  # the wide gaps first, when all fits whole
        fixed = cell_len(gap) * 3 + sum(cell_len(count) for count in counts)
        if not width or fixed + cell_len(lesson) + cell_len(scene) <= width:
            break
    else:
        for index in (1, 0):  # the scene's title gives way first
            room = width - fixed - cell_len(titles[1 - index])
            titles[index] = shortened(titles[index], max(room, MIN_TITLE))
    lesson, scene = titles
    line = Text(lesson, style="bold")
    line.append(f"{gap}{counts[0]}{scene}{gap}{step}")
    line.append(f"{gap}{slide}", style="dim")
    return line


def shortened(text: str, width: int) -> str:
    """`text` in at most `width` columns, cut with … (at least its first letter)."""
    if cell_len(text) <= width:
        return text
    return set_cell_size(text, max(width - 1, 1)).rstrip() + "…"


class LessonScreen(Screen):
    DEFAULT_CSS = """
    LessonScreen #lesson-title { height: 1; padding: 0 1; background: $panel; }
    LessonScreen #lesson-main { height: 1fr; }
    LessonScreen #lesson-left { width: 52; padding: 0 1; }
    LessonScreen .lesson-board { margin: 1 0; }
    LessonScreen #caption { height: 1fr; margin: 0; padding: 0; }
    LessonScreen #inspector { width: 1fr; }
    LessonScreen #training { width: 1fr; padding: 0 1; display: none; }
    LessonScreen.-training #training { display: block; }
    LessonScreen.-training #inspector { display: none; }
    LessonScreen.-small #lesson-left { width: 38; }
    LessonScreen.-small .lesson-board { margin: 0; }
    """
    # priority: the presenter's keys work wherever the focus is (a click on the tree)
    BINDINGS = [
        Binding("space,right,enter", "go(1)", "Next", priority=True),
        Binding("left,backspace", "go(-1)", "Back", priority=True),
        Binding("home", "jump(0)", "First", priority=True),
        Binding(START_KEY, "train", "Train", priority=True),
        Binding("end", "jump(-1)", "Last", priority=True),
        Binding("q,escape", "app.quit", "Quit", priority=True),
    ]
    LARGE = (120, 40)  # the terminal size from which the board is drawn large

    def __init__(self, lesson: Lesson, slides: list[Slide]) -> None:
        super().__init__()
        self.lesson = lesson
        self.slides = slides
        self.index = 0
        self.board: BoardWidget | None = None
        # a train step's slide -> its training's progress, and the process running it
        self.trainings: dict[int, TrainingProgress] = {}
        self.runs: dict[int, TrainingRun] = {}

    def compose(self) -> ComposeResult:
        yield Static(id="lesson-title")
        with Horizontal(id="lesson-main"):
            with Vertical(id="lesson-left"):
                yield Static(id="caption")
            yield Inspector(id="inspector")
            yield Static(id="training")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Inspector).timed = False  # the same slides every time
        self.show_slide()

    def on_resize(self) -> None:
        self.fit_board()
        self.call_after_refresh(self.show_title)  # once the title line has its width

    def show_title(self) -> None:
        """The lesson's and the scene's titles, cut with … where the line is short,
        and where the presenter is, always whole: scene, step and slide."""
        slide = self.slide
        scene = slide.scene
        # the titles are the lesson file's words: escapes shown
        line = title_line(visible(self.lesson.title), visible(scene.title or ""),
                          f"scene {scene.number} of {len(self.lesson.scenes)}",
                          f"step {slide.step} of {len(scene.steps)}" if slide.step
                          else "opening",
                          f"slide {self.index + 1} of {len(self.slides)}",
                          self.query_one("#lesson-title").content_size.width)
        self.query_one("#lesson-title", Static).update(line)

    @property
    def small(self) -> bool:
        width, height = self.LARGE
        return self.app.size.width < width or self.app.size.height < height

    def fit_board(self) -> None:
        """A small terminal gets the compact board, and the inspector the room."""
        self.set_class(self.small, "-small")
        if self.board is not None:
            self.board.set_large(not self.small)

    def action_go(self, delta: int) -> None:
        self.jump_to(self.index + delta)

    def action_jump(self, index: int) -> None:
        self.jump_to(index if index >= 0 else len(self.slides) - 1)

    def jump_to(self, index: int) -> None:
        index = max(0, min(len(self.slides) - 1, index))
        if index != self.index:
            self.index = index
            self.show_slide()

    @property
    def slide(self) -> Slide:
        return self.slides[self.index]

    def show_slide(self) -> None:
        slide = self.slide
        self.show_title()
        self.show_board(slide)
        # rich's Markdown: drawn at once (Textual's Markdown widget updates later)
        self.query_one("#caption", Static).update(Markdown(visible(slide.caption,
                                                                   lines=True)))
        self.show_search(slide)
        self.set_class(slide.training is not None, "-training")
        self.show_training()
        # the presenter's keys in the footer, not a view's (a view takes the focus)
        self.call_after_refresh(self.set_focus, None)

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "train":  # in the footer on a train step's slide alone
            return self.slide.training is not None and self.index not in self.runs
        return True

    def action_train(self) -> None:
        """Start the slide's training, in a process of its own (the screen stays
        live); its events come back on the run's thread."""
        step = self.slide.training
        if step is None or self.index in self.runs:
            return
        index = self.index
        self.trainings[index] = progress = TrainingProgress(step, self.opponent(step))

        def changed(event) -> None:
            progress.add(event)
            self.app.call_from_thread(self.show_training)

        start_resource_tracker()  # the run's queue needs it, with a real stderr
        self.runs[index] = TrainingRun(self.slide.scene.game.spec, step, changed)
        self.refresh_bindings()
        self.show_training()

    def opponent(self, step) -> str | None:
        from plyground.core.catalogue import parse_agent

        return parse_agent(step.against).title if step.against else None

    def show_training(self) -> None:
        step = self.slide.training
        if step is None:
            return
        progress = self.trainings.get(self.index)
        opponent = progress.opponent if progress else self.opponent(step)
        self.query_one("#training", Static).update(
            training_text(progress, step, opponent, self.small))

    def on_unmount(self) -> None:
        for run in self.runs.values():
            run.stop()

    def show_board(self, slide: Slide) -> None:
        game = slide.scene.game
        if self.board is None or self.board.game != game:
            if self.board is not None:
                self.board.remove()
            # a class, not an id: the board removed may not be gone yet
            self.board = board_for(game, classes="lesson-board")
            self.board.can_focus = False
            self.board.set_large(not self.small)
            self.query_one("#lesson-left").mount(self.board, before=0)
        self.board.set_interactive(False)
        self.board.show_reached(slide.state, slide.before)
        self.board.show_marks(slide.highlight)

    def show_search(self, slide: Slide) -> None:
        inspector = self.query_one(Inspector)
        search = slide.search
        if search is None:
            inspector.idle("No search in this step yet.")
            return
        game = slide.scene.game
        side = game.side_labels[search.state.to_move]
        agent = search.agent
        inspector.begin(game, search.state, agent, side)
        inspector.feed(list(search.events))
        inspector.finish(search.done, side)
        if search.index is not None and search.replay is not None:
            title = Text(f"{agent.label}: the search, step by step", style="bold")
            inspector.step(search.replay, game, search.state, title, search.truncated)
            inspector.query_one(StepView).go(search.index)
            inspector.set_summary(inspector.summary, keep=False)
