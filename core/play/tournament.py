"""Agent against agent: one game, a match of many games, a round-robin tournament of
many matches, all played in parallel; their tallies.

`turns` / `play_game` play one game; the CLI's `demo` watches it move by move. An
agent that breaks the rules of play (AgentFault: it raised, chose an illegal move, ran
far past its time, or its process died or hung) forfeits: the game ends there and the
other side wins, the reason kept with the result. A match plays the same two agents
(its *players*, 0 and 1) over numbered games with colours alternating: player 0 moves
first in odd games, second in even ones. A tournament plays a match between every pair
of its agents, each with a seed derived from the tournament seed and the pair's index
(so `plyground match` with that seed replays the pair's games); `run_games` plays the
games of any number of matches on one process pool. Nothing here prints; callers show
progress and results.

Match games run in worker processes started with "spawn" (never fork a process that
may have threads), so what a worker runs lives at module level here, and what crosses
to it is picklable: the game's spec, the agents, numbers. An agent from outside
plyground decides in a child process of its own (core/play/isolation.py): a plugin that
crashes or hangs loses its games and never takes a worker down. Spawn re-imports the
parent's main module in each worker: a script that runs a match keeps its own top
level under `if __name__ == "__main__":` (plyground's entry points do).
"""
from __future__ import annotations

import signal
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import closing, nullcontext
from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Iterator, Sequence

from ..agents.base import Agent
from ..errors import AgentFault
from .match import forfeit_outcome, seeded
from ..fast import warm_up
from ..game import Game, Move, Outcome, State, Termination, parse_game
from .isolation import Isolation
from ..rng import derive_seed
from ..search.control import SearchControl, SearchStopped, StopFlag
from ..search.events import SearchDone
from .spawn import interrupts_deferred, spawn_context


def turns(start: State, agents: Sequence[Agent], stop: StopFlag | None = None
          ) -> Iterator[tuple[State, SearchDone, State]]:
    """The game from `start`, `agents[side]` playing each side: per move, the position,
    the decision made in it and the position after, until the game ends.

    An agent's AgentFault ends the game with that exception (its side forfeits: see
    match.forfeit_outcome). Setting `stop` cuts the search under way short and ends the game with
    SearchStopped: a stopped search's move is not the agent's real decision."""
    state = start
    while state.outcome() is None:
        agent = agents[state.to_move]
        done = agent.decide(state, control=SearchControl(agent.budget(), stop))
        if stop is not None and stop.is_set():
            raise SearchStopped
        after = state.play(done.best_move)
        yield state, done, after
        state = after


@dataclass(frozen=True)
class PlayedGame:
    """A game played out: its final position, the moves that led there, and how it
    ended: the rules' outcome, or the forfeit of the side to move in `final`, whose
    agent's fault `fault` is (None when no one forfeited)."""

    final: State
    moves: list[Move]
    outcome: Outcome
    fault: str | None = None


def play_game(start: State, agents: Sequence[Agent], stop: StopFlag | None = None
              ) -> PlayedGame:
    """The game from `start`, played out to its end or a forfeit."""
    state, moves = start, []
    try:
        for _, done, state in turns(start, agents, stop):
            moves.append(done.best_move)
    except AgentFault as fault:
        return PlayedGame(state, moves, forfeit_outcome(state, fault), str(fault))
    return PlayedGame(state, moves, state.outcome())


@dataclass(frozen=True)
class GameResult:
    """One match game; `first` and `winner` are players (0, 1), not colours. `reason`
    is how it ended (`X connects four`, `X forfeits: ...`); `fault`, the forfeiting
    player's fault (the loser's), is None unless a player forfeited; `termination`,
    what ended it (a result from elsewhere is a declared one)."""

    number: int  # 1, 2, ...
    first: int  # the player who moved first
    winner: int | None  # None for a draw
    reason: str
    record: str  # the moves, as the game's format_record writes them
    plies: int
    fault: str | None = None
    termination: Termination = Termination.DECLARED

    @property
    def outcome(self) -> Outcome:
        """How the game ended, its winner a side (0 moved first), not a player."""
        winner = None if self.winner is None else self.winner ^ self.first
        return Outcome(winner, self.termination, self.reason)


@dataclass
class Tally:
    """One player's results over a match."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    wins_first: int = 0  # wins in games the player moved first
    wins_second: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """A win is worth 1, a draw 1/2."""
        return self.wins + self.draws / 2

    @property
    def score(self) -> float | None:
        """Points as a percentage of the games played (None before any game)."""
        return 100 * self.points / self.games if self.games else None


def tally(results: Iterable[GameResult]) -> tuple[Tally, Tally]:
    """Each player's tally."""
    tallies = (Tally(), Tally())
    for result in results:
        if result.winner is None:
            for player in tallies:
                player.draws += 1
            continue
        winner = tallies[result.winner]
        winner.wins += 1
        tallies[1 - result.winner].losses += 1
        if result.winner == result.first:
            winner.wins_first += 1
        else:
            winner.wins_second += 1
    return tallies


def game_agent(agent: Agent, seed: int, number: int, side: int) -> Agent:
    """The agent for `side` in game `number`: the game seeding rule (match.seeded)
    with the match seed and the game's number and side, so that every game differs
    and the match is reproducible."""
    return seeded(agent, seed, 2 * number + side)


