"""The pace of a game between two agents on the game screen: `p` pauses it (the search
running ends, and its move is played; the next waits) and resumes it, `.` plays one
move and pauses again. A component the screen holds (`screen.pace`); whether the game
is paused is the screen's `paused`, which the status line and the players' bar show.
"""
from __future__ import annotations


class GamePace:
    """Pause, resume and one move at a time, when two agents play."""

    def __init__(self, screen) -> None:
        self.screen = screen

    def pause(self) -> None:
        screen = self.screen
        if not screen.match.watching:
            screen.refuse("Pause is for watching two agents play.")
            return
        screen.paused = not screen.paused
        if screen.paused:
            screen.cancel_timer()
            screen.status.refresh_players()
            if screen.search is None:
                screen.after_move(animate=False)
        elif screen.search is None:
            screen.after_move(animate=False)
        else:
            screen.status.refresh_players()

    def step_move(self) -> None:
        screen = self.screen
        if not screen.match.watching:
            screen.refuse("Stepping move by move is for watching two agents play.")
            return
        screen.paused = True
        screen.status.refresh_players()
        if screen.search is None and screen.match.outcome is None:
            screen.searching.start()
