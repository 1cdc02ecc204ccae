"""Agents and the catalogue the CLI and the menus offer.

An agent is made from a kind and settings: `make_agent("mcts", iterations=5000, seed=1)`
or, as the CLI and menus write it, `parse_agent("mcts:iterations=5000,seed=1")`.
`agent.decide(state)` returns the whole decision (move, value, principal variation);
`agent.choose(state)` just the move. Agents are pure functions of (state, budget, seed).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .ga_profile import DEFAULT_PROFILE, Profile, load_profile
from .game import IllegalMove, Move, PlygroundError, State, UnknownName
from .games.connect4_strategies import choose_column
from .rng import SplitMix64, derive_seed
from .search.alphabeta import alphabeta_search
from .search.control import Budget, SearchControl
from .search.events import SearchDone
from .search.mcts import DEFAULT_EXPLORATION, mcts_search
from .search.minimax import DEFAULT_DEPTH, minimax_search
from .values import MEAN


class BadSetting(PlygroundError):
    """An agent setting that does not exist or has a bad value."""


@dataclass(frozen=True)
class Setting:
    name: str
    type: type
    default: Any
    help: str
    minimum: float | None = None

    def parse(self, agent: str, text: str) -> Any:
        try:
            value = self.type(text)
        except ValueError:
            kind = {int: "a whole number", float: "a number"}.get(self.type, "a value")
            raise BadSetting(f"{agent}: {self.name}={text!r} is not {kind}") from None
        if self.minimum is not None and value < self.minimum:
            raise BadSetting(f"{agent}: {self.name} must be at least {self.minimum}")
        return value


SEED = Setting("seed", int, 0, "random seed: the same seed gives the same moves")
TIME = Setting("time", float, None, "seconds per move", minimum=0.001)


class Agent:
    """Base class: a kind name, settings, and `decide`."""

    kind: str = ""
    title: str = ""
    description: str = ""
    settings_spec: tuple[Setting, ...] = ()
    main_setting: str | None = None
    # how the inspector shows its search: "tree" (root moves and replies with their
    # values), "visits" (MCTS root statistics) or "none" (it does not search)
    shows = "tree"

    def __init__(self, **settings: Any) -> None:
        known = {s.name: s for s in self.settings_spec}
        for name in settings:
            if name not in known:
                raise BadSetting(unknown_setting_message(self.kind, name, known))
        self.settings = {s.name: settings.get(s.name, s.default) for s in self.settings_spec}
        self.given = frozenset(settings)  # the settings chosen, not defaulted

    def with_defaults(self, **defaults: Any) -> "Agent":
        """The same agent, with `defaults` for the settings it was not given."""
        known = {s.name for s in self.settings_spec}
        chosen = {name: self.settings[name] for name in self.given}
        extra = {k: v for k, v in defaults.items() if k in known and k not in self.given}
        return type(self)(**chosen, **extra)

    @property
    def spec(self) -> str:
        """The agent as the CLI writes it, e.g. `mcts:iterations=3000,seed=1`: every
        setting chosen (even at its default value) or not at its default."""
        changed = [
            f"{s.name}={self.settings[s.name]:g}" if s.type is float
            else f"{s.name}={self.settings[s.name]}"
            for s in self.settings_spec
            if s.name in self.given or self.settings[s.name] != s.default
        ]
        return self.kind + (":" + ",".join(changed) if changed else "")

    @property
    def label(self) -> str:
        """A short human name, e.g. `MCTS (3000 iterations)`."""
        main = self.main_setting
        if main is None or self.settings.get(main) is None:
            return self.title
        value = self.settings[main]
        unit = {"time": "s", "depth": " ply", "iterations": " iterations"}.get(main, "")
        return f"{self.title} ({value:g}{unit})" if isinstance(value, float) else \
            f"{self.title} ({value}{unit})"

    def budget(self) -> Budget:
        return Budget()

    def prepare(self) -> None:
        """Get ready to decide (compile kernels, make tables) before a move's clock
        starts; most agents need nothing beyond the game's warm-up."""

    @classmethod
    def plays(cls, game) -> bool:
        """Whether this kind of agent can play `game` (all but the seed engine can)."""
        return True

    def decide(self, state: State, budget: Budget | None = None, observer: Any = None,
               control: SearchControl | None = None, *, exact_root: bool = False
               ) -> SearchDone:
        """The agent's decision. With `exact_root` (analysis), a search that would only
        bound the other root moves' values gives each its exact value instead."""
        outcome = state.outcome()
        if outcome is not None:
            raise IllegalMove(f"the game is over ({outcome.reason}): there is no move "
                              "to choose")
        if not self.plays(state.game):
            raise BadSetting(f"{self.title} cannot play {state.game.title}: "
                             f"{self.description}")
        budget = budget or self.budget()
        control = control or SearchControl(budget)
        done = self.search(state, budget, observer, control, exact_root)
        if observer is not None:
            observer(done)  # every agent's last event, even one that does not search
        return done

    def replay_plan(self, done: SearchDone) -> "tuple[Agent, Budget] | None":
        """How to run the search behind `done` again, tracing every step, so that it
        repeats it: this agent (same settings, same seed) and a budget that needs no
        clock, since a tracing search is slower and a clock would stop it elsewhere.
        None for an agent that does not search."""
        if self.shows == "none":
            return None
        return self, replay_budget(self.budget(), done)

    def choose(self, state: State, budget: Budget | None = None, observer: Any = None,
               control: SearchControl | None = None) -> Move:
        return self.decide(state, budget, observer, control).best_move

    def search(self, state: State, budget: Budget, observer: Any,
               control: SearchControl, exact_root: bool) -> SearchDone:
        raise NotImplementedError

    def rng(self, state: State) -> SplitMix64:
        """This decision's generator: a function of the seed and the position only."""
        return SplitMix64(derive_seed(self.settings["seed"], state.key()))


