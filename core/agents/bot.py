"""The student's base class: write `decide(state, budget) -> move`, and plyground
plays it, in the menus, the CLI and tournaments.

    from plyground.core.agents.bot import Bot

    class MyBot(Bot):
        "Takes the first legal move."          # the menus show this line
        settings = {"depth": 2}                # my-bot.py:MyBot:depth=4 changes it

        def decide(self, state, budget):
            return state.moves()[0]

A bot may say what it thinks while it decides, `self.report(depth=3, score=12,
pv=[move, reply], nodes=5000)`, which the app's inspector shows live; it should stop
when `self.should_stop()` turns true (its time is up or the game no longer needs the
move). Whatever goes wrong is the bot's: an exception, an illegal move, a decision far
past its time, or memory beyond its limit (`mem`, 2G unless given: the app, matches
and demos run a bot in a process of its own, core/play/isolation.py) forfeits the game,
with the reason in the result. Its reports travel from that process to the app's
inspector while it decides.
"""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Sequence

from .base import MEM, SEED, TIME, Agent, Setting, Shows
from ..game import Move, State
from ..rng import derive_seed
from ..search.control import Budget, SearchControl
from ..search.events import Info, SearchDone


class Bot:
    """Subclass it and write `decide`. `settings` are the bot's own, with defaults
    (whole numbers, numbers or text); each becomes an attribute of the bot."""

    name: str = ""  # the menus' title (the class name if empty)
    settings: dict[str, Any] = {}
    games: tuple[str, ...] | None = None  # the ids of the games it plays (None: all)
    random: Any  # a random.Random seeded from the game's seed and the position

    def decide(self, state: State, budget: Budget) -> Move:
        """The move to play in `state` (one of `state.moves()`). `budget.time` is the
        seconds it may take (None: no limit)."""
        raise NotImplementedError("a Bot must define decide(state, budget)")

    def report(self, depth: int | None = None, score: float | None = None,
               pv: Sequence[Move] = (), nodes: int | None = None, text: str = "") -> None:
        """Say what the bot thinks so far: the inspector shows it live."""
        self._last = Info(depth, score, tuple(pv), nodes, text)
        if self._observer is not None:
            self._observer(self._last)

    def should_stop(self) -> bool:
        """Whether the bot's time is up or the move is no longer wanted."""
        return self._control.exhausted()

    _observer: Any = None
    _control: SearchControl | None = None
    _last: Info | None = None


def bot_agent_class(bot_class: type[Bot], kind: str) -> type[Agent]:
    """An agent kind that plays `bot_class`, named `kind` (the spec that loaded it)."""
    own = tuple(Setting(name, type(default) if default is not None else str, default,
                        f"the bot's own setting {name}")
                for name, default in bot_class.settings.items())
    doc = (bot_class.__doc__ or "").strip().splitlines()
    return type(bot_class.__name__, (BotAgent,), {
        "kind": kind, "title": bot_class.name or bot_class.__name__,
        "description": doc[0] if doc else f"a Python bot from {kind}",
        "settings_spec": (replace(TIME, default=1.0),
                          *own, MEM, SEED),
        "bot_class": bot_class, "games": bot_class.games, "__module__": __name__,
    })


class BotAgent(Agent):
    """A Bot as an agent (made by bot_agent_class for each bot class)."""

    bot_class: type[Bot] = Bot
    main_setting = "time"
    shows = Shows.INFO
    external = True

    def budget(self) -> Budget:
        return Budget(time=self.settings["time"])

    def search(self, state, budget, observer, control, exact_root):
        bot = self.bot_class()
        for name in self.bot_class.settings:
            setattr(bot, name, self.settings[name])
        bot.random = random.Random(derive_seed(self.settings["seed"], state.key()))
        bot._observer, bot._control = observer, control
        move = bot.decide(state, budget)
        last = bot._last or Info()
        pv = last.pv if last.pv[:1] == (move,) else (move,)
        return SearchDone(move, None, pv, last.nodes or 0,
                          control.elapsed(), depth=last.depth, note=last.text)
