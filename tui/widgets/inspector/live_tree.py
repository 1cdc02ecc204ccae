"""The live tree of a minimax / alpha-beta / greedy search: root moves with their values,
each expanding into the replies searched under it."""
from __future__ import annotations

from rich.text import Text
from textual.widgets import Tree

from plyground.core.search.events import Bound, IterationDone, NodeResult
from plyground.core.values import describe_value

BOUND_MARK = {Bound.EXACT: "", Bound.LOWER: "≥ ", Bound.UPPER: "≤ "}


def value_text(value: float, bound: str, ply: int) -> str:
    """A value for the side to move at `ply`, with its bound: `≥ +35`, `win in 3`."""
    return BOUND_MARK.get(bound, "") + describe_value(value, ply)


class LiveTree(Tree):
    """Fed with NodeResult / IterationDone events; paths are tuples of moves."""

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
        self.results: dict[tuple, NodeResult] = {}
        self.nodes: dict[tuple, object] = {}
        self.best = None

    def begin(self, game, state, title: str) -> None:
        """Start showing a search from `state`: one row per legal move, unsearched."""
        self.game, self.state = game, state
        self.results, self.nodes, self.best = {}, {}, None
        self.clear()
        self.root.set_label(Text(title, style="bold"))
        for move in state.moves():
            self.nodes[(move,)] = self.root.add(self._label((move,)), data=(move,))
        self.root.expand()

    def feed(self, events: list) -> None:
        for event in events:
            if isinstance(event, NodeResult):
                self._result(event)
            elif isinstance(event, IterationDone):
                self._iteration(event)

    def _result(self, event: NodeResult) -> None:
        path = event.path
        self.results[path] = event
        node = self.nodes.get(path)
        if node is not None:
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

    def _iteration(self, event: IterationDone) -> None:
        """Mark the best move, show its replies, and fold the previous best away."""
        previous, self.best = self.best, event.best_move
        for path, node in self.nodes.items():
            node.set_label(self._label(path))
        if previous != self.best and (previous,) in self.nodes:
            self.nodes[(previous,)].collapse()
        best_node = self.nodes.get((self.best,))
        if best_node is not None:
            self._add_replies(self.best)
            best_node.expand()

    def _label(self, path: tuple) -> Text:
        before = self.state if len(path) == 1 else self.state.play(path[0])
        move_text = self.game.describe_move(path[-1], before)
        label = Text()
        if len(path) == 1 and path[0] == self.best:
            label.append(f"★ {move_text}", self.get_component_rich_style("live-tree--best"))
        else:
            label.append(f"  {move_text}")
        result = self.results.get(path)
        if result is None:
            label.append("   not searched yet", self.get_component_rich_style("live-tree--quiet"))
            return label
        quiet = self.get_component_rich_style("live-tree--quiet")
        value = value_text(result.value, result.bound, self.state.ply + len(path) - 1)
        parent = self.results.get(path[:-1])
        if parent is not None and result.depth < parent.depth:
            # not searched again at the parent's depth: a cut-off pruned it
            label.append(f"   pruned at depth {parent.depth}", quiet)
            label.append(f"   (was {value} at depth {result.depth})", quiet)
            return label
        label.append(f"   {value}")
        label.append(f"   depth {result.depth}", quiet)
        return label
