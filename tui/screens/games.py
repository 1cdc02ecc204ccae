"""The Games screen: the game history (core/records/history.py) in a table, newest first,
filtered by game, player and result as the filters change. Enter or a click on a row
dismisses the screen with that game's id (Esc: None); the caller opens it with
`History().get(id)`. `d` deletes a game after a confirmation. A history that cannot
be read (a file that is no database, one from a newer plyground) is said on the
screen, never as a traceback.

Served (`plyground serve`), the screen is read-only: the history is the server's user's,
and a visitor changes nothing of it. It lists and opens the server's games; `d` deletes
nothing and says so, and a history that does not exist is not made."""
from __future__ import annotations

from rich.console import Console
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.coordinate import Coordinate
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, DataTable, Footer, Input, Select, Static

from plyground.core import PlygroundError
from plyground.core.errors import visible
from plyground.core.game import game_entries
from plyground.core.records.history import GameSummary, History, history_path

from .dialog import Dialog

ALL = "all"  # the filters' value that filters nothing
SHOWN = 500  # at most this many games listed, the newest (the table stays quick)
TYPING = 0.2  # seconds the player box waits for the next key before the list follows
RESULTS = [("All results", ALL), ("First side won", "first"),
           ("Second side won", "second"), ("Draws", "draw"), ("Unfinished", "unfinished")]
SHOWN_RESULTS = {"1/2-1/2": "½-½"}
EMPTY = ("No games yet: finished games are kept here, and games left with moves played "
         "(a new game, Esc, quit); so are those of `plyground demo`, `match` and "
         "`tournament`.")
SERVED_EMPTY = ("No games in this server's history. The games played here are not kept "
                "in it: save one with w.")
READ_ONLY = ("The games are read-only here: this app is served, and the history is the "
             "server's. Nothing was deleted.")
HEADERS = ("date", "game", "first", "second", "result", "moves", "source")
IN_PROGRESS = "… in progress"
FLEXIBLE = ("game", "first", "second", "result")  # cut with … when the screen is narrow
WIDE_DATE = 110  # narrower screens show dates without the year: 11-23 14:02
CHROME = 2 + 2 * len(HEADERS)  # the scroll bar, and each cell's padding
WRAPPING = Console(width=200, color_system=None)  # wraps cells; prints nothing


def short_date(date: str, wide: bool) -> str:
    """2026-11-23T14:02:11 as 2026-11-23 14:02 (11-23 14:02 when not `wide`)."""
    shown = date.replace("T", " ")[:16]
    return shown if wide or len(shown) < 16 else shown[5:]


def short_reason(reason: str) -> str:
    """The reason without the result the column already gives: `X wins: X connects
    four` as `X connects four`, `draw` as nothing."""
    _, colon, rest = reason.partition(": ")
    if colon:
        return rest
    return "" if reason == "draw" or reason.endswith(" wins") else reason


def result_cell(summary: GameSummary, playing: bool = False) -> str:
    """`X wins four in a row`, `* abandoned`; the game the app is playing (kept in
    the history when saved) is `… in progress`."""
    if playing:
        return IN_PROGRESS
    result = SHOWN_RESULTS.get(summary.result, summary.result)
    reason = short_reason(summary.reason)
    return f"{result} {reason}" if reason else result


def cells(summary: GameSummary, wide: bool, playing: bool = False) -> dict[str, str]:
    """The row's text, each cell from the record with its escapes shown (visible)."""
    return {"date": visible(short_date(summary.date, wide)),
            "game": visible(summary.game), "first": visible(summary.first),
            "second": visible(summary.second),
            "result": visible(result_cell(summary, playing)),
            "moves": str(summary.moves), "source": visible(summary.source)}


def widths(rows: list[dict[str, str]], width: int) -> dict[str, int]:
    """Each column's width for the table to fit in `width` columns: the widest of
    the flexible columns give way first, down to 6 characters."""
    natural = {name: max([len(name), *(len(row[name]) for row in rows)])
               for name in HEADERS}
    room = width - CHROME - sum(natural[name] for name in HEADERS if name not in FLEXIBLE)
    cap = max(natural[name] for name in FLEXIBLE)
    while cap > 6 and sum(min(natural[name], cap) for name in FLEXIBLE) > room:
        cap -= 1
    shown = {name: min(natural[name], cap) if name in FLEXIBLE else natural[name]
             for name in HEADERS}
    # the result (its reason wraps, see lines) takes what the others leave
    others = sum(shown[name] for name in FLEXIBLE if name != "result")
    shown["result"] = max(shown["result"], min(natural["result"], room - others))
    return shown


def cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def lines(text: str, width: int) -> str:
    """The result and its reason, whole: wrapped at its words to `width` columns
    (a reason is prose, and the end of one is what was cut: `after Blue's BOOM`)."""
    wrapped = Text(text).wrap(WRAPPING, width)
    return "\n".join(line.plain.rstrip() for line in wrapped)


def cell_text(name: str, text: str, width: int) -> Text:
    """A cell as the table shows it: the result wrapped, a long name cut with … (the
    line under the table gives the game in full), the moves to the right."""
    shown = lines(text, width) if name == "result" else cut(text, width)
    return Text(shown, justify="right" if name == "moves" else "left")


def detail(summary: GameSummary, playing: bool = False) -> Text:
    """The highlighted game in full, whatever the table had to cut (the record's text
    with its escapes shown)."""
    text = Text()
    text.append(f"Game {summary.id}", style="bold")
    result = IN_PROGRESS if playing else f"{summary.result} {summary.reason}"
    text.append(visible(f" · {summary.game} · {summary.first} vs {summary.second} · "
                        f"{result} · {summary.moves} moves · {summary.source} · "
                        f"{summary.date.replace('T', ' ')}".replace("  ", " ")))
    return text


class GameTable(DataTable):
    """The games, one a row: Enter or a click opens one."""

    BINDINGS = [Binding("enter", "select_cursor", "Open")]

    async def _on_click(self, event) -> None:
        # A click on a row opens it at once (DataTable's own wants a second click).
        # Textual calls each class's handler: DataTable's runs here, and only here.
        before = self.cursor_row
        await super()._on_click(event)
        event.prevent_default()
        row = event.style.meta.get("row", -1)
        if row >= 0 and row == self.cursor_row != before:
            self.action_select_cursor()


class ConfirmDelete(Dialog):
    """Dismisses with True (delete the game) or None."""

    def __init__(self, summary: GameSummary) -> None:
        super().__init__()
        self.summary = summary

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Delete game {self.summary.id} from the history?",
                         classes="dialog-title")
            yield Static(detail(self.summary))
            yield Static("It cannot be undone.", classes="dialog-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Delete", id="delete", variant="error")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#cancel", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(True if event.button.id == "delete" else None)


