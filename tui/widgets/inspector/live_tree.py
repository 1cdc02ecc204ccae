"""The live tree of a minimax / alpha-beta / greedy search: root moves with their values,
each expanding into the replies searched under it.

It tells one story: once an iteration has completed, every row shows that iteration's
values (the ones the decision comes from), and a deeper iteration still running, or
cut short by the clock, is only counted on the root's line ("depth 15: 3 of 7 moves
searched"), never shown as values. Before the first iteration completes, rows show the
running one's values, marked as in progress.

A narrow tree (an 80-column terminal) keeps each row's value and depth whole: its
indent and the row's long words give way first, then the move's description (an
ellipsis in its middle).
"""
from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Tree

from plyground.core.search.events import IterationDone, MoveValue, NodeResult, SearchDone
from plyground.core.values import Bound, Score


MIN_MOVE = 3  # the fewest cells a move's description is elided to (`b…H`)
NARROW = 60  # a tree narrower than this indents each level by 2 cells, not 4


def plural(count: int, word: str, words: str = "") -> str:
    """`1 move`, `3 moves`, `1 ply`, `2 plies`."""
    return f"{count:,} " + (word if count == 1 else words or word + "s")


def elide_middle(text: str, width: int) -> str:
    """`text` in at most `width` cells, its middle given up for `…` (a move's start
    and its end both tell it apart: `c5 takes c4(1)+b5(1)` → `c5 take…+b5(1)`)."""
    if cell_len(text) <= width:
        return text
    if width <= 1:
        return "…"[:width]
    head = width // 2
    tail = width - 1 - head
    return text[:head] + "…" + (text[-tail:] if tail else "")


