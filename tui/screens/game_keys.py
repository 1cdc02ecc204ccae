"""The game screen's keys (GameScreen.BINDINGS), in the order the footer shows them,
and the ones a narrow footer leaves out first; the actions they name are the screen's.
"""
from __future__ import annotations

from textual.binding import Binding

# The footer shows these in this order; when they do not fit, it shortens their
# labels, then leaves out FOOTER_SPARE's keys, the first first (the help screen,
# ?, lists every key).
BINDINGS = [
    Binding("u", "undo", "Undo"),
    Binding("n", "new_game", "New game"),
    Binding("question_mark,f1", "help", "Help"),
    Binding("q", "app.quit", "Quit"),  # (the app keeps the game, then quits)
    Binding("s", "step_through", "Step through search"),
    Binding("h", "hint", "Hint"),
    Binding("p", "pause", "Pause"),
    Binding("full_stop", "step_move", "Next move"),
    Binding("i", "focus_inspector", "Inspect"),
    Binding("a", "toggle_analysis", "Analysis"),
    Binding("o", "another_opponent", "Other player"),
    Binding("e", "review", "Review"),
    Binding("w", "save", "Save"),
    Binding("d", "quick_replay", "Quicker replay"),
    Binding("escape", "setup", "Setup"),
    # t, r, [, ], {, }, l and g stay out of the footer, which is full (the help screen
    # lists them, and the status line names r when a search failed)
    Binding("t", "toggle_trace", "Trace", show=False),
    Binding("r", "retry", "Retry", show=False),
    Binding("left_square_bracket", "walk(-1)", "Back", show=False),
    Binding("right_square_bracket", "walk(1)", "Forward", show=False),
    Binding("left_curly_bracket", "choose(-1)", "At a branch: the move above",
            show=False),
    Binding("right_curly_bracket", "choose(1)", "At a branch: the move below",
            show=False),
    Binding("l", "live", "Live game", show=False),
    Binding("g", "games", "Games", show=False),
    # x: in the footer once a search with a network's prior (az) has shown its heat;
    # before that, a line says why there is nothing to switch
    Binding("x", "toggle_heat", "Heat prior/visits"),
    Binding("x", "no_prior", "Heat prior/visits", show=False),
]
# The keys a narrow footer leaves out, the least needed first (Quit: ctrl+q too);
# Review, Save, Setup and the board's keys are never left out.
FOOTER_SPARE = ("toggle_heat", "app.quit", "quick_replay", "toggle_analysis", "hint",
                "focus_inspector", "new_game", "undo", "step_through", "step_move")


def key_applies(screen, action: str) -> bool | None:
    """Whether `action`'s key means something now on the game screen (None = shown but
    disabled); the footer shows only the keys that do."""
    if action in ("pause", "step_move"):
        return screen.match.watching  # (hidden when a human plays: room for the rest)
    if action == "another_opponent":
        return screen.match.forfeit is not None
    if action == "toggle_analysis":
        return screen.has_analysis  # only Connect 4 has one
    if action in ("toggle_heat", "no_prior"):
        return screen.board.priors_seen == (action == "toggle_heat")
    if action == "quick_replay":
        return screen.driver.quick_plan() is not None
    return True