def replay_budget(budget: Budget, done: SearchDone) -> Budget:
    """The clock-free budget that repeats `done`: as many MCTS iterations as it ran;
    for a tree search stopped by its budget, as many nodes (the count stops it at the
    same node, in the same unfinished iteration); else its last depth."""
    if done.scale == MEAN:
        return Budget(iterations=done.work)
    if done.stopped:
        return Budget(depth=budget.depth, nodes=done.work)
    return Budget(depth=done.depth)


class RandomAgent(Agent):
    kind, title = "random", "Random"
    description = "plays a uniformly random legal move"
    settings_spec = (SEED,)
    shows = "none"

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
        Setting("depth", int, DEFAULT_DEPTH, "plies to search", minimum=1),
        TIME,
    )
    main_setting = "depth"

    def budget(self):
        return Budget(time=self.settings["time"], depth=self.settings["depth"])

    def search(self, state, budget, observer, control, exact_root):
        return minimax_search(state.game, state, budget, observer, control)


class AlphaBetaAgent(Agent):
    kind, title = "alphabeta", "Alpha-Beta"
    description = ("iterative-deepening alpha-beta with a transposition table and "
                   "move ordering")
    settings_spec = (
        Setting("time", float, None, "seconds per move (1 if no other limit)", 0.001),
        Setting("depth", int, None, "deepest iteration", minimum=1),
        Setting("nodes", int, None, "node limit", minimum=1),
    )
    main_setting = "time"
    DEFAULT_TIME = 1.0

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
        from .fast import tree_backend

        return alphabeta_search(state.game, state, budget, observer, control,
                                backend=tree_backend(state.game), exact_root=exact_root)


class SeedAgent(Agent):
    kind, title = "seed", "Seed engine"
    description = ("the course's seed engine, where the game has one (BOOM): alpha-beta "
                   "to a fixed depth with the seed's heuristic")
    settings_spec = (Setting("depth", int, None, "plies to search (the seed's own if "
                             "not given)", minimum=1),)
    main_setting = "depth"

    @classmethod
    def plays(cls, game) -> bool:
        return game.seed_depth is not None

    def search(self, state, budget, observer, control, exact_root):
        game = state.game
        depth = self.settings["depth"] or game.seed_depth
        return alphabeta_search(game, state, Budget(depth=depth), observer, control,
                                exact_root=exact_root, evaluate=game.seed_evaluate,
                                avoid_repeats=False)


class PerfectAgent(Agent):
    kind, title = "perfect", "Perfect"
    description = ("Connect 4 only: the exact solver's best move (the fastest win, the "
                   "slowest loss); when a position is not solved in half its time, "
                   "Alpha-Beta's move, its values marked as estimates")
    settings_spec = (Setting("time", float, None, "seconds per move (1 if not given)",
                             0.001),)
    main_setting = "time"
    DEFAULT_TIME = 1.0

    @classmethod
    def plays(cls, game) -> bool:
        return game.id == "connect4"

    def budget(self):
        return Budget(time=self.settings["time"] or self.DEFAULT_TIME)

    @property
    def label(self):
        return f"{self.title} ({self.settings['time'] or self.DEFAULT_TIME:g}s)"

    def prepare(self) -> None:
        from .perfect import warm_up

        warm_up()  # the solver's table, and its kernels compiled or loaded

    def search(self, state, budget, observer, control, exact_root):
        from .perfect import perfect_search

        return perfect_search(state, budget, observer, control, exact_root)

    def replay_plan(self, done):
        """The solver (a kernel) keeps no trace; Alpha-Beta's fallback can be replayed."""
        if done.exact:
            return None
        fallback = AlphaBetaAgent(time=self.budget().time)
        return fallback, replay_budget(fallback.budget(), done)


