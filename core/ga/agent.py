"""The `ga` agent: Connect 4's strategy system (connect4_strategies.py) as a player,
its genes from a profile the genetic algorithm tuned."""
from __future__ import annotations

from typing import Any

from ..agents.base import SEED, Agent, FileSetting, Shows
from .profile import (DEFAULT_PROFILE, Profile, load_profile, offered_profiles,
                      profile_path, saved_profiles)
from ..search.events import SearchDone
from ..errors import visible
from ..games.connect4 import GAME
from .strategies import choose_column


class GaAgent(Agent):
    """Connect 4's seed system: strategy pairs mixed by a profile's genes (see
    core/ga/strategies.py), plus a win or block in one first."""

    kind, title = "ga", "Strategy (GA)"
    description = ("Connect 4 only: the course's seed system, four pairs of simple "
                   "strategies mixed by genetic-algorithm-tuned genes; takes a win or "
                   "blocks one in one first (an addition to the seed system)")
    settings_spec = (
        FileSetting("profile", str, None, "profile JSON file, or the name of one "
                    "installed in the profiles folder (the shipped default if not "
                    "given)", offered=offered_profiles),
        SEED,
    )
    shows = Shows.NONE

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self._profile = None
        if self.settings["profile"] is not None:
            self._profile = load_profile(profile_path(self.settings["profile"]))

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

    games = (GAME.id,)

    @classmethod
    def menu_choices(cls) -> list[tuple[str, str]]:
        """One entry per saved profile, read anew each time (so a profile trained
        meanwhile appears)."""
        return [(f"GA: {profile.name}", f"{cls.kind}:profile={path}")
                for path, profile in saved_profiles()]

    @property
    def menu_title(self) -> str:
        return f"GA: {self.profile.name}"

    @property
    def choice(self) -> str:
        return f"{self.kind}:profile={self.settings['profile'] or DEFAULT_PROFILE}"

    @property
    def profile(self) -> Profile:
        if self._profile is None:
            self._profile = load_profile(profile_path(self.settings["profile"])
                                         if self.settings["profile"] else DEFAULT_PROFILE)
        return self._profile

    @property
    def label(self) -> str:
        return f"{self.title}: {visible(self.profile.name)}"  # the profile file's words

    def search(self, state, budget, observer, control, exact_root):
        move = choose_column(state, self.profile.genes, self.rng(state))
        return SearchDone(move, None, (move,), 0, control.elapsed())
