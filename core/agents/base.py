"""Agents and the catalogue the CLI and the menus offer.

An agent is made from a kind and settings: `make_agent("mcts", iterations=5000, seed=1)`
or, as the CLI and menus write it, `parse_agent("mcts:iterations=5000,seed=1")`.
`agent.decide(state)` returns the whole decision (move, value, principal variation);
`agent.choose(state)` just the move. Agents are pure functions of (state, budget, seed).
"""
from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from typing import Any

from .box import DEFAULT_MEMORY, SMALLEST_MEMORY, memory_text, parse_memory
from ..game import IllegalMove, Move, PlygroundError, State, UnknownName, game_entries
from ..plugins import (PluginError, describe_error, load_entry_points, load_object,
                       split_plugin_ref)
from ..rng import SplitMix64, derive_seed
from ..search.alphabeta import alphabeta_search
from ..search.control import Budget, SearchControl
from ..search.events import SearchDone
from ..search.mcts import DEFAULT_EXPLORATION, mcts_search
from ..search.minimax import DEFAULT_DEPTH, minimax_search
from ..values import MEAN


class BadSetting(PlygroundError):
    """An agent setting that does not exist or has a bad value."""


class AgentFault(PlygroundError):
    """An agent broke the rules of play: it raised, returned an illegal move or ran
    past its budget. Its side forfeits the game; the message says which and why."""


@dataclass(frozen=True)
class Setting:
    name: str
    type: type
    default: Any
    help: str
    minimum: float | None = None
    choices: tuple[str, ...] = ()  # the words a word setting may be

    def parse(self, agent: str, text: str) -> Any:
        if self.type is bool:  # bool("false") is True
            if text.lower() not in ("true", "false"):
                raise BadSetting(f"{agent}: {self.name}={text!r} is not true or false")
            return text.lower() == "true"
        try:
            value = self.type(text)
        except ValueError:
            kind = {int: "a whole number", float: "a number"}.get(self.type, "a value")
            raise BadSetting(f"{agent}: {self.name}={text!r} is not {kind}") from None
        if self.type is float and not math.isfinite(value):
            raise BadSetting(f"{agent}: {self.name}={text!r} is not a finite number")
        if self.choices and value not in self.choices:
            raise BadSetting(f"{agent}: {self.name}={text!r} is not one of "
                             f"{', '.join(self.choices)}")
        if self.minimum is not None and value < self.minimum:
            raise BadSetting(f"{agent}: {self.name} must be at least {self.minimum}")
        return value

    def text(self, value: Any) -> str:
        """`value` as a spec writes it, read back by `parse` as the same value: a
        number as short as it goes (`0.5`, not `0.50000`), a word in double quotes if
        it has spaces, commas, quotes or backslashes (`split_settings` reads it)."""
        if self.type is float:
            short = f"{value:g}"
            return short if float(short) == value else repr(value)
        if self.type is bool:
            return "true" if value else "false"
        return quoted(str(value)) if self.type is str else str(value)


class MemorySetting(Setting):
    """A setting in bytes, written with a unit (`mem=512M`)."""

    def parse(self, agent: str, text: str) -> int:
        try:
            size = parse_memory(text)
        except ValueError:
            raise BadSetting(f"{agent}: {self.name}={text!r} is not a memory size: give "
                             "a number and a unit, as in mem=512M or mem=2G") from None
        if size < SMALLEST_MEMORY:
            raise BadSetting(f"{agent}: {self.name} must be at least "
                             f"{memory_text(SMALLEST_MEMORY)}")
        return size

    def text(self, value: int) -> str:
        return memory_text(value)


MEM = MemorySetting("mem", int, DEFAULT_MEMORY, "the most memory its process may "
                    f"take, e.g. 512M or 4G ({memory_text(DEFAULT_MEMORY)} if not given)",
                    minimum=SMALLEST_MEMORY)


