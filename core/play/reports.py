"""What a match or a tournament comes to, as typed results: each game, the totals, the
cross table, the Elo ratings and the games agents forfeited. `to_json()` gives it as
plain data: what `plyground match --json` and `tournament --json` print, and what
their text views render, so the two never say different things."""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from typing import Iterable

from .ratings import elo_ratings
from .tournament import (GameResult, Tally, cross_table, gauntlet, pair_seed, round_robin,
                         scores, tally)


@dataclass(frozen=True)
class Forfeit:
    """Games an agent lost by failing to play, all for one fault."""

    agent: str  # the agent's spec
    fault: str
    games: int


def forfeits(specs: list[str], lost: Iterable[tuple[int, str]]) -> list[Forfeit]:
    """The games agents forfeited, given as (the loser's index, its fault): for each
    agent, in the order given, each fault with how many games it cost, the commonest
    first."""
    counts = sorted(Counter(lost).items(), key=lambda item: (item[0][0], -item[1]))
    return [Forfeit(specs[loser], fault, games) for (loser, fault), games in counts]


@dataclass(frozen=True)
class MatchReport:
    """Two agents over many games. A game's `first` and `winner` are 0 (the first
    agent) or 1; its `reason` says how it ended; `fault` is the forfeiting agent's (the
    loser's); `opening`, the line it started from."""

    game: str  # the game's spec
    agents: tuple[str, str]  # the specs as typed
    seed: int
    command: str  # the command that replays the match
    results: list[GameResult]  # by number
    openings: str | None = None  # the opening suite's name or path

    @property
    def totals(self) -> tuple[Tally, Tally]:
        return tally(self.results)

    @property
    def forfeits(self) -> list[Forfeit]:
        return forfeits(list(self.agents), [(1 - result.winner, result.fault)
                                            for result in self.results if result.fault])

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "agents": list(self.agents),
            "seed": self.seed,
            "command": self.command,
            "openings": self.openings,
            "results": [asdict(result) for result in self.results],
            "totals": [{"agent": spec, **asdict(total), "points": total.points,
                        "score": total.score}
                       for spec, total in zip(self.agents, self.totals)],
            "forfeits": [asdict(forfeit) for forfeit in self.forfeits],
        }


@dataclass(frozen=True)
class Standing:
    """An agent's place in a tournament: its rating (± `error`, one standard error)
    and the points it scored (`score`, in per cent of its games)."""

    rank: int
    agent: int  # its index in the order given
    spec: str
    elo: float
    error: float
    games: int
    points: float
    score: float | None


@dataclass(frozen=True)
class TournamentReport:
    """Every pair of agents in a match, or in a gauntlet the `challenger` (an index)
    against each other agent. Agents are numbered from 0 in the order given; a pair's
    games have `first` and `winner` 0 (the pair's first agent) or 1.
    `cross_table[a][b]` is agent a's tally against b (None where they did not meet);
    `ratings` go best first."""

    game: str  # the game's spec
    agents: list[str]  # the specs as typed
    games_per_pair: int
    seed: int
    command: str  # the command that replays the tournament
    results: list[tuple[int, GameResult]]  # (pair, game), by pair and number
    challenger: int | None = None
    openings: str | None = None  # the opening suite's name or path

    @property
    def pairs(self) -> list[tuple[int, int]]:
        if self.challenger is None:
            return round_robin(len(self.agents))
        return gauntlet(len(self.agents), self.challenger)

    @property
    def cross_table(self) -> list[list[Tally | None]]:
        return cross_table(len(self.agents), self.results, self.pairs)

    @property
    def ratings(self) -> list[Standing]:
        players = len(self.agents)
        rows = []
        for agent, (rating, row) in enumerate(zip(
                elo_ratings(players, scores(players, self.results, self.pairs)),
                self.cross_table)):
            tallies = [cell for cell in row if cell is not None]
            played, points = sum(t.games for t in tallies), sum(t.points for t in tallies)
            rows.append((agent, rating, played, points))
        rows.sort(key=lambda row: -row[1].elo)
        return [Standing(rank, agent, self.agents[agent], rating.elo, rating.error,
                         played, points, 100 * points / played if played else None)
                for rank, (agent, rating, played, points) in enumerate(rows, 1)]

    @property
    def forfeits(self) -> list[Forfeit]:
        pairs = self.pairs
        return forfeits(self.agents, [(pairs[pair][1 - result.winner], result.fault)
                                      for pair, result in self.results if result.fault])

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "agents": self.agents,
            "games_per_pair": self.games_per_pair,
            "seed": self.seed,
            "command": self.command,
            "gauntlet": None if self.challenger is None else self.agents[self.challenger],
            "openings": self.openings,
            "pairs": [{"agents": list(pair), "seed": pair_seed(self.seed, index),
                       "results": [asdict(result) for played, result in self.results
                                   if played == index]}
                      for index, pair in enumerate(self.pairs)],
            "cross_table": [[None if cell is None else asdict(cell) for cell in row]
                            for row in self.cross_table],
            "ratings": [asdict(standing) for standing in self.ratings],
            "forfeits": [asdict(forfeit) for forfeit in self.forfeits],
        }
