"""Runs of many games (a match, a tournament, an SPRT) in the game history, kept so
that a run stopped by Ctrl-C, a crash or a lost worker resumes where it stopped.

A run is stored with what rebuilds its games (`params`, plain JSON: the agents' specs
as typed, the number of games, the seed, the pairs, the openings...) and the command
that replays it. Each game it finishes is stored as it ends, in one transaction: its
record in the `games` table and its result under its key (GameJob.key) in the run.
A key is stored once: a second game under the same key is refused (add_run_game says
so), so a resumed run, or two processes resuming one run, count no game twice.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from ..errors import PlygroundError
from ..game import Termination
from ..play.tournament import GameResult
from .history import History
from .record import GameRecord, now

KINDS = ("match", "tournament", "sprt")
KIND_WORDS = {"match": "a match", "tournament": "a tournament", "sprt": "an SPRT"}
STATES = ("running", "finished", "interrupted")


@dataclass(frozen=True)
class Run:
    """A run as stored: `state` is running (or was, until a crash), finished or
    interrupted."""

    id: int
    kind: str
    game: str  # the game spec
    params: dict
    command: str
    date: str
    state: str


def result_json(result: GameResult) -> str:
    """A game's result as JSON (its termination as its value)."""
    return json.dumps({**asdict(result), "termination": result.termination.value})


def result_from_json(text: str) -> GameResult:
    data = json.loads(text)
    return GameResult(**{**data, "termination": Termination(data["termination"])})


def start_run(history: History, kind: str, game_spec: str, params: dict,
              command: str) -> int:
    """A new run, running; its id."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of run {kind!r}: one of {', '.join(KINDS)}")
    with history.writing():
        return history.db.execute(
            "INSERT INTO runs (kind, game, params, command, date, state) "
            "VALUES (?, ?, ?, ?, ?, 'running')",
            (kind, game_spec, json.dumps(params), command, now())).lastrowid


def load_run(history: History, run_id: int, kind: str) -> Run:
    """The run `run_id`, which must be a run of `kind` (a PlygroundError otherwise)."""
    with history.reading():
        row = history.db.execute(
            "SELECT id, kind, game, params, command, date, state FROM runs WHERE id = ?",
            (run_id,)).fetchone()
    if row is None:
        raise PlygroundError(f"no run {run_id} in the game history ({history.path})")
    run = Run(*row[:3], json.loads(row[3]), *row[4:])
    if run.kind != kind:
        raise PlygroundError(f"run {run_id} is {KIND_WORDS[run.kind]}, not "
                             f"{KIND_WORDS[kind]}: resume it with plyground {run.kind} "
                             f"--resume {run_id}")
    return run


def add_run_game(history: History, run_id: int, key: str, result: GameResult,
                 record: GameRecord, source: str) -> int | None:
    """Store a finished game of the run: its record in the games and its result under
    `key`, both or neither; the game's id in the history. None (and nothing stored)
    if the run holds `key` already."""
    with history.writing():  # the write lock: no one stores the key meanwhile
        if history.db.execute("SELECT 1 FROM run_games WHERE run = ? AND key = ?",
                              (run_id, key)).fetchone():
            return None
        game = history.insert(record, source)
        history.db.execute(
            "INSERT INTO run_games (run, key, result, game) VALUES (?, ?, ?, ?)",
            (run_id, key, result_json(result), game))
    return game


def run_results(history: History, run_id: int) -> dict[str, GameResult]:
    """The games the run has kept, by key."""
    with history.reading():
        rows = history.db.execute("SELECT key, result FROM run_games WHERE run = ?",
                                  (run_id,)).fetchall()
    return {key: result_from_json(text) for key, text in rows}


def finish_run(history: History, run_id: int, state: str) -> None:
    """Mark the run `state` (running again when it resumes)."""
    if state not in STATES:
        raise ValueError(f"unknown state {state!r}: one of {', '.join(STATES)}")
    with history.writing():
        history.db.execute("UPDATE runs SET state = ? WHERE id = ?", (state, run_id))
