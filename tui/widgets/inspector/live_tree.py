"""The live tree of a minimax / alpha-beta / greedy search: root moves with their values,
each expanding into the replies searched under it.

It tells one story: once an iteration has completed, every row shows that iteration's
values (the ones the decision comes from), and a deeper iteration still running, or
cut short by the clock, is only counted on the root's line ("depth 15: 3 of 7 moves
searched"), never shown as values. Before the first iteration completes, rows show the
running one's values, marked as in progress.
"""
from __future__ import annotations

from rich.text import Text
from textual.widgets import Tree

from plyground.core.search.events import (Bound, IterationDone, MoveValue, NodeResult,
                                          SearchDone)
from plyground.core.values import describe_bounded as value_text


def plural(count: int, word: str, words: str = "") -> str:
    """`1 move`, `3 moves`, `1 ply`, `2 plies`."""
    return f"{count:,} " + (word if count == 1 else words or word + "s")


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
        text = Text(f"{self.side} to move", style="bold")
        quiet = self.get_component_rich_style("live-tree--quiet")
        if self.decided is not None:
            what = "the decision" if self.final is not None else "last complete iteration"
            text.append(f" · values at depth {self.decided.depth} ({what})", quiet)
        searched = sum(len(path) == 1 for path in self.results.get(self.running, {}))
        moves = plural(len(self.nodes_at_root()), "move")
        if self.final is not None:
            if self.final.stopped and self.running:
                text.append(f" · depth {self.running} cut short ({searched} of {moves} "
                            "searched)", quiet)
        elif self.running:
            text.append(f" · depth {self.running}: {searched} of {moves} searched so far",
                        quiet)
        return text

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
        move_text = self.game.describe_move(path[-1], before)
        quiet = self.get_component_rich_style("live-tree--quiet")
        label = Text()
        if len(path) == 1 and path[0] == self.best_move:
            label.append(f"★ {move_text}", self.get_component_rich_style("live-tree--best"))
        else:
            label.append(f"  {move_text}")
        ply = self.state.ply + len(path) - 1
        if self.decided is not None:
            depth = self.decided.depth
            if len(path) == 1:
                value = self._root_value(path[0])
                if value is not None:
                    label.append(f"   {value_text(value.value, value.bound, ply)}")
                    label.append(f"   depth {depth}", quiet)
                    return label
            result = self.results.get(depth, {}).get(path)
            if result is not None:
                label.append(f"   {value_text(result.value, result.bound, ply)}")
                return label
            label.append(f"   {self._why_unsearched(path, depth)}", quiet)
            return label
        result = self.results.get(self.running, {}).get(path)
        if result is not None:
            label.append(f"   {value_text(result.value, result.bound, ply)}")
            label.append(f"   depth {result.depth}, "
                         f"{'in progress' if self.final is None else 'cut short'}", quiet)
        elif self.final is not None:
            label.append("   not reached: the search stopped first", quiet)
        else:
            label.append("   not searched yet", quiet)
        return label

    def _why_unsearched(self, path: tuple, depth: int) -> str:
        """Why a row has no value at the decision's depth."""
        results = self.results.get(depth, {})
        refuted = next((other for other, result in results.items()
                        if other[:-1] == path[:-1] and result.bound == Bound.LOWER), None)
        if refuted is not None:
            return (f"pruned: the cut-off at "
                    f"{self.game.format_move(refuted[-1])} made it unnecessary")
        return f"not searched at depth {depth}"
