"""Agent against agent: one game, a match of many games, a round-robin tournament of
many matches, all played in parallel; their tallies.

`turns` / `play_game` play one game; the CLI's `demo` watches it move by move. An
agent that breaks the rules of play (AgentFault: it raised, chose an illegal move, ran
far past its time, or its process died or hung) forfeits: the game ends there and the
other side wins, the reason kept with the result. A match plays the same two agents
(its *players*, 0 and 1) over numbered games with colours alternating: player 0 moves
first in odd games, second in even ones. A tournament plays a match between every pair
of its agents, each with a seed derived from the tournament seed and the pair's index
(so `plyground match` with that seed replays the pair's games). A match plays its games in
pairs: games 2r-1 and 2r (round r) start from the same opening, colours swapped. Each
game to play is a GameJob, named by its match and number; `run_games` plays any jobs on
a Pool (the local one here, a Dask cluster's in cluster.py). Nothing here prints;
callers show progress and results.

Match games run in worker processes started with "spawn" (never fork a process that
may have threads), so what a worker runs lives at module level here, and what crosses
to it is picklable: the game's spec, the agents, numbers. An agent from outside
plyground decides in a child process of its own (core/play/isolation.py): a plugin that
crashes or hangs loses its games and never takes a worker down. Spawn re-imports the
parent's main module in each worker: a script that runs a match keeps its own top
level under `if __name__ == "__main__":` (plyground's entry points do).
"""
from __future__ import annotations

import os
import queue
import signal
import threading
import sys
from concurrent.futures import FIRST_COMPLETED, Executor, ProcessPoolExecutor, wait
from contextlib import closing, contextmanager, nullcontext
from dataclasses import dataclass
from functools import partial
from itertools import combinations, islice
from typing import Callable, Iterable, Iterator, Sequence

from ..agents.base import Agent
from ..agents.box import end_with_parent
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


def play_game(start: State, agents: Sequence[Agent], stop: StopFlag | None = None,
              moved: Callable[[list[Move]], None] | None = None) -> PlayedGame:
    """The game from `start`, played out to its end or a forfeit; `moved`, if given,
    is handed the moves so far after each one (to watch the game)."""
    state, moves = start, []
    try:
        for _, done, state in turns(start, agents, stop):
            moves.append(done.best_move)
            if moved is not None:
                moved(moves)
    except AgentFault as fault:
        return PlayedGame(state, moves, forfeit_outcome(state, fault), str(fault))
    return PlayedGame(state, moves, state.outcome())


@dataclass(frozen=True)
class GameResult:
    """One match game; `first` and `winner` are players (0, 1), not colours. `reason`
    is how it ended (`X connects four`, `X forfeits: ...`); `fault`, the forfeiting
    player's fault (the loser's), is None unless a player forfeited; `termination`,
    what ended it (a result from elsewhere is a declared one); `opening`, the line it
    started from (its record holds it too)."""

    number: int  # 1, 2, ...
    first: int  # the player who moved first
    winner: int | None  # None for a draw
    reason: str
    record: str  # the moves, as the game's format_record writes them
    plies: int
    fault: str | None = None
    termination: Termination = Termination.DECLARED
    opening: str = ""  # "": the game's start

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
_worker_watch = None  # in a watched match worker, the queue each move is reported to


def worker_isolation() -> Isolation | None:
    """In a match worker, the children its external agents decide in (kept between
    jobs); None elsewhere."""
    return _worker_isolation


def with_worker_stop(function: Callable, item):
    """`function(item, stop=flag)` with the flag its pool's `stop` sets (None outside a
    local pool's worker): a job that plays a whole game itself (az's self-play and gate
    games) cuts it short when the run stops, instead of the pool's shutdown waiting
    for the game's end."""
    return function(item, stop=_worker_stop)


def start_worker(game_id: str, stop_buffer, watch=None, parent: int | None = None) -> None:
    """Runs once in each worker, before its first game. Given its `parent`'s id, the
    worker ends when that process does, however it ends (a SIGTERM or SIGKILL leaves
    no worker playing on)."""
    global _worker_stop, _worker_isolation, _worker_watch
    # Ctrl-C reaches the whole process group: the parent alone handles it, and stops
    # the workers through the flag, so none of them dies with a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent is not None:
        end_with_parent(parent, signal.SIGTERM)
    _worker_stop = StopFlag(stop_buffer)
    _worker_isolation = Isolation()
    _worker_watch = watch
    warm_up(game_id)  # else compiling kernels eats into a timed move


def report_move(watch, match: int, number: int, record: str) -> None:
    """Tell the watcher game `number` of match `match` is now `record`; never block
    the game: a move the reader has no room for is dropped (the next one says all)."""
    try:
        watch.put_nowait((match, number, record))
    except queue.Full:
        pass