class LiveTree(Tree):
    """Fed with NodeResult / IterationDone events and finally the decision; paths are
    tuples of moves."""

    DEFAULT_CSS = """
    LiveTree { height: 1fr; background: $surface; }
    LiveTree > .live-tree--best { color: $accent; text-style: bold; }
    LiveTree > .live-tree--quiet { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"live-tree--best", "live-tree--quiet"}

    def __init__(self, **kwargs) -> None:
        super().__init__("no search yet", **kwargs)
        self.show_root = True
        self.game = None
        self.state = None
        self.side = ""
        self.results: dict[int, dict[tuple, NodeResult]] = {}  # by iteration depth
        self.nodes: dict[tuple, object] = {}
        self.decided: IterationDone | None = None  # the last complete iteration
        self.running = 0  # the depth being searched (0: none)
        self.final: SearchDone | None = None

    def begin(self, game, state, side: str) -> None:
        """Start showing a search from `state`: one row per legal move, unsearched."""
        self.game, self.state, self.side = game, state, side
        self.results, self.nodes = {}, {}
        self.decided, self.running, self.final = None, 0, None
        self.clear()
        for move in state.moves():
            self.nodes[(move,)] = self.root.add(self._label((move,)), data=(move,))
        self.root.set_label(self._root_label())
        self.root.expand()

    def feed(self, events: list) -> None:
        for event in events:
            if isinstance(event, NodeResult):
                self._result(event)
            elif isinstance(event, IterationDone):
                self._iteration(event)
        self.root.set_label(self._root_label())

    def finish(self, done: SearchDone) -> None:
        """The search ended with `done`: every row gets its final status."""
        self.final = done  # `running` stays: the depth the budget cut short, if any
        self._relabel()
        self.root.set_label(self._root_label())

    @property
    def best_move(self):
        """The decision's move once the search has ended, else the last complete
        iteration's."""
        if self.final is not None:
            return self.final.best_move
        return self.decided.best_move if self.decided is not None else None

    # --- events ------------------------------------------------------------------

    def _result(self, event: NodeResult) -> None:
        self.running = max(self.running, event.depth)
        self.results.setdefault(event.depth, {})[event.path] = event
        if self.decided is None:  # nothing complete yet: show the running iteration
            node = self.nodes.get(event.path)
            if node is not None:
                node.set_label(self._label(event.path))

    def _iteration(self, event: IterationDone) -> None:
        """Show this iteration's values everywhere; expand the best move's replies."""
        previous = self.best_move
        self.decided = event
        self.running = 0
        self.results = {event.depth: self.results.get(event.depth, {})}  # older: gone
        self._relabel()
        if previous != event.best_move and (previous,) in self.nodes:
            self.nodes[(previous,)].collapse()
        best_node = self.nodes.get((event.best_move,))
        if best_node is not None:
            self._add_replies(event.best_move)
            best_node.expand()

    def _relabel(self) -> None:
        for path, node in self.nodes.items():
            node.set_label(self._label(path))

    def _add_replies(self, move) -> None:
        """A root move's replies become rows when it is first opened: a game with
        hundreds of moves a ply would otherwise build tens of thousands of rows."""
        parent = self.nodes[(move,)]
        if parent.children:
            return
        for reply in self.state.play(move).moves():
            path = (move, reply)
            self.nodes[path] = parent.add_leaf(self._label(path), data=path)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded) -> None:
        path = event.node.data
        if path is not None and len(path) == 1 and not event.node.children:
            self._add_replies(path[0])

    # --- labels ------------------------------------------------------------------

    def _root_label(self) -> Text:
        """`Red to move · values at depth 9 (the decision)`, and the depth being
        searched; in a narrow tree the same figures in fewer words."""
        quiet = self.get_component_rich_style("live-tree--quiet")
        searched = sum(len(path) == 1 for path in self.results.get(self.running, {}))
        moves = len(self.nodes_at_root())
        decided, running = (), ("", "")
        if self.decided is not None:
            what = "the decision" if self.final is not None else "last complete iteration"
            decided = (f" · values at depth {self.decided.depth} ({what})",
                       f" · depth {self.decided.depth}")
        if self.final is not None:
            if self.final.stopped and self.running:
                running = (f" · depth {self.running} cut short ({searched} of "
                           f"{plural(moves, 'move')} searched)",
                           f" · depth {self.running} cut short: {searched}/{moves}")
        elif self.running:
            running = (f" · depth {self.running}: {searched} of {plural(moves, 'move')} "
                       "searched so far", f" · depth {self.running}: {searched}/{moves} so far")
        # the long words, the short, then the decided depth alone (the summary
        # above tells of the depth being searched)
        forms = [(decided[0], running[0]), (decided[1], running[1]), (decided[1], "")] \
            if decided else [(running[0],), (running[1],)]
        for parts in forms:
            text = Text(f"{self.side} to move", style="bold")
            text.append("".join(parts), quiet)
            if self.fits(text, ()):
                break
        return text

    def room(self, path: tuple) -> int:
        """The cells a row's label has (0: not laid out yet, so no limit): the tree's
        width less its scroll bar, the row's guides and its expand icon."""
        width = self.size.width - self.styles.scrollbar_size_vertical
        if width <= 0:
            return 0
        icon = 0 if len(path) > 1 else len(self.ICON_NODE)  # leaves have none
        return max(1, width - self.guide_depth * len(path) - icon)

    def fits(self, text: Text, path: tuple) -> bool:
        room = self.room(path)
        return not room or text.cell_len <= room

    def on_resize(self) -> None:
        self.guide_depth = 2 if self.size.width < NARROW else 4
        if self.state is not None:
            self._relabel()
            self.root.set_label(self._root_label())

    def nodes_at_root(self) -> list:
        return [path for path in self.nodes if len(path) == 1]

    def _root_value(self, move) -> MoveValue | None:
        """The decision's value for a root move (a trap it set is measured exactly),
        else the last complete iteration's."""
        if self.decided is None:
            return None
        decided = self.final if self.final is not None and self.final.move_values \
            else self.decided
        return next((mv for mv in decided.move_values if mv.move == move), None)

    def _label(self, path: tuple) -> Text:
        before = self.state if len(path) == 1 else self.state.play(path[0])
        best = len(path) == 1 and path[0] == self.best_move
        mark, style = ("★ ", self.get_component_rich_style("live-tree--best")) if best \
            else ("  ", "")
        move_text = self.game.describe_move(path[-1], before)
        for tail in self._tails(path):  # the long words while the whole move fits
            if self.fits(Text(mark + move_text) + tail, path):
                break
        room = self.room(path)
        if room:
            move_text = elide_middle(move_text, max(MIN_MOVE, room - len(mark) -
                                                    tail.cell_len))
        label = Text()
        label.append(mark + move_text, style)
        return label.append_text(tail)

    def _tails(self, path: tuple) -> tuple[Text, Text]:
        """What a row says after its move, in long words and in short: its value and
        depth, or why it has none."""
        quiet = self.get_component_rich_style("live-tree--quiet")
        ply = self.state.ply + len(path) - 1

        def tail(value: str, note: str = "", short_note: str | None = None):
            long, short = Text(), Text()
            if value:
                long.append(f"   {value}")
                short.append(f"  {value}")
            if note:
                long.append(f"   {note}", quiet)
                short.append(f"  {note if short_note is None else short_note}", quiet)
            return long, short

        if self.decided is not None:
            depth = self.decided.depth
            if len(path) == 1:
                value = self._root_value(path[0])
                if value is not None:
                    return tail(str(Score(value.value, ply, bound=value.bound)),
                                f"depth {depth}")
            result = self.results.get(depth, {}).get(path)
            if result is not None:
                return tail(str(Score(result.value, ply, bound=result.bound)))
            return tail("", *self._why_unsearched(path, depth))
        result = self.results.get(self.running, {}).get(path)
        if result is not None:
            how = "in progress" if self.final is None else "cut short"
            short = "so far" if self.final is None else "cut short"
            return tail(str(Score(result.value, ply, bound=result.bound)),
                        f"depth {result.depth}, {how}", f"depth {result.depth} {short}")
        if self.final is not None:
            return tail("", "not reached: the search stopped first", "not reached")
        return tail("", "not searched yet", "not yet")

    def _why_unsearched(self, path: tuple, depth: int) -> tuple[str, str]:
        """Why a row has no value at the decision's depth, in long words and short."""
        results = self.results.get(depth, {})
        refuted = next((other for other, result in results.items()
                        if other[:-1] == path[:-1] and result.bound == Bound.LOWER), None)
        if refuted is not None:
            move = self.game.format_move(refuted[-1])
            return (f"pruned: the cut-off at {move} made it unnecessary",
                    f"pruned (cut-off: {move})")
        return f"not searched at depth {depth}", f"not at depth {depth}"