class GamesScreen(Screen[int | None]):
    """The history's games; dismisses with the id of the game chosen, or None."""

    DEFAULT_CSS = """
    GamesScreen { layout: vertical; }
    GamesScreen #games-title { height: 1; padding: 0 1; }
    GamesScreen #games-filters { height: 3; }
    GamesScreen #games-game { width: 24; }
    GamesScreen #games-agent { width: 1fr; }
    GamesScreen #games-result { width: 22; }
    GamesScreen GameTable { height: 1fr; }
    GamesScreen #games-message { height: auto; padding: 0 1; }
    GamesScreen #games-message.error { color: $error; }
    GamesScreen #games-detail { height: auto; padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("escape", "leave", "Back"),
        Binding("d,delete", "delete", "Delete", key_display="d"),
        # Served, `delete` is off and the same keys only say why (shown nowhere).
        Binding("d,delete", "read_only", show=False),
    ]

    def __init__(self, playing: int | None = None) -> None:
        super().__init__()
        self.playing = playing  # the history id of the game the app is playing
        self.history: History | None = None
        self.games: dict[int, GameSummary] = {}  # the rows shown, by id
        self.typing: Timer | None = None  # the list follows the player box after it

    def compose(self) -> ComposeResult:
        yield Static(Text("Games played", style="bold"), id="games-title")
        with Horizontal(id="games-filters"):
            yield Select([("All games", ALL), *((e.title, e.id) for e in game_entries())],
                         value=ALL, allow_blank=False, id="games-game")
            yield Input(placeholder="player or agent contains…",
                        id="games-agent")
            yield Select(RESULTS, value=ALL, allow_blank=False, id="games-result")
        table = GameTable(cursor_type="row", zebra_stripes=True, id="games-table")
        yield table
        yield Static(id="games-message")
        yield Static(id="games-detail")
        yield Footer()

    @property
    def served(self) -> bool:
        return getattr(self.app, "served", None) is not None

    def on_mount(self) -> None:
        try:
            if self.served and not history_path().exists():
                self.say(SERVED_EMPTY)  # (a history opened is made: not the visitor's)
                self.query_one(GameTable).display = False
                self.focus_table()
                return
            self.history = History()
        except PlygroundError as error:
            self.fail(error)
            return
        self.fill()
        self.focus_table()

    def on_unmount(self) -> None:
        if self.history is not None:
            self.history.close()

    # --- the list --------------------------------------------------------------------

    def filters(self) -> dict[str, str | None]:
        game = self.query_one("#games-game", Select).value
        result = self.query_one("#games-result", Select).value
        agent = self.query_one("#games-agent", Input).value.strip()
        return {"game": None if game == ALL else game, "agent": agent or None,
                "result": None if result == ALL else result}

    def fill(self, row: int = 0) -> None:
        """List the games the filters let through, the cursor on `row`."""
        if self.history is None:
            return
        try:
            games = self.history.list(**self.filters(), limit=SHOWN + 1)
            total = self.history.count() if not games else len(games)
        except PlygroundError as error:
            self.fail(error)
            return
        self.games = {summary.id: summary for summary in games[:SHOWN]}
        self.show(row)
        self.query_one(GameTable).display = bool(games)  # else the message says why
        filtered = any(self.filters().values())
        if not games:
            self.say((SERVED_EMPTY if self.served else EMPTY) if total == 0 else
                     f"No games match these filters ({total} in the history).")
        elif len(games) > SHOWN:
            self.say(f"The newest {SHOWN} games{' that match' if filtered else ''} "
                     "are listed: the filters find older ones.")
        else:
            self.say(f"{len(games)} game{'s' * (len(games) != 1)}"
                     f"{' match' + 'es' * (len(games) == 1) if filtered else ''}: "
                     "Enter or a click opens one.")
        self.refresh_bindings()

    def show(self, row: int = 0) -> None:
        """Lay the rows out for the screen's width (the flexible columns cut to fit)."""
        table = self.query_one(GameTable)
        wide = self.size.width >= WIDE_DATE
        rows = [cells(summary, wide, id == self.playing)
                for id, summary in self.games.items()]
        width = widths(rows, self.size.width)
        table.clear(columns=True)
        for name in HEADERS:
            table.add_column(name, width=width[name], key=name)
        for id, row_cells in zip(self.games, rows):
            shown = [cell_text(name, row_cells[name], width[name]) for name in HEADERS]
            table.add_row(*shown, key=str(id),
                          height=max(len(text.plain.splitlines()) for text in shown))
        if rows:
            table.move_cursor(row=min(row, len(rows) - 1))
        self.describe()

    def on_resize(self) -> None:
        if self.games:
            self.show(self.query_one(GameTable).cursor_row)

    def chosen(self) -> GameSummary | None:
        """The game under the cursor."""
        table = self.query_one(GameTable)
        if not self.games or table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(Coordinate(table.cursor_row, 0)).row_key
        return self.games.get(int(key.value))

    def describe(self) -> None:
        summary = self.chosen()
        self.query_one("#games-detail", Static).update(
            detail(summary, summary.id == self.playing) if summary else "")

    def say(self, message: str, error: bool = False) -> None:
        line = self.query_one("#games-message", Static)
        line.set_class(error, "error")
        line.update(Text(message))

    def fail(self, error: PlygroundError) -> None:
        """The history cannot be read: say why, list nothing."""
        self.games = {}
        self.query_one(GameTable).display = False
        self.query_one("#games-detail", Static).update("")
        self.say(f"The game history cannot be read: {error}", error=True)
        self.refresh_bindings()

    # --- events and actions ----------------------------------------------------------

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        self.fill()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if self.typing is not None:
            self.typing.stop()
        self.typing = self.set_timer(TYPING, self.typed)

    def typed(self) -> None:
        self.typing = None
        self.fill()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.typing is not None:
            self.typing.stop()
            self.typed()
        self.focus_table()

    def focus_table(self) -> None:
        table = self.query_one(GameTable)
        if table.display:
            table.focus()
        else:
            self.query_one("#games-agent", Input).focus()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.describe()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.dismiss(int(event.row_key.value))

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "delete" and (not self.games or self.served):
            return False  # nothing to delete, or not the visitor's: not in the footer
        if action == "read_only":
            return self.served
        return True

    def action_leave(self) -> None:
        self.dismiss(None)

    def action_read_only(self) -> None:
        self.say(READ_ONLY, error=True)

    def action_delete(self) -> None:
        if self.served:
            self.action_read_only()
            return
        summary = self.chosen()
        if summary is None or self.history is None:
            return
        row = self.query_one(GameTable).cursor_row

        def confirmed(answer: bool | None) -> None:
            if not answer:
                return
            try:
                self.history.delete(summary.id)
            except PlygroundError as error:
                self.say(f"Not deleted: {error}", error=True)
                return
            self.fill(row)
            self.notify(f"Game {summary.id} deleted")

        self.app.push_screen(ConfirmDelete(summary), confirmed)
