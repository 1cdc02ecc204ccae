"""Below the smallest terminal the screens are laid out for (80×24), the app says so in
one line, and nothing else, until the terminal is made larger: a screen squeezed into
less cuts its board, its status and its move list without a word. The screens stay as
they are underneath (a game in progress goes on, its agents keep moving), and come back
as they were once the terminal is large enough.

The message is an overlay mounted on the screen on top (and on each screen that comes
on top while the terminal is small), so that no screen's layout, focus or stack changes;
the keys meant for the hidden screen are held back, all but those that quit."""
from __future__ import annotations

from textual import events
from textual.screen import Screen
from textual.widgets import Static

MIN_WIDTH, MIN_HEIGHT = 80, 24
# Keys that still work on the message: they leave the app (Textual's and ours).
QUIT_KEYS = frozenset({"ctrl+q", "ctrl+c"})


def too_small(width: int, height: int) -> bool:
    return width < MIN_WIDTH or height < MIN_HEIGHT


def too_small_text(width: int, height: int) -> str:
    """The line (31 columns, clear of a scroll bar at 40) that names the size needed,
    and under it the size now."""
    return f"Terminal too small: needs {MIN_WIDTH}×{MIN_HEIGHT}\n(now {width}×{height})"


class TooSmall(Static):
    """The message, over the whole screen it is mounted on."""

    DEFAULT_CSS = """
    TooSmall {
        /* docked, so fixed however far the screen is scrolled; in a layer of its own,
           so its dock takes no room from the screen's widgets; an overlay, on top */
        layer: too-small;
        dock: top;
        overlay: screen;
        width: 100vw;
        height: 100vh;
        content-align: center middle;
        text-align: center;
        background: $background;
        color: $warning;
        text-style: bold;
    }
    """

    def __init__(self, width: int, height: int) -> None:
        super().__init__(too_small_text(width, height), markup=False)

    def resized(self, width: int, height: int) -> None:
        self.update(too_small_text(width, height))


class MinimumSize:
    """Mixed into the App (before App): says the terminal is too small while it is."""

    def on_mount(self) -> None:
        self.screen_change_signal.subscribe(self, self._cover_new_screen)
        self.call_after_refresh(self._fit_minimum_size)

    def on_resize(self, event: events.Resize) -> None:
        self._fit_minimum_size(event.size.width, event.size.height)

    @property
    def terminal_too_small(self) -> bool:
        return too_small(*self.size)

    def _fit_minimum_size(self, width: int | None = None,
                          height: int | None = None) -> None:
        if width is None or height is None:
            width, height = self.size
        if too_small(width, height):
            self._cover(self.screen, width, height)
        else:
            for screen in self.screen_stack:
                for message in screen.query(TooSmall):
                    message.remove()

    def _cover_new_screen(self, screen: Screen) -> None:
        if self.terminal_too_small:
            self._cover(screen, *self.size)

    @staticmethod
    def _cover(screen: Screen, width: int, height: int) -> None:
        shown = screen.query(TooSmall)
        if shown:
            for message in shown:
                message.resized(width, height)
        elif screen.is_attached:
            screen.mount(TooSmall(width, height))

    async def on_event(self, event: events.Event) -> None:
        """Hold back a key meant for a screen the message hides (but those that quit)."""
        if (isinstance(event, events.Key) and event.key not in QUIT_KEYS
                and self._running and self.terminal_too_small):
            return
        await super().on_event(event)
