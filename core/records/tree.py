"""A game with its variations: a tree of positions, each node reached by one move.

A node's first child is its main continuation and the others are variations (other
moves tried in the same position), as in a PGN file. The live game of a `Match` is the
tree's main line; walking back and playing another move adds a variation, and nothing
is removed except by an explicit take-back (`GameTree.sync`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Sequence

from ..game import Move, State


@dataclass(eq=False)
class GameNode:
    state: State  # the position after `move`
    move: Move | None = None  # None at the root (the start position)
    # not in the repr: a node's repr would hold the whole tree
    parent: "GameNode | None" = field(default=None, repr=False)
    children: list["GameNode"] = field(default_factory=list, repr=False)
    comment: str = ""

    def child(self, move: Move) -> "GameNode | None":
        return next((node for node in self.children if node.move == move), None)

    def add(self, move: Move) -> "GameNode":
        """The node `move` leads to: the existing one, or a new last child (a new
        variation, or the main continuation of a node that had none). Raises
        IllegalMove, adding nothing, for a move that is not legal here."""
        existing = self.child(move)
        if existing is not None:
            return existing
        node = GameNode(self.state.play(move), move, self)
        self.children.append(node)
        return node

    def promote(self) -> None:
        """Make this node its parent's main continuation (the old one a variation)."""
        if self.parent is not None:
            siblings = self.parent.children
            siblings.insert(0, siblings.pop(siblings.index(self)))

    def path(self) -> list["GameNode"]:
        """The nodes from the root's first move down to this one."""
        nodes, node = [], self
        while node.parent is not None:
            nodes.append(node)
            node = node.parent
        return nodes[::-1]

    def moves(self) -> list[Move]:
        return [node.move for node in self.path()]

    @property
    def depth(self) -> int:
        """How many moves from the root."""
        return len(self.path())

    @property
    def on_main_line(self) -> bool:
        node = self
        while node.parent is not None:
            if node.parent.children[0] is not node:
                return False
            node = node.parent
        return True

    def main_line(self) -> Iterator["GameNode"]:
        """This node's main continuation, move by move, to its end."""
        node = self
        while node.children:
            node = node.children[0]
            yield node

    def walk(self) -> Iterator["GameNode"]:
        """Every node below this one, depth first, main continuation first."""
        stack = self.children[::-1]  # a stack, not recursion: a long game is deep
        while stack:
            node = stack.pop()
            yield node
            stack.extend(node.children[::-1])


class GameTree:
    def __init__(self, start: State) -> None:
        self.root = GameNode(start)

    @classmethod
    def from_moves(cls, start: State, moves: Sequence[Move]) -> "GameTree":
        tree = cls(start)
        tree.follow(moves)
        return tree

    def main_line(self) -> list[GameNode]:
        return list(self.root.main_line())

    def main_moves(self) -> list[Move]:
        return [node.move for node in self.root.main_line()]

    def follow(self, moves: Sequence[Move]) -> GameNode:
        """Make `moves` the start of the main line (adding what is missing, promoting
        what was a variation) and return the node they reach."""
        node = self.root
        for move in moves:
            node = node.add(move)
            node.promote()
        return node

    def sync(self, moves: Sequence[Move]) -> GameNode:
        """Make the main line exactly `moves` (the live game after a move or a
        take-back): moves taken back leave the tree with their variations."""
        node = self.follow(moves)
        node.children.clear()
        return node

    def nodes(self) -> Iterator[GameNode]:
        return self.root.walk()

    @property
    def has_variations(self) -> bool:
        return any(len(node.children) > 1 for node in [self.root, *self.nodes()])
