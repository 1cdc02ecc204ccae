"""The units of a grading run's work, each named by a key and played on a Pool's
worker (this machine's or a Dask cluster's): starting a student's agent once, asking
it for its move in a list of positions, and games (core/play/tournament's GameJob).

What a unit gives back is kept in the run's journal (journal.py) as JSON, so the
codecs for each live here too. A student's agent is a `Submission`: it decides in a
boxed child of the worker (core/play/isolation.py), and whatever it does there (a
crash, a hang, a flood, a fork, memory without end) is an AgentFault in its answer.
"""
from __future__ import annotations

import threading
from dataclasses import asdict, dataclass

from ..errors import AgentFault
from ..game import Termination, parse_game
from ..play.isolation import Isolation
from ..play.tournament import GameJob, GameResult, match_game, worker_isolation
from .submission import Submission


@dataclass(frozen=True)
class StartJob:
    """Load the student's agent and get it ready, once, before any of its checks."""

    game: str
    agent: Submission


@dataclass(frozen=True)
class SearchJob:
    """The student's move (and the nodes it reports) in each of `positions`."""

    game: str
    agent: Submission
    positions: tuple[str, ...]


@dataclass(frozen=True)
class Answer:
    """The agent's answer in one position: its move and reported nodes, or its fault."""

    move: str | None
    nodes: int | None
    fault: str | None


_kept = threading.local()  # elsewhere than in a match worker (a Dask worker's threads)


def _isolation() -> Isolation:
    """The children the students' agents decide in, kept between jobs: the match
    worker's, or, on a Dask worker, its thread's own (a student's process is not
    started again for each game; the least recently used end past Isolation's
    limit, and the rest with the worker)."""
    kept = worker_isolation()
    if kept is None:
        kept = getattr(_kept, "isolation", None)
        if kept is None:
            kept = _kept.isolation = Isolation()
    return kept


def start(job: StartJob) -> str:
    """"" if the agent started, else why not (its fault, one line)."""
    isolation = _isolation()
    try:
        agent = isolation.isolate(job.agent, job.agent.spec, job.game)
        agent.get_ready(None)
    except AgentFault as fault:
        isolation.release(job.agent.spec)
        return " ".join(str(fault).split()) or "it did not start"
    return ""


def search(job: SearchJob) -> list[Answer]:
    """The agent's answer in each position, under its own clock (a fault in one
    position costs that one: a new child is started for the next)."""
    game = parse_game(job.game)
    isolation = _isolation()
    answers = []
    for text in job.positions:
        state = game.parse_position(text)
        agent = isolation.isolate(job.agent, job.agent.spec, job.game)
        try:
            done = agent.decide(state)
        except AgentFault as fault:
            answers.append(Answer(None, None, " ".join(str(fault).split())))
            continue
        answers.append(Answer(game.format_move(done.best_move), done.work or None, None))
    return answers


def play(game_spec: str, job: GameJob) -> GameResult:
    return match_game(game_spec, job.players, job.number, job.seed, job.opening,
                      isolation=_isolation())


# --- the journal's codecs -------------------------------------------------------------


def encode(result) -> object:
    if isinstance(result, GameResult):
        data = asdict(result)
        data["termination"] = result.termination.name
        return data
    if isinstance(result, list):
        return [asdict(answer) for answer in result]
    return result


def decode(kind: str, data) -> object:
    if kind == "game":
        data = dict(data)
        data["termination"] = Termination[data["termination"]]
        return GameResult(**data)
    if kind == "search":
        return [Answer(**answer) for answer in data]
    return data