def quoted(text: str) -> str:
    """A word as a spec writes it: in double quotes if it has spaces, commas, quotes
    or backslashes."""
    if text and not re.search(r'[\s,"\\]', text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


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
    # the ids of the games it can play (None: every game; `plays` may decide instead)
    games: tuple[str, ...] | None = None
    solves_exactly = False  # an exact solver (a review may call the solver directly)
    # an agent from outside plyground (a plugin, an engine): whatever goes wrong in its
    # decision is its fault and forfeits the game (AgentFault), and a tournament runs
    # it in a process of its own
    external = False

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
            f"{s.name}={s.text(self.settings[s.name])}" for s in self.settings_spec
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
    def outside_code(cls, settings: str) -> str | None:
        """What an agent of this kind with these settings (the text after `kind:`)
        would start from outside plyground, said without starting it (core/trust.py);
        None: nothing, it runs only plyground's code or an installed package's."""
        return None

    @classmethod
    def plays(cls, game) -> bool:
        """Whether this kind of agent can play `game`."""
        return cls.games is None or game.id in cls.games

    @classmethod
    def why_not(cls, game) -> str:
        """Why it cannot play `game`, as the user reads it ("" for no reason)."""
        if cls.games is None:
            return ""
        titles = {entry.id: entry.title for entry in game_entries()}
        return "it plays only " + " and ".join(titles.get(id, id) for id in cls.games)

    @classmethod
    def menu_choices(cls) -> list[tuple[str, str]]:
        """(title, spec) for each entry of the player menu this kind offers: one,
        unless a kind offers one per saved file (the strategy agent's profiles)."""
        return [(cls.title, cls.kind)]

    @property
    def menu_title(self) -> str:
        """Its entry's title in the player menu."""
        return self.title

    @property
    def choice(self) -> str:
        """The agent as the player menu lists it: its spec without the main setting
        (which has its own box) and its seed (the game's gives one)."""
        kept = [s for s in self.settings_spec if s.name not in (self.main_setting, "seed")]
        return type(self)(**{s.name: self.settings[s.name] for s in kept
                             if s.name in self.given}).spec

    def __reduce__(self):
        """An agent from outside travels to another process as its spec, which that
        process loads again (its class may live in a file no import path reaches)."""
        if self.external:
            return parse_agent, (self.spec,)
        return super().__reduce__()

    def decide(self, state: State, budget: Budget | None = None, observer: Any = None,
               control: SearchControl | None = None, *, exact_root: bool = False
               ) -> SearchDone:
        """The agent's decision. With `exact_root` (analysis), a search that would only
        bound the other root moves' values gives each its exact value instead."""
        outcome = state.outcome()
        if outcome is not None:
            raise IllegalMove(f"the game is over ({outcome.reason}): there is no move "
                              "to choose")
        check_plays(self, state.game)
        budget = budget or self.budget()
        control = control or SearchControl(budget)
        if self.external:
            done = self.checked_search(state, budget, observer, control, exact_root)
        else:
            done = self.search(state, budget, observer, control, exact_root)
        if observer is not None:
            observer(done)  # every agent's last event, even one that does not search
        return done

    # how far past its time budget an agent from outside may run before it forfeits
    GRACE_SECONDS, GRACE_SHARE = 1.0, 0.5
    # and how much longer its process may take to say so itself (an engine's answer to
    # `stop`, the pipe), before whoever waits for it stops it as hung
    HANG_SECONDS = 2.0

    @classmethod
    def grace_limit(cls, time_budget: float) -> float:
        """Seconds after which a decision with this time budget is a fault."""
        return time_budget * (1 + cls.GRACE_SHARE) + cls.GRACE_SECONDS

    @classmethod
    def hang_limit(cls, time_budget: float) -> float:
        """Seconds after which a decision with this time budget counts as hung."""
        return cls.grace_limit(time_budget) + cls.HANG_SECONDS

    def checked_search(self, state: State, budget: Budget, observer: Any,
                       control: SearchControl, exact_root: bool) -> SearchDone:
        """`search` for an agent from outside: anything it raises, an illegal move, or
        a decision far past its time budget is an AgentFault that names the agent."""
        started = time.perf_counter()
        try:
            done = self.search(state, budget, observer, control, exact_root)
        except AgentFault:
            raise
        except Exception as error:
            if control.stop.is_set():
                raise
            raise AgentFault(f"{self.label} raised {describe_error(error)}") from None
        took = time.perf_counter() - started
        if budget.time is not None and not control.stop.is_set() and \
                took > self.grace_limit(budget.time):
            raise AgentFault(f"{self.label} took {took:.1f} s of a {budget.time:g} s "
                             "budget")
        if done.best_move not in state.moves():
            raise AgentFault(f"{self.label} chose {done.best_move!r}, which is not a "
                             f"legal move here")
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


def check_plays(agent: "Agent | type[Agent]", game) -> None:
    """The one rule, asked before a game starts wherever an agent is chosen (every
    command, the app's menus, a review): an agent that says it does not play `game`
    (its `games`, or its `plays`) is refused, with its reason. One that says nothing
    plays every game: if it then fails, it forfeits."""
    if not agent.plays(game):
        reason = agent.why_not(game)
        raise BadSetting(f"{agent.title} cannot play {game.title}"
                         + (f": {reason}" if reason else ""))


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
        Setting("time", float, None, "seconds per move (1 if no other limit)", 0.001),
        Setting("depth", int, None, "deepest iteration", minimum=1),
        Setting("nodes", int, None, "node limit", minimum=1),
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
        from ..fast import tree_backend

        backend = tree_backend(state.game) if self.evaluate is None else None
        return alphabeta_search(state.game, state, budget, observer, control,
                                backend=backend, exact_root=exact_root,
                                evaluate=self.evaluate)


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
        Setting("iterations", int, 5500, "playouts per move (unless time is set)", 1),
        TIME,
        Setting("c", float, DEFAULT_EXPLORATION, "exploration constant", minimum=0),
        Setting("uct", str, None, "solver: prove wins and losses, play decisive playouts "
                "(Connect 4 and Quarto by default); plain: the course's UCT, random "
                "playouts (the other games' default)", choices=("solver", "plain")),
        SEED,
    )
    main_setting = "iterations"
    shows = "visits"
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
        from ..fast import mcts_tree_factory

        if self.settings["uct"] is not None:
            return self.settings["uct"] == "solver"
        if self.playout is not None:
            return False
        tree = mcts_tree_factory(game)
        return tree is not None and tree.solves

    def search(self, state, budget, observer, control, exact_root):
        from ..fast import mcts_tree_factory

        seed = derive_seed(self.settings["seed"], state.key())
        fast_tree = mcts_tree_factory(state.game)
        solver = self.solves(state.game)
        if solver and fast_tree is not None and not fast_tree.solves:
            fast_tree = None  # the solver in Python
        return mcts_search(state.game, state, budget, seed, self.settings["c"], observer,
                           control, fast_tree=fast_tree, playout=self.playout,
                           solver=solver)