def match_game(game_spec: str, players: tuple[Agent, Agent], number: int,
               seed: int, opening: str = "",
               moved: Callable[[str], None] | None = None,
               isolation: Isolation | None = None) -> GameResult:
    """Game `number` of a match between `players`, from the game's start, or from the
    position its `opening` moves lead to (a line as the game's format_line writes it).
    Each worker runs this; so may anyone else, to replay one game of a match. The
    result's record holds the opening's moves too: the whole game from the start.
    `moved`, if given, is handed the record so far after each move, the last one
    being the result's record.

    An external agent decides in a process named after its player's spec (one each
    when both players have the same), which a worker keeps from game to game; outside
    a worker, it ends with the game, unless `isolation` names children to keep."""
    game = parse_game(game_spec)
    first = (number - 1) % 2
    names = [player.spec for player in players]
    if names[0] == names[1]:
        names = [f"{name} (player {index})" for index, name in enumerate(names)]
    opened = game.parse_line(game.start(), opening)
    start = game.start()
    for move in opened:
        start = start.play(move)
    kept = isolation or _worker_isolation
    with nullcontext(kept) if kept else Isolation() as isolation:
        agents = [isolation.isolate(game_agent(players[side ^ first], seed, number, side),
                                    names[side ^ first], game.spec) for side in (0, 1)]
        for agent in agents:
            agent.prepare()
        played = play_game(start, agents, _worker_stop, None if moved is None else (
            lambda moves: moved(game.format_record(game.start(), [*opened, *moves]))))
    winner = played.outcome.winner
    return GameResult(number, first, None if winner is None else winner ^ first,
                      played.outcome.reason,
                      game.format_record(game.start(), [*opened, *played.moves]),
                      len(opened) + len(played.moves), played.fault,
                      played.outcome.termination, opening)


Players = tuple[Agent, Agent]


@dataclass(frozen=True)
class GameJob:
    """One game to play: game `number` of match `match` (a tournament's pair of agents,
    by index; 0 in a match) between `players`, with the match's `seed`, from the
    position `opening` leads to. Games 2r-1 and 2r are round r's pair: the same
    opening, colours swapped. `key` names the game in its run, whatever plays it and
    whenever it ends, so that a result is counted once."""

    match: int
    number: int
    seed: int
    players: Players
    opening: str = ""

    @property
    def key(self) -> str:
        return f"{self.match}:{self.number}"

    @property
    def round(self) -> int:
        """The pair it belongs to, from 0: games 1 and 2 are round 0."""
        return (self.number - 1) // 2


def play_job(game_spec: str, job: GameJob) -> GameResult:
    watch = _worker_watch
    moved = None if watch is None else partial(report_move, watch, job.match, job.number)
    return match_game(game_spec, job.players, job.number, job.seed, job.opening, moved)


@dataclass
class Pool:
    """Where games are played: a concurrent.futures executor whose workers are warmed
    for the game, how many games it plays at once (`size`), `stop`, which cuts
    short the games under way, and `admit`, which raises a PlygroundError if some
    of a game's agents cannot play there (a cluster's worker without an outside
    agent's file), before any game with them is sent."""

    executor: Executor
    size: int
    stop: Callable[[], None]
    admit: Callable[[Sequence[Agent]], None] = lambda agents: None


def watch_queue(room: int = 64):
    """A queue for local_pool's `watch`. A worker drops a move when `room` are unread,
    and so many moves fit in a pipe's buffer: a worker never waits for the reader, not
    even to exit (it first writes out what it has put)."""
    return spawn_context().Queue(room)


@contextmanager
def local_pool(game: Game, jobs: int, watch=None) -> Iterator[Pool]:
    """`jobs` worker processes of this machine (spawned, out of Ctrl-C's reach, each
    warmed for `game` before its first game); on leaving, the games under way are cut
    short and the workers have exited. `watch` (a watch_queue) is sent (match, game
    number, record so far) after every move a worker plays, for a screen to show the
    games under way."""
    context = spawn_context()
    stop_buffer = context.RawArray("b", 8)
    stop = StopFlag(stop_buffer).set
    # A worker is told of its parent's end only when the main thread starts it: the
    # kernel's signal comes when the starting thread ends (a screen's pool lives in a
    # thread of the app, which ends the pool itself).
    parent = os.getpid() if threading.current_thread() is threading.main_thread() else None
    with ProcessPoolExecutor(jobs, context, initializer=start_worker,
                             initargs=(game.id, stop_buffer, watch, parent)) as executor:
        try:
            yield Pool(executor, jobs, stop)
        except BaseException:
            stop()
            executor.shutdown(cancel_futures=True)
            raise


