"""The agent base class and its settings.

An agent is made from a kind and settings (core/catalogue.py reads a spec such as
`mcts:iterations=5000,seed=1`). `agent.decide(state)` returns the whole decision (move,
value, principal variation); `agent.choose(state)` just the move. Agents are pure
functions of (state, budget, seed).
"""
from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Callable, Iterable

from ..errors import AgentFault, BadSetting, IllegalMove
from ..game import Move, State, game_entries
from ..plugins import describe_error
from ..ranges import (LARGEST_NUMBER, LARGEST_SEED, LONGEST_MOVE, SHORTEST_MOVE,
                      machine_memory)
from ..rng import SplitMix64, derive_seed
from ..search.control import Budget, SearchControl
from ..search.events import SearchDone
from ..values import Scale
from .box import DEFAULT_MEMORY, SMALLEST_MEMORY, memory_text, memory_within
from .ceilings import held, served_ceilings

# The range of a number setting that gives no bound of its own (a plugin's, a bot's):
# whole numbers of 64 bits, as a seed may be, and numbers within ±1e18.
WIDEST: dict[type, tuple[float, float]] = {int: (-LARGEST_SEED, LARGEST_SEED),
                                           float: (-LARGEST_NUMBER, LARGEST_NUMBER)}


def number(value: float) -> str:
    """A bound as a message says it: a whole number in full, a number as short as it
    goes."""
    return str(value) if isinstance(value, int) else f"{value:g}"


@dataclass(frozen=True)
class Setting:
    name: str
    type: type
    default: Any
    help: str
    minimum: float | None = None
    choices: tuple[str, ...] = ()  # the words a word setting may be
    # With `minimum`, the range a number must fall in, checked as it is read; a bound
    # not given is the widest a number of its type may take (WIDEST)
    maximum: float | None = None

    def range(self) -> tuple[float, float]:
        """The smallest and the largest value of this number setting."""
        low, high = WIDEST[self.type]
        return (low if self.minimum is None else self.minimum,
                high if self.maximum is None else self.maximum)

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
        if self.type in WIDEST:
            low, high = self.range()
            if value < low:
                raise BadSetting(f"{agent}: {self.name} must be at least {number(low)}")
            if value > high:
                raise BadSetting(f"{agent}: {self.name} must be at most {number(high)}")
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
            return memory_within(text, self.range()[1])
        except ValueError as wrong:
            raise BadSetting(f"{agent}: {self.name}={text!r} {wrong}") from None

    def text(self, value: int) -> str:
        return memory_text(value)


MEM = MemorySetting("mem", int, DEFAULT_MEMORY, "the most memory its process may "
                    f"take, e.g. 512M or 4G ({memory_text(DEFAULT_MEMORY)} if not given)",
                    minimum=SMALLEST_MEMORY, maximum=machine_memory())


@dataclass(frozen=True)
class FileSetting(Setting):
    """A setting that names a file (a network, a profile). Which files it may name is
    the caller's policy, given to spec parsing (core/agents/files.py): any, on the
    user's own command line; those beside the lesson, in a lesson; those the server
    offers, for a visitor of `plyground serve`. `offered` lists the files plyground
    ships for it (and the menus offer), which a server offers its visitors."""

    offered: Callable[[], Iterable[Any]] | None = None


def quoted(text: str) -> str:
    """A word as a spec writes it: in double quotes if it has spaces, commas, quotes
    or backslashes."""
    if text and not re.search(r'[\s,"\\]', text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Shows(StrEnum):
    """How the inspector shows an agent's search. Str-valued, so that an agent from
    outside plyground that sets `shows = "visits"` is read the same."""

    TREE = "tree"  # root moves and replies with their values
    VISITS = "visits"  # MCTS root statistics
    INFO = "info"  # what an agent from outside says of its search (engine info lines)
    NONE = "none"  # it does not search


SEED = Setting("seed", int, 0, "random seed: the same seed gives the same moves",
               minimum=0, maximum=LARGEST_SEED)
TIME = Setting("time", float, None, "seconds per move", minimum=SHORTEST_MOVE,
               maximum=LONGEST_MOVE)


class Agent:
    """Base class: a kind name, settings, and `decide`."""

    kind: str = ""
    title: str = ""
    description: str = ""
    settings_spec: tuple[Setting, ...] = ()
    main_setting: str | None = None
    # the seconds a move takes when no setting limits it (None: a kind with no clock
    # of its own); the setup screen shows it in an empty time box
    DEFAULT_TIME: float | None = None
    shows: Shows = Shows.TREE  # how the inspector shows its search
    # what its search's work counts, where that is neither nodes nor MCTS iterations
    work_noun: str | None = None
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

    def draws_its_seed(self) -> bool:
        """Whether it takes a seed and was given none (so it draws one a game, and
        a search of its cannot be repeated without the game's seed)."""
        return "seed" in self.settings and "seed" not in self.given

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
        ceilings = served_ceilings()
        if ceilings is not None:  # a served visitor's search: held to the ceilings
            budget = held(self, budget, ceilings)
            if control is not None:
                control.budget = budget
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
        if self.shows == Shows.NONE:
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
    if done.scale == Scale.MEAN:
        return Budget(iterations=done.work)
    if done.stopped:
        return Budget(depth=budget.depth, nodes=done.work)
    return Budget(depth=done.depth)


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


def name_values(items: Iterable[str], needs_value: Callable[[str], str],
                twice: Callable[[str], str],
                value: Callable[[str, str], Any] = lambda name, text: text,
                allow_empty: bool = True) -> dict[str, Any]:
    """The one grammar of `name=value` items, an agent's settings and an engine's
    options: {name: value(name, text)}, name and text stripped. The BadSetting says
    `needs_value(item)` for an item with no `=` (or, unless `allow_empty`, no name or
    no value), `twice(name)` for a name given again; `value` may raise its own (an
    unknown name, a bad value)."""
    values: dict[str, Any] = {}
    for item in items:
        name, equals, text = item.partition("=")
        name, text = name.strip(), text.strip()
        if not equals or not allow_empty and not (name and text):
            raise BadSetting(needs_value(item))
        if name in values:
            raise BadSetting(twice(name))
        values[name] = value(name, text)
    return values


def unknown_setting_message(kind: str, name: str, known) -> str:
    options = ", ".join(known) or "none"
    return f"{kind}: unknown setting {name!r} (settings: {options})"
