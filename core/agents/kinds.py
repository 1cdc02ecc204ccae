"""plyground's built-in agent kinds: random, greedy, minimax, alpha-beta, the seed
engine and MCTS, each a thin layer over its search in core/search/."""
from __future__ import annotations

import time

from ..fast import mcts_tree_factory, tree_backend
from ..ranges import DEEPEST, LARGEST_EXPLORATION, LONGEST_MOVE, MOST_NODES, SHORTEST_MOVE
from ..rng import derive_seed
from ..search.alphabeta import alphabeta_search
from ..search.control import Budget
from ..search.events import SearchDone
from ..search.mcts import DEFAULT_EXPLORATION, MAX_ITERATIONS, mcts_search
from ..search.minimax import DEFAULT_DEPTH, minimax_search
from .base import SEED, TIME, Agent, Setting, Shows


class RandomAgent(Agent):
    kind, title = "random", "Random"
    description = "plays a uniformly random legal move"
    settings_spec = (SEED,)
    shows = Shows.NONE

    def search(self, state, budget, observer, control, exact_root):
        moves = list(state.moves())
        move = moves[self.rng(state).below(len(moves))]
        return SearchDone(move, None, (move,), 0, control.elapsed())


class GreedyAgent(Agent):
    kind, title = "greedy", "Greedy"
    description = "one ply: the move whose position the heuristic likes best"
    settings_spec = (SEED,)

    def search(self, state, budget, observer, control, exact_root):
        return minimax_search(state.game, state, Budget(depth=1), observer, control,
                              rng=self.rng(state))


class MinimaxAgent(Agent):
    kind, title = "minimax", "Minimax"
    description = "plain depth-limited minimax with the heuristic at the leaves"
    settings_spec = (
        Setting("depth", int, DEFAULT_DEPTH, "plies to search", minimum=1,
                maximum=DEEPEST),
        TIME,
    )
    main_setting = "depth"
    # A subclass may define `evaluate(self, state) -> number`: its own heuristic at the
    # leaves, the value of a running game for its side to move (as Game.evaluate).
    evaluate = None

    def budget(self):
        return Budget(time=self.settings["time"], depth=self.settings["depth"])

    def search(self, state, budget, observer, control, exact_root):
        return minimax_search(state.game, state, budget, observer, control,
                              evaluate=self.evaluate)


class AlphaBetaAgent(Agent):
    kind, title = "alphabeta", "Alpha-Beta"
    description = ("iterative-deepening alpha-beta with a transposition table and "
                   "move ordering")
    settings_spec = (
        Setting("time", float, None, "seconds per move (1 if no other limit)",
                SHORTEST_MOVE, maximum=LONGEST_MOVE),
        Setting("depth", int, None, "deepest iteration", minimum=1, maximum=DEEPEST),
        Setting("nodes", int, None, "node limit", minimum=1, maximum=MOST_NODES),
    )
    main_setting = "time"
    DEFAULT_TIME = 1.0
    # A subclass may define `evaluate(self, state) -> number`: its own heuristic at the
    # leaves, the value of a running game for its side to move (as Game.evaluate). It
    # then searches in Python: the game's compiled kernels know only the game's own.
    evaluate = None

    def budget(self):
        time, depth, nodes = (self.settings[k] for k in ("time", "depth", "nodes"))
        if time is None and depth is None and nodes is None:
            time = self.DEFAULT_TIME
        return Budget(time=time, depth=depth, nodes=nodes)

    @property
    def label(self):
        for name, unit in (("time", "s"), ("depth", " ply"), ("nodes", " nodes")):
            if self.settings[name] is not None:
                return f"{self.title} ({self.settings[name]:g}{unit})"
        return f"{self.title} ({self.DEFAULT_TIME:g}s)"

    def search(self, state, budget, observer, control, exact_root):
        backend = tree_backend(state.game) if self.evaluate is None else None
        return alphabeta_search(state.game, state, budget, observer, control,
                                backend=backend, exact_root=exact_root,
                                evaluate=self.evaluate)


class SeedAgent(Agent):
    kind, title = "seed", "Seed engine"
    description = ("the course's seed engine, where the game has one (BOOM): alpha-beta "
                   "to a fixed depth with the seed's heuristic")
    settings_spec = (Setting("depth", int, None, "plies to search (the seed's own if "
                             "not given)", minimum=1, maximum=DEEPEST),)
    main_setting = "depth"

    @classmethod
    def plays(cls, game) -> bool:
        return game.seed_depth is not None

    @classmethod
    def why_not(cls, game) -> str:
        return f"{game.title} has no seed engine"

    def search(self, state, budget, observer, control, exact_root):
        game = state.game
        depth = self.settings["depth"] or game.seed_depth
        return alphabeta_search(game, state, Budget(depth=depth), observer, control,
                                exact_root=exact_root, evaluate=game.seed_evaluate,
                                avoid_repeats=False)


class MctsAgent(Agent):
    kind, title = "mcts", "MCTS"
    description = ("UCT Monte Carlo tree search: with a solver (proven wins and losses, "
                   "decisive playouts) where the game's kernel has one, else plain UCT "
                   "with random playouts")
    settings_spec = (
        Setting("iterations", int, 5500, "playouts per move (unless time is set)", 1,
                maximum=MAX_ITERATIONS),
        TIME,
        Setting("c", float, DEFAULT_EXPLORATION, "exploration constant", minimum=0,
                maximum=LARGEST_EXPLORATION),
        Setting("uct", str, None, "solver: prove wins and losses, play decisive playouts "
                "(Connect 4 and Quarto by default); plain: the course's UCT, random "
                "playouts (the other games' default)", choices=("solver", "plain")),
        SEED,
    )
    main_setting = "iterations"
    shows = Shows.VISITS
    # A subclass may define `playout(self, state, rng) -> move`: its own choice of each
    # move of a playout, in place of a uniformly random one (`rng.below(n)` draws a
    # whole number 0..n-1, `rng.random()` a fraction). It then searches in Python, with
    # plain UCT unless given uct=solver.
    playout = None

    def budget(self):
        if self.settings["time"] is not None:
            return Budget(time=self.settings["time"])
        return Budget(iterations=self.settings["iterations"])

    @property
    def label(self):
        if self.settings["time"] is not None:
            return f"{self.title} ({self.settings['time']:g}s)"
        return super().label

    @classmethod
    def menu_choices(cls) -> list[tuple[str, str]]:
        return [(cls.title, cls.kind), (f"{cls.title}, plain UCT", f"{cls.kind}:uct=plain")]

    def solves(self, game) -> bool:
        """Whether it searches `game` with the solver: as told, else where the game's
        MCTS kernel has the solver variant (without one it would search in Python) and
        the agent has no playout policy of its own."""
        if self.settings["uct"] is not None:
            return self.settings["uct"] == "solver"
        if self.playout is not None:
            return False
        tree = mcts_tree_factory(game)
        return tree is not None and tree.solves

    def search(self, state, budget, observer, control, exact_root):
        seed = derive_seed(self.settings["seed"], state.key())
        fast_tree = mcts_tree_factory(state.game)
        solver = self.solves(state.game)
        if solver and fast_tree is not None and not fast_tree.solves:
            fast_tree = None  # the solver in Python
        return mcts_search(state.game, state, budget, seed, self.settings["c"], observer,
                           control, fast_tree=fast_tree, playout=self.playout,
                           solver=solver)