def run_games(game: Game, jobs: Iterable[GameJob], pool: Pool,
              ahead: int | None = None) -> Iterator[tuple[GameJob, GameResult]]:
    """Play `jobs` on `pool`: (job, result) as each game ends, so in no set order.
    Jobs are taken from `jobs` only as games end, `ahead` (all of them by default)
    in play or waiting at a time: a caller that decides as results come (an SPRT)
    starts no more games than it may need.

    Closing the generator early (contextlib.closing), or Ctrl-C while it waits, stops
    the games: those under way are cut short and the others never start."""
    pending = iter(jobs)
    running: dict = {}

    def submit(count: int) -> None:
        with interrupts_deferred():  # a local pool starts its workers here
            for job in islice(pending, count):
                pool.admit(job.players)
                running[pool.executor.submit(play_job, game.spec, job)] = job

    try:
        submit(ahead or sys.maxsize)
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda future: (running[future].match,
                                                          running[future].number)):
                job = running.pop(future)
                yield job, future.result()
            submit(len(done))
    except BaseException:  # Ctrl-C, a failed game, or the caller closed us
        pool.stop()
        for future in running:
            future.cancel()
        raise


def match_jobs(players: Players, games: int, seed: int, match: int = 0,
               openings: Callable[[int], str] | None = None) -> list[GameJob]:
    """A match's games, 1..`games`: round r's pair plays `openings(r)` (the start
    without openings)."""
    return [GameJob(match, number, seed, players,
                    openings((number - 1) // 2) if openings else "")
            for number in range(1, games + 1)]


def run_match(game: Game, players: Players, games: int, seed: int, pool: Pool,
              openings: Callable[[int], str] | None = None) -> Iterator[GameResult]:
    """The match's games, as `run_games` plays them."""
    with closing(run_games(game, match_jobs(players, games, seed, 0, openings),
                           pool)) as results:
        for _, result in results:
            yield result


def round_robin(players: int) -> list[tuple[int, int]]:
    """Every pair of players (a, b), a < b, in order: a tournament's matches."""
    return list(combinations(range(players), 2))


def pair_seed(seed: int, pair: int) -> int:
    """The seed of a tournament's match `pair` (an index into its round_robin)."""
    return derive_seed(seed, pair)


def tournament_jobs(agents: Sequence[Agent], games: int, seed: int,
                    pairs: Sequence[tuple[int, int]],
                    openings: Callable[[int], str] | None = None) -> list[GameJob]:
    """`games` games between each pair of `agents` (a and b, the pair's players 0 and
    1), with its seed `pair_seed(seed, pair)`: game 1 of every pair first, then game 2..."""
    matches = [match_jobs((agents[a], agents[b]), games, pair_seed(seed, index), index,
                          openings) for index, (a, b) in enumerate(pairs)]
    return [job for number in range(games) for job in
            (jobs[number] for jobs in matches)]


def run_tournament(game: Game, agents: Sequence[Agent], games: int, seed: int,
                   pool: Pool, pairs: Sequence[tuple[int, int]] | None = None,
                   openings: Callable[[int], str] | None = None
                   ) -> Iterator[tuple[int, GameResult]]:
    """`games` games between every pair of `agents` (round_robin, or the `pairs`
    given): (pair index, result) as each ends, the result's players 0 and 1 being
    the pair's a and b."""
    jobs = tournament_jobs(agents, games, seed, pairs or round_robin(len(agents)),
                           openings)
    with closing(run_games(game, jobs, pool)) as results:
        for job, result in results:
            yield job.match, result


def gauntlet(players: int, challenger: int) -> list[tuple[int, int]]:
    """The pairs of a gauntlet: `challenger` against every other player, in order."""
    return [(challenger, other) for other in range(players) if other != challenger]


def cross_table(players: int, results: Iterable[tuple[int, GameResult]],
                pairs: Sequence[tuple[int, int]] | None = None
                ) -> list[list[Tally | None]]:
    """table[a][b]: player a's tally against b (None where they did not meet)."""
    pairs = pairs or round_robin(players)
    by_pair: list[list[GameResult]] = [[] for _ in pairs]
    for pair, result in results:
        by_pair[pair].append(result)
    table: list[list[Tally | None]] = [[None] * players for _ in range(players)]
    for (a, b), pair_results in zip(pairs, by_pair):
        table[a][b], table[b][a] = tally(pair_results)
    return table


def scores(players: int, results: Iterable[tuple[int, GameResult]],
           pairs: Sequence[tuple[int, int]] | None = None
           ) -> Iterator[tuple[int, int, float]]:
    """Each game as (a, b, a's score: 1 for a win, 1/2 for a draw, 0 for a loss)."""
    pairs = pairs or round_robin(players)
    for pair, result in results:
        a, b = pairs[pair]
        yield a, b, 0.5 if result.winner is None else float(result.winner == 0)
