"""The `az` agent: PUCT search (core/search/puct.py) guided by a policy/value network,
AlphaZero's way of playing.

It plays a game whose registration declares an encoding, with a network for it: the
file its `net` setting names, else the one the game's registration ships
(GameEntry.network). A network file is data, never code (net.py reads it without
pickle, under a size cap), so naming one needs no trust. Each file is read once per
process, and again only if it changes. numpy and the network load when an agent
first needs them, not when the agent kinds are listed.
"""
from __future__ import annotations

import os
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

from ...errors import PlygroundError, shown, visible
from ...ranges import LARGEST_EXPLORATION
from ...rng import derive_seed
from ...search.control import Budget
from ...search.mcts import MAX_ITERATIONS
from ...search.puct import DEFAULT_C, puct_search
from ...game import game_entries
from ..base import SEED, TIME, Agent, FileSetting, Setting, Shows

DEFAULT_SIMS = 800

# (resolved path, game spec) -> (the file's mtime and size, net, info): the nets read
_LOADED: dict[tuple[str, str], tuple[tuple[int, int], Any, dict]] = {}


def shipped_net(game) -> Path | None:
    """The network the game's registration ships (GameEntry.network), if any."""
    return net_file(game.entry.network)


def net_file(ref: str | None) -> Path | None:
    """The file a registration's `package:path/in/package.npz` names."""
    if not ref:
        return None
    package, _, name = ref.partition(":")
    return Path(str(resources.files(package).joinpath(name)))


def shipped_nets() -> list[Path]:
    """Every network a game's registration ships: those a server offers its
    visitors (core/agents/files.py)."""
    return [path for entry in game_entries() if (path := net_file(entry.network))]


def load_for(path: Path, game) -> tuple[Any, dict]:
    """(net, info) of the network file at `path`, checked to be one for `game` (its
    input and policy sizes, and the game it was trained on): read once, and again
    only if the file changed. PlygroundError in one line otherwise."""
    from .net import load_net  # numpy: only once a network is needed

    try:
        stat = os.stat(path)
    except OSError as error:
        raise PlygroundError(f"cannot read {shown(str(path))}: "
                             f"{error.strerror or error}") from None
    key, version = (str(path.resolve()), game.spec), (stat.st_mtime_ns, stat.st_size)
    cached = _LOADED.get(key)
    if cached is None or cached[0] != version:
        net, info = load_net(path, encoding=game.encoding())
        trained = info.get("game")
        if isinstance(trained, str) and trained != game.spec:
            # the game its info names is the file's word: shown with its escapes
            raise PlygroundError(f"{shown(str(path))} is a network for {visible(trained)}, "
                                 f"not {game.spec}")
        _LOADED[key] = cached = version, net, info
    return cached[1], cached[2]


def problem(agent: "AzAgent | None", game) -> str:
    """Why `agent` (None: the kind, as the menus ask) cannot play `game`, "" if it
    can. The kind looks for the shipped file only; an agent reads its network, so
    that a file that is not one for the game is named before a game starts."""
    if game.encoding() is None:
        return "its registration declares no network encoding"
    given = None if agent is None else agent.settings["net"]
    path = Path(given).expanduser() if given else shipped_net(game)
    if path is None or not given and not path.is_file():
        return (f"no network is shipped for it yet: train one with `plyground train az "
                f"{game.spec} --minutes 10 --out {game.id}.npz` and pass "
                f"net={game.id}.npz")
    if agent is None:
        return ""
    try:
        load_for(path, game)
    except PlygroundError as error:
        return str(error)
    return ""


class ByNet:
    """`plays` and `why_not` of the kind (the menus ask it) or of an agent, whose own
    `net` decides: a classmethod cannot see the settings."""

    def __init__(self, answer) -> None:
        self.answer = answer

    def __get__(self, agent, kind):
        return partial(self.answer, agent)


class AzAgent(Agent):
    kind, title = "az", "AlphaZero"
    description = ("PUCT search guided by a policy/value network learnt by self-play "
                   "(AlphaZero); plays a game with a network encoding and a network: "
                   "the shipped one or net=FILE (plyground train az makes one)")
    settings_spec = (
        Setting("sims", int, DEFAULT_SIMS, "simulations per move (unless time is set); "
                "0 plays the network's top move with no search", minimum=0,
                maximum=MAX_ITERATIONS),
        TIME,
        Setting("c", float, DEFAULT_C, "exploration constant", minimum=0,
                maximum=LARGEST_EXPLORATION),
        FileSetting("net", str, None, "network file (.npz; the game's shipped one if "
                    "not given)", offered=shipped_nets),
        SEED,
    )
    main_setting = "sims"
    shows = Shows.VISITS
    work_noun = "simulations"

    plays = ByNet(lambda agent, game: not problem(agent, game))
    why_not = ByNet(problem)

    def budget(self) -> Budget:
        time, sims = self.settings["time"], self.settings["sims"]
        if time is None:
            return Budget(iterations=sims)
        return Budget(time=time, iterations=sims if "sims" in self.given else None)

    @property
    def label(self) -> str:
        if self.settings["time"] is not None:
            return f"{self.title} ({self.settings['time']:g}s)"
        sims = self.settings["sims"]
        return f"{self.title} ({f'{sims} simulations' if sims else 'policy only'})"

    def prepare(self) -> None:
        from ...fast.puct_batch import warm_all

        warm_all()  # the compiled search's kernels, before a move's clock starts

    def network(self, game):
        net = self.settings["net"]
        return load_for(Path(net).expanduser() if net else shipped_net(game), game)[0]

    def search(self, state, budget, observer, control, exact_root):
        from .fast_search import can_search, fast_puct_search  # numba: only here
        from .selfplay import evaluator  # numpy: only once a network is needed

        game = state.game
        if can_search(game, observer):  # compiled; a trace replays the reference
            return fast_puct_search(game, state, budget, self.network(game),
                                    self.settings["c"], observer, control)
        return puct_search(game, state, budget, evaluator(self.network(game), game),
                           self.settings["c"], derive_seed(self.settings["seed"],
                                                           state.key()),
                           observer, control)