class MctsAgent(Agent):
    kind, title = "mcts", "MCTS"
    description = "UCT Monte Carlo tree search with random playouts"
    settings_spec = (
        Setting("iterations", int, 5500, "playouts per move (unless time is set)", 1),
        TIME,
        Setting("c", float, DEFAULT_EXPLORATION, "exploration constant", minimum=0),
        SEED,
    )
    main_setting = "iterations"
    shows = "visits"

    def budget(self):
        if self.settings["time"] is not None:
            return Budget(time=self.settings["time"])
        return Budget(iterations=self.settings["iterations"])

    @property
    def label(self):
        if self.settings["time"] is not None:
            return f"{self.title} ({self.settings['time']:g}s)"
        return super().label

    def search(self, state, budget, observer, control, exact_root):
        from .fast import mcts_tree_factory

        seed = derive_seed(self.settings["seed"], state.key())
        return mcts_search(state.game, state, budget, seed, self.settings["c"], observer,
                           control, fast_tree=mcts_tree_factory(state.game))


class GaAgent(Agent):
    """Connect 4's seed system: strategy pairs mixed by a profile's genes (see
    core/games/connect4_strategies.py), plus a win or block in one first."""

    kind, title = "ga", "Strategy (GA)"
    description = ("Connect 4 only: the course's seed system, four pairs of simple "
                   "strategies mixed by genetic-algorithm-tuned genes; takes a win or "
                   "blocks one in one first (an addition to the seed system)")
    settings_spec = (
        Setting("profile", str, None, "profile JSON file (the shipped default if not "
                "given)"),
        SEED,
    )
    shows = "none"

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self._profile = None
        if self.settings["profile"] is not None:
            self._profile = load_profile(self.settings["profile"])  # fails early

    @classmethod
    def for_profile(cls, profile: Profile, seed: int | None = None) -> "GaAgent":
        """An agent playing an in-memory profile (one the GA is evolving, say); without
        a seed, `with_defaults` can give it one."""
        agent = cls() if seed is None else cls(seed=seed)
        agent._profile = profile
        return agent

    def with_defaults(self, **defaults: Any) -> "GaAgent":
        agent = super().with_defaults(**defaults)
        agent._profile = self._profile  # an in-memory profile goes along
        return agent

    @classmethod
    def plays(cls, game) -> bool:
        return game.id == "connect4"

    @property
    def profile(self) -> Profile:
        if self._profile is None:
            self._profile = load_profile(self.settings["profile"] or DEFAULT_PROFILE)
        return self._profile

    @property
    def label(self) -> str:
        return f"{self.title}: {self.profile.name}"

    def search(self, state, budget, observer, control, exact_root):
        move = choose_column(state, self.profile.genes, self.rng(state))
        return SearchDone(move, None, (move,), 0, control.elapsed())


AGENT_KINDS: dict[str, type[Agent]] = {
    cls.kind: cls
    for cls in (RandomAgent, GreedyAgent, MinimaxAgent, AlphaBetaAgent, MctsAgent,
                SeedAgent, PerfectAgent, GaAgent)
}


def unknown_setting_message(kind: str, name: str, known) -> str:
    options = ", ".join(known) or "none"
    return f"{kind}: unknown setting {name!r} (settings: {options})"


def make_agent(kind: str, **settings: Any) -> Agent:
    try:
        cls = AGENT_KINDS[kind]
    except KeyError:
        raise UnknownName(
            f"unknown agent {kind!r} (agents: {', '.join(AGENT_KINDS)})"
        ) from None
    return cls(**settings)


def parse_agent(text: str) -> Agent:
    """`kind` or `kind:name=value,name=value`."""
    kind, _, rest = text.strip().partition(":")
    cls = AGENT_KINDS.get(kind)
    if cls is None:
        make_agent(kind)  # raises the unknown-agent error
    known = {s.name: s for s in cls.settings_spec}
    settings: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        name, equals, value = item.partition("=")
        name = name.strip()
        if not equals:
            raise BadSetting(f"{kind}: setting {item!r} needs a value, as in name=value")
        if name not in known:
            raise BadSetting(unknown_setting_message(kind, name, known))
        settings[name] = known[name].parse(kind, value.strip())
    return cls(**settings)

