"""The game screen's step mode (`s`, `d`): the search behind the last move an agent
played, stepped through in the inspector's step view; when it was not recorded step by
step, it is recorded again (a trace, in the engine) first. Which search, and how, is
SearchDriver.step_through's choice; this component shows it.
"""
from __future__ import annotations

from rich.text import Text

from plyground.core.search.replay import replay_for

from ..search_driver import Purpose, SearchRecord, TracePlan, check_replay

CHECK_STYLES = {True: "bold green", False: "bold red", None: "yellow"}  # a replay's check


class GameSteps:
    """Step mode on one game screen, a component the screen holds (`screen.steps`)."""

    def __init__(self, screen) -> None:
        self.screen = screen

    def step_through(self) -> None:
        """`s`: step through the search behind the last move an agent played; `s`
        while it is recorded stops it."""
        screen = self.screen
        if screen.search is not None:
            if screen.search.purpose == Purpose.MOVE:
                screen.refuse("Wait until the search ends (or pause) to step through it.")
                return
            screen.cancel_search()  # s again: stop recording
            screen.inspector.leave_step()
            screen.tell("Recording stopped.")
            screen.after_move(animate=False)
            return
        choice = screen.driver.step_through(screen.match)
        if isinstance(choice, str):
            screen.refuse(choice)
        elif isinstance(choice, TracePlan):
            self.record(choice)
        else:
            self.open(choice)

    def quick_replay(self) -> None:
        """`d`: while a long replay is recorded, a quicker one instead."""
        plan = self.screen.driver.quick_plan()
        if plan is None:
            self.screen.refuse("d makes a quicker replay while a long replay is being "
                               "recorded.")
            return
        self.record(plan)

    def record(self, plan: TracePlan) -> None:
        """Record a search step by step (the decision's view stays as it is; the
        summary shows the recording's progress)."""
        screen = self.screen
        screen.cancel_timer()
        screen.driver.start_trace(screen.match.game, plan)
        self.show_progress()
        screen.searching.refresh()
        screen.refresh_bindings()

    def show_progress(self) -> None:
        screen = self.screen
        text = Text(f"Recording {screen.search.title}, step by step…\n", style="bold")
        text.append(screen.driver.recording())
        screen.inspector.replaying(text)

    def open(self, record: SearchRecord) -> None:
        """The step view of a recorded search, titled with whose search it was and
        whether the replay matches the decision."""
        screen = self.screen
        replay = replay_for(record.trace or [])
        if replay is None:
            screen.refuse("That search recorded no steps.")
            return
        side = screen.side_label(record.state.to_move)  # as the step view's lines name it
        title = Text(f"{side}: {record.agent.label} with {side} to move — {record.title}",
                     style="bold")
        if record.note:
            title.append("\n" + record.note, style="yellow")
        check = check_replay(record, screen.match.game)
        if check is not None:
            title.append("\n")
            title.append(check.text, style=CHECK_STYLES[check.matches])
        screen.inspector.step(replay, screen.match.game, record.state, title,
                              record.truncated)
