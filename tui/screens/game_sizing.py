"""How the game screen fits the terminal: the board drawn at full size when there is
room, the left column packed on a short screen (GameScreen.short), and a narrow
footer that packs its keys. A component the screen holds (`screen.sizing`), asked at
mount and at each resize.
"""
from __future__ import annotations

from textual.widgets import Footer

from ..widgets.analysis import AnalysisPanel

LARGE_BOARD_HEIGHT = 40  # terminal rows from which the board is drawn at full size,
LARGE_BOARD_WIDTH = 100  # if it has as many columns (else the inspector is too narrow)
WIDE_FOOTER = 120  # columns from which the footer spaces its keys and shows ^p


class GameSizing:
    """The sizes of one game screen's board, left column and footer."""

    def __init__(self, screen) -> None:
        self.screen = screen

    def fit_board(self) -> None:
        screen = self.screen
        if screen.short != screen.has_class("-short"):
            screen.set_class(screen.short, "-short")
            if screen.match.agent_to_move() is None or screen.paused:
                screen.show_turn()  # the key hint or paused line fits the room
        large = (screen.app.size.height >= LARGE_BOARD_HEIGHT
                 and screen.app.size.width >= LARGE_BOARD_WIDTH)
        screen.board.set_large(large)
        if screen.has_analysis:
            screen.query_one(AnalysisPanel).set_cell_width(screen.board.cell_width)
        screen.query_one("#left").styles.width = 48 if large else 41
        screen.review.panel.set_class(not large, "small")
        screen.review.panel.mark(screen.viewing or screen.live, screen.viewing is None)

    def fit_footer(self) -> None:
        """A narrow footer packs its keys and leaves the palette's to ctrl+p alone."""
        screen = self.screen
        footer = screen.query_one(Footer)
        footer.compact = screen.app.size.width < WIDE_FOOTER
        footer.show_command_palette = screen.app.size.width >= WIDE_FOOTER
        screen.call_after_refresh(footer.fit)  # (its keys' widths change with compact)
