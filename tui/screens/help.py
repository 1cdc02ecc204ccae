"""The help screens (`?` or F1). In a game: the game's rules in a few lines (as it
declared them when it registered), the keys that act now, and what the inspector's
symbols mean. On the setup screen: what each field does, how a start position is
written for the game and board chosen, the keys, and the game's rules."""
from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Input, RadioSet, Select, Static

from ..widgets.boards import BoardWidget
from ..widgets.inspector import TREE_LEGEND
from ..widgets.inspector.step_view import StepView
from ..widgets.move_list import MoveList

INSPECTOR_SYMBOLS = (
    f"Trees (minimax, alpha-beta): {TREE_LEGEND} · ▶ a move whose replies Enter or a "
    "click opens, ▼ an open one.\n"
    "MCTS table: ★ the move MCTS plays (the most visited, or a proven win) · ✓ the move "
    "played · mean: "
    "playout results for the side to move (a draw counts ½), or what the solver proved "
    "(win in 1, loss in ≤3: the line it proved takes at most that many moves; draw) · "
    "UCT = mean + c·√(ln N/n), what it explores next · the board's heat: where the "
    "playouts go.\n"
    "AlphaZero (az) table: P the network's prior · N visits · Q the mean of the network's "
    "values below the move, no playouts (a draw 50%) · U = c·P·√N/(1+n), in Q's points "
    "(×50): each simulation walks down by the highest Q + U · the summary: the network's "
    "value at the root beside the search's · x: the board's heat, visits or prior.\n"
    "Agents from outside plyground (bots, engines): their own reports, in their own "
    "units.\n"
    "s: step through the search behind the last agent's move (replayed on the "
    "position before it, checked to repeat it), event by event (←/→, [ ], Home/End; "
    "↑/↓ scroll).\n"
    "Review (e): after a move in the list, ?! an inaccuracy, ? a mistake, ?? a blunder; "
    "~ a label from a search's estimate, not a proof; the graph: each ply's value for "
    "the first side (up: it is ahead), a click views that ply.")

MOVE_LIST_KEYS = (
    "In the move list (Tab to it, or click a move): ← back, → forward, Home the start, "
    "End the live game. Forward follows the line you last walked; where several moves "
    "follow (a branch, the list's title says 'next … 1 of 2'), ↑/↓ there or { } "
    "anywhere choose which one → and ] play, shown on the accent colour.")

SETUP_FIELDS = (
    "Game: the game, and its board where it has several. Start position: empty for the "
    "usual start, or a position to start from (below). You play: which sides you play "
    "with keys or mouse. Players: who plays each side, and the main setting of an "
    "agent (its time, iterations, depth…); \"Other agent…\" takes any agent spec, such "
    "as bots/mybot.py:MyBot. Seed: the same seed plays the same game again.")


def key_line(key: str, what: str) -> str:
    return f"{key:>10}  {what}"


FIELD_KEYS = "\n".join(key_line(key, what) for key, what in (
    ("tab", "the next field"), ("shift+tab", "the previous field"),
    ("↑↓ enter", "choose in a menu"), ("enter", "start the game (in a text box)")))


TEXTUAL_ACTIONS = {binding.action for binding in Screen.BINDINGS}  # focus, copy

# How the help names the part with the focus, whose own keys it lists after the
# screen's (the first that the part is an instance of)
PARTS = ((BoardWidget, "On the board"), (StepView, "In step mode"),
         (MoveList, "In the move list"), (Input, "In the text box"),
         (Select, "In the menu"), (RadioSet, "In the choice"),
         (DataTable, "In the table"), (Button, "On the button"))


def part_name(node) -> str:
    return next((name for kind, name in PARTS if isinstance(node, kind)),
                "In the part with the focus")


def keys_text(screen, more: str = "") -> str:
    """The keys the screen answers now, one `key  what` a line, each named as the
    footer names it (`[`, `.`, `?`, `^s`), not by its Textual name: the screen's own
    first, with Quit (the app's Ctrl+Q, and q wherever no text box has the focus),
    then `more` (lines of the caller's), then the keys of the part with the focus (the
    board, a text box's two dozen editing keys) under a line naming it. Not the app's
    other keys, nor Textual's own (focus, copy, the palette)."""
    app = screen.app
    own: dict[str, list[str]] = {}  # description: its keys
    parts: dict[object, dict[str, list[str]]] = {}  # the same, for each focused part
    for active in screen.active_bindings.values():
        binding, node = active.binding, active.node
        if not binding.description or not active.enabled or \
                binding.action in TEXTUAL_ACTIONS or \
                node is app and binding.action != "app.quit":
            continue
        keys = (own if node in (screen, app) else parts.setdefault(node, {})
                ).setdefault(binding.description, [])
        key = app.get_key_display(binding)
        if not keys or node is app and key not in keys:  # Quit: the screen's and the app's
            keys.append(key)
    typed_in = bool(screen.query(Input))
    if typed_in and "Quit" in own:  # q types in a box: said once, whatever has the focus
        own["Quit (q too, outside a text box)"] = [k for k in own.pop("Quit") if k != "q"]
    blocks = ["\n".join(key_line(" ".join(keys), what) for what, keys in own.items())]
    if more:
        blocks[0] += "\n" + more
    for node, lines in parts.items():
        blocks.append(f"{part_name(node)}:\n" + "\n".join(
            key_line(" ".join(keys), what) for what, keys in lines.items()))
    return "\n\n".join(blocks)


class HelpScreen(ModalScreen[None]):
    """A title over headed sections: (name, heading, text), each text a Static whose id
    is help-NAME."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90; max-width: 100%; height: auto; max-height: 100%; padding: 1 2;
        border: thick $accent; background: $surface;
    }
    HelpScreen .help-heading { text-style: bold; color: $accent; margin-top: 1; }
    """
    BINDINGS = [Binding("escape,question_mark,f1,q", "dismiss", "Close")]

    def __init__(self, title: str, sections: Sequence[tuple[str, str, str]]) -> None:
        super().__init__()
        self.title_text, self.sections = title, sections

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text(self.title_text, style="bold"), id="help-title")
            for name, heading, text in self.sections:
                yield Static(heading, classes="help-heading")
                yield Static(Text(text), id=f"help-{name}")
            yield Static(Text("Esc, ? or F1 closes this.", style="dim"))

    def action_dismiss(self) -> None:
        self.dismiss(None)


def rules_of(game) -> str:
    return game.entry.rules or "This game gave no summary of its rules."


def game_help(game, keys: str) -> HelpScreen:
    """In a game: its rules, the keys that act now (`keys_text`) and the inspector's
    symbols."""
    return HelpScreen(f"{game.title}: rules, keys and symbols", [
        ("rules", "Rules", rules_of(game)),
        ("keys", "Keys", f"{keys}\n\n{MOVE_LIST_KEYS}"),
        ("symbols", "The inspector", INSPECTOR_SYMBOLS)])


def setup_help(game, keys: str, notation: str) -> HelpScreen:
    """On the setup screen: its fields, how a position of `game` (as chosen, with its
    board) is written (`notation`, with an example of that board), its keys and the
    game's rules."""
    return HelpScreen(f"Setting up a game of {game.title}", [
        ("fields", "This screen", SETUP_FIELDS),
        ("position", "A start position", f"Written as {notation}. Empty: the usual "
                                          "start. The line under the box says whether "
                                          "it reads and whose move it is."),
        ("keys", "Keys", keys),
        ("rules", f"{game.title}: rules", rules_of(game))])
