"""The help screen (`?` or F1 in a game): the game's rules in a few lines (as it
declared them when it registered), the keys that act now, and what the inspector's
symbols mean."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from ..widgets.inspector import TREE_LEGEND

INSPECTOR_SYMBOLS = (
    f"Trees (minimax, alpha-beta): {TREE_LEGEND}.\n"
    "MCTS table: ★ the move MCTS plays (the most visited, or a proven win) · mean: "
    "playout results for the side to move (a draw counts ½), or what the solver proved "
    "(win in 1, loss in ≤3: the line it proved takes at most that many moves; draw) · "
    "UCT = mean + c·√(ln N/n), what it explores next · the board's heat: where the "
    "playouts go.\n"
    "Agents from outside plyground (bots, engines): their own reports, in their own "
    "units.\n"
    "s: step through the search that decided, event by event (←/→, [ ], Home/End).\n"
    "Review (e): after a move in the list, ?! an inaccuracy, ? a mistake, ?? a blunder; "
    "~ a label from a search's estimate, not a proof; the graph: each ply's value for "
    "the first side (up: it is ahead), a click views that ply.")


TEXTUAL_ACTIONS = {binding.action for binding in Screen.BINDINGS}  # focus, copy


def keys_text(screen) -> str:
    """The keys the screen and its widgets (the board) answer now, one `key  what` a
    line (not the app's own: focus, copy, the palette)."""
    lines, seen = [], set()
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if not binding.description or binding.description in seen or \
                not active.enabled or active.node is screen.app or \
                binding.action in TEXTUAL_ACTIONS:
            continue
        seen.add(binding.description)
        shown = binding.key_display or {"question_mark": "?"}.get(key, key)
        lines.append(f"{shown:>10}  {binding.description}")
    return "\n".join(lines)


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90; max-width: 100%; height: auto; max-height: 100%; padding: 1 2;
        border: thick $accent; background: $surface;
    }
    HelpScreen .help-heading { text-style: bold; color: $accent; margin-top: 1; }
    """
    BINDINGS = [Binding("escape,question_mark,f1,q", "dismiss", "Close")]

    def __init__(self, game, keys: str) -> None:
        super().__init__()
        self.game, self.keys = game, keys

    def compose(self) -> ComposeResult:
        rules = self.game.entry.rules or "This game gave no summary of its rules."
        with VerticalScroll():
            yield Static(Text(f"{self.game.title}: rules, keys and symbols",
                              style="bold"), id="help-title")
            yield Static("Rules", classes="help-heading")
            yield Static(Text(rules), id="help-rules")
            yield Static("Keys", classes="help-heading")
            yield Static(Text(self.keys), id="help-keys")
            yield Static("The inspector", classes="help-heading")
            yield Static(Text(INSPECTOR_SYMBOLS), id="help-symbols")
            yield Static(Text("Esc, ? or F1 closes this.", style="dim"))

    def action_dismiss(self) -> None:
        self.dismiss(None)