AGENT_KINDS: dict[str, type[Agent]] = {}
DEFAULT_OPPONENT = "mcts"  # the menus' opponent until the user picks another
_plugins_loaded = False


def register_agent(cls: type[Agent]) -> type[Agent]:
    """Offer an agent kind in the CLI and the menus, under `cls.kind` (a decorator)."""
    AGENT_KINDS[cls.kind] = cls
    return cls


def register_plugin_kind(point, cls) -> None:
    """Offer the Agent or Bot class an installed package names, under its entry
    point's name."""
    if not (isinstance(cls, type) and issubclass(cls, (Agent, Bot))):
        raise TypeError("it is not an Agent or a Bot class")
    AGENT_KINDS.setdefault(point.name, plugin_class(cls, point.name))


def agent_kinds() -> dict[str, type[Agent]]:
    """Every agent kind: plyground's, then those installed packages declare in the
    entry-point group `plyground.agents` (loaded once; a broken one is reported as a
    warning and left out)."""
    global _plugins_loaded
    if not _plugins_loaded:
        _plugins_loaded = True
        load_entry_points("plyground.agents", "agent", register_plugin_kind)
    return AGENT_KINDS


def split_settings(text: str) -> list[str]:
    """`a=1,b="x, y"` as ['a=1', 'b=x, y']: commas inside double quotes do not split,
    and the quotes go (a backslash keeps a quote or a backslash)."""
    items, current, quoted, escaped = [], [], False, False
    for char in text:
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\" and quoted:
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif char == "," and not quoted:
            items.append("".join(current))
            current = []
        else:
            current.append(char)
    if quoted:
        raise BadSetting(f"{text!r}: a quote is not closed")
    items.append("".join(current))
    return [item.strip() for item in items if item.strip()]