_worker_stop: StopFlag | None = None  # in a match worker, the parent's stop flag
# in a match worker, the child processes of the external agents, kept between games
_worker_isolation: Isolation | None = None


def start_worker(game_id: str, stop_buffer) -> None:
    """Runs once in each worker, before its first game."""
    global _worker_stop, _worker_isolation
    # Ctrl-C reaches the whole process group: the parent alone handles it, and stops
    # the workers through the flag, so none of them dies with a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_stop = StopFlag(stop_buffer)
    _worker_isolation = Isolation()
    warm_up(game_id)  # else compiling kernels eats into a timed move


def match_game(game_spec: str, players: tuple[Agent, Agent], number: int,
               seed: int) -> GameResult:
    """Game `number` of a match between `players`, from the game's start. Each worker
    runs this; so may anyone else, to replay one game of a match.

    An external agent decides in a process named after its player's spec (one each
    when both players have the same), which a worker keeps from game to game; outside
    a worker, it ends with the game."""
    game = parse_game(game_spec)
    first = (number - 1) % 2
    names = [player.spec for player in players]
    if names[0] == names[1]:
        names = [f"{name} (player {index})" for index, name in enumerate(names)]
    start = game.start()
    kept = _worker_isolation
    with nullcontext(kept) if kept else Isolation() as isolation:
        agents = [isolation.isolate(game_agent(players[side ^ first], seed, number, side),
                                    names[side ^ first], game.spec) for side in (0, 1)]
        for agent in agents:
            agent.prepare()
        played = play_game(start, agents, _worker_stop)
    winner = played.outcome.winner
    return GameResult(number, first, None if winner is None else winner ^ first,
                      played.outcome.reason, game.format_record(start, played.moves),
                      len(played.moves), played.fault, played.outcome.termination)


Players = tuple[Agent, Agent]


def run_games(game: Game, matches: Sequence[tuple[Players, int]], games: int,
              jobs: int) -> Iterator[tuple[int, GameResult]]:
    """Play games 1..`games` of each match, given as (its players, its seed), on up to
    `jobs` worker processes; yield (the match's index, the result) as each game ends
    (so in no set order). Game 1 of every match is submitted first, then game 2...

    Closing the generator early (contextlib.closing), or Ctrl-C while it waits, stops
    the matches: games under way are cut short, the others never start, and the
    workers have exited when it returns."""
    context = spawn_context()
    stop_buffer = context.RawArray("b", 8)
    with ProcessPoolExecutor(min(jobs, games * len(matches)), context,
                             initializer=start_worker,
                             initargs=(game.id, stop_buffer)) as pool:
        try:
            with interrupts_deferred():  # the pool starts its workers here
                futures = {pool.submit(match_game, game.spec, players, number, seed): index
                           for number in range(1, games + 1)
                           for index, (players, seed) in enumerate(matches)}
            for future in as_completed(futures):
                yield futures[future], future.result()
        except BaseException:  # Ctrl-C, a failed game, or the caller closed us
            StopFlag(stop_buffer).set()
            pool.shutdown(cancel_futures=True)
            raise


def run_match(game: Game, players: Players, games: int, seed: int,
              jobs: int) -> Iterator[GameResult]:
    """The match's games, as `run_games` plays them."""
    with closing(run_games(game, [(players, seed)], games, jobs)) as results:
        for _, result in results:
            yield result


def round_robin(players: int) -> list[tuple[int, int]]:
    """Every pair of players (a, b), a < b, in order: a tournament's matches."""
    return list(combinations(range(players), 2))


def pair_seed(seed: int, pair: int) -> int:
    """The seed of a tournament's match `pair` (an index into its round_robin)."""
    return derive_seed(seed, pair)


def run_tournament(game: Game, agents: Sequence[Agent], games: int, seed: int,
                   jobs: int) -> Iterator[tuple[int, GameResult]]:
    """`games` games between every pair of `agents`: (pair index, result) as each ends,
    the result's players 0 and 1 being the pair's a and b."""
    matches = [((agents[a], agents[b]), pair_seed(seed, pair))
               for pair, (a, b) in enumerate(round_robin(len(agents)))]
    yield from run_games(game, matches, games, jobs)


def cross_table(players: int, results: Iterable[tuple[int, GameResult]]
                ) -> list[list[Tally | None]]:
    """table[a][b]: player a's tally against b (None where a == b)."""
    pairs = round_robin(players)
    by_pair: list[list[GameResult]] = [[] for _ in pairs]
    for pair, result in results:
        by_pair[pair].append(result)
    table: list[list[Tally | None]] = [[None] * players for _ in range(players)]
    for (a, b), pair_results in zip(pairs, by_pair):
        table[a][b], table[b][a] = tally(pair_results)
    return table


def scores(players: int, results: Iterable[tuple[int, GameResult]]
           ) -> Iterator[tuple[int, int, float]]:
    """Each game as (a, b, a's score: 1 for a win, 1/2 for a draw, 0 for a loss)."""
    pairs = round_robin(players)
    for pair, result in results:
        a, b = pairs[pair]
        yield a, b, 0.5 if result.winner is None else float(result.winner == 0)