for _cls in (RandomAgent, GreedyAgent, MinimaxAgent, AlphaBetaAgent, MctsAgent,
             SeedAgent):
    register_agent(_cls)
# Connect 4's own agents, registered by their modules, after the rest (the menus' order)
from ..connect4.agent import PerfectAgent  # noqa: E402
from ..ga.agent import GaAgent  # noqa: E402
from .bot import Bot, bot_agent_class  # noqa: E402
from .external import EngineAgent  # noqa: E402


def unknown_setting_message(kind: str, name: str, known) -> str:
    options = ", ".join(known) or "none"
    return f"{kind}: unknown setting {name!r} (settings: {options})"


def make_agent(kind: str, **settings: Any) -> Agent:
    try:
        cls = agent_kinds()[kind]
    except KeyError:
        raise UnknownName(
            f"unknown agent {kind!r} (agents: {', '.join(agent_kinds())}; or a Python "
            "class as path/to/file.py:Class or package.module:Class)"
        ) from None
    return cls(**settings)


def parse_agent(text: str) -> Agent:
    """`kind`, `kind:name=value,name=value`, or a Python class from outside:
    `path/to/bot.py:Class` or `package.module:Class`, its settings after another colon
    (`bot.py:Bot:depth=3`). A value with commas goes in double quotes
    (`engine:cmd="./bot --flag"`)."""
    text = text.strip()
    ref = split_plugin_ref(text)
    if ref is not None:
        source, name, rest = ref
        kind = f"{source}:{name}"
        cls = plugin_class(load_object(kind), kind)
    else:
        kind, _, rest = text.partition(":")
        cls = agent_kinds().get(kind)
        if cls is None:
            make_agent(kind)  # raises the unknown-agent error
    known = {s.name: s for s in cls.settings_spec}
    settings: dict[str, Any] = {}
    for item in split_settings(rest):
        name, equals, value = item.partition("=")
        name = name.strip()
        if not equals:
            raise BadSetting(f"{kind}: setting {item!r} needs a value, as in name=value")
        if name not in known:
            raise BadSetting(unknown_setting_message(kind, name, known))
        if name in settings:
            raise BadSetting(f"{kind}: {name} is given twice")
        settings[name] = known[name].parse(kind, value.strip())
    return cls(**settings)


def plugin_class(found: Any, kind: str) -> type[Agent]:
    """The agent class for a plugin's class: an Agent subclass (one of plyground's with
    its own evaluation, say) under the kind it was named by, or a student's Bot wrapped
    as an agent."""
    if isinstance(found, type) and issubclass(found, Bot):
        return bot_agent_class(found, kind)
    if not (isinstance(found, type) and issubclass(found, Agent)):
        raise PluginError(f"{kind}: {found!r} is not a class deriving from "
                          "plyground's Bot or Agent")
    if found.__dict__.get("kind") == kind:
        return found
    title = found.__dict__.get("title") or found.__name__
    return type(found.__name__, (found,), {"kind": kind, "title": title,
                                           "external": True,
                                           "__module__": found.__module__})
