"""A lesson's train step: plyground's own AlphaZero trainer (core/agents/learned/
train.py) learning the scene's game for a few seconds, and after every generation its
accepted net played against a strong agent from every first move, so that a class
sees a network go from random play to never losing.

A lesson file names the training as data, checked when the lesson is read
(`read_train`): `train = {seconds = 90, seed = 1, against = "ttt-perfect"}`, and
perhaps the trainer's sizes (games, sims, steps, ...). Nothing trains while a lesson
is read, checked or exported; the lesson screen starts it when the learner asks, in a
process of its own (`start_training`), so that the screen stays live, and shows the
events it sends. A training is held to `MAX_SECONDS`: a lesson handed round must not
keep a machine busy for long.
"""
from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, replace
from typing import Any, Callable

from ..agents.learned.settings import RANGES, AzSettings, PlaySettings
from ..errors import PlygroundError
from ..game import Game, parse_game
from ..ranges import LARGEST_SEED

MAX_SECONDS = 300
# the trainer's sizes a train step may set, with the lesson's defaults: a net that
# learns tic-tac-toe to perfect play in about a minute on one core
SIZES = {"games": 20, "sims": 30, "steps": 60, "batch": 64, "buffer": 3000,
         "eval_pairs": 4, "channels": 32, "blocks": 2}
KEYS = ("seconds", "seed", "against", *SIZES)
WHOLE_NUMBERS = {"seed": 1, **SIZES}  # each key's default
LEAST = {"seed": 0, "eval_pairs": 0}  # the others' least is 1


@dataclass(frozen=True)
class TrainStep:
    """What a lesson's train step trains: for up to `seconds`, then its nets checked
    against `against` (an agent spec; None: no check)."""

    seconds: float
    against: str | None
    settings: AzSettings


def read_train(value: Any) -> TrainStep:
    """The train step a lesson's `train = {...}` table names (PlygroundError in one
    line for anything else)."""
    if not isinstance(value, dict):
        raise PlygroundError("train takes a table, as in train = {seconds = 90, seed = 1}")
    unknown = sorted(set(value) - set(KEYS))
    if unknown:
        raise PlygroundError(f"train: unknown key {unknown[0]!r} (train takes "
                             f"{', '.join(KEYS)})")
    seconds = value.get("seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
            or not 0 < seconds <= MAX_SECONDS:
        raise PlygroundError(f"train: seconds is a number of seconds from 1 to "
                             f"{MAX_SECONDS}, as in seconds = 90")
    numbers = {}
    for key, default in WHOLE_NUMBERS.items():
        number = value.get(key, default)
        least, most = LEAST.get(key, 1), RANGES.get(key, (0, LARGEST_SEED))[1]
        if isinstance(number, bool) or not isinstance(number, int) \
                or not least <= number <= most:
            raise PlygroundError(f"train: {key} is a whole number from {least} to {most}")
        numbers[key] = number
    seed = numbers.pop("seed")
    against = value.get("against")
    if against is not None and not (isinstance(against, str) and against.strip()):
        raise PlygroundError('train: against is an agent, in quotes, as in '
                             'against = "ttt-perfect"')
    settings = AzSettings(numbers["games"], numbers["buffer"], numbers["steps"],
                          numbers["batch"], numbers["eval_pairs"],
                          channels=numbers["channels"], blocks=numbers["blocks"],
                          seed=seed, play=PlaySettings(sims=numbers["sims"]))
    return TrainStep(float(seconds), against, settings)


def check_trains(step: TrainStep, game: Game) -> None:
    """That the scene's game can be learnt and its opponent plays it."""
    from ..catalogue import parse_agent

    if game.encoding() is None:
        raise PlygroundError(f"{game.title} has no encoding for a network (its "
                             "registration declares none): az cannot learn it")
    if step.against is not None:
        agent = parse_agent(step.against)
        if not agent.plays(game):
            raise PlygroundError(f"against: {agent.title} does not play {game.title}")


# --- what a training sends ------------------------------------------------------------


@dataclass(frozen=True)
class Phase:
    """Generation `generation` is at `done` of `total` in `phase`."""

    generation: int
    phase: str  # "self-play", "training", "evaluation", "checking"
    done: int
    total: int
    seconds: float


@dataclass(frozen=True)
class Checked:
    """The accepted net of `generation` (0: untrained) against the step's opponent."""

    generation: int
    won: int
    drawn: int
    lost: int

    @property
    def games(self) -> int:
        return self.won + self.drawn + self.lost


@dataclass(frozen=True)
class Ended:
    """A generation's figures (train.Generation without its net)."""

    generation: int
    samples: int
    policy_loss: float
    value_loss: float
    score: float | None
    accepted: bool
    accepted_generation: int
    seconds: float


@dataclass(frozen=True)
class Finished:
    generations: int
    accepted_generation: int
    seconds: float


@dataclass(frozen=True)
class Failed:
    message: str


def against_every_opening(game: Game, net, step: TrainStep) -> Checked:
    """The net's own top move (its prior, no search: what it learnt, not what a search
    finds) against the step's opponent, from each first move, once as the side to move
    after it and once as the side that made it (2 games a first move: for tic-tac-toe
    18, each repeatable)."""
    from ..agents.learned.selfplay import evaluator
    from ..catalogue import parse_agent
    from ..search.control import Budget
    from ..search.puct import puct_search

    opponent, evaluate = parse_agent(step.against), evaluator(net, game)
    opponent.prepare()
    tally = [0, 0, 0]  # won, drawn, lost
    for first in game.start().moves():
        for net_side in (1, 0):
            state = game.start().play(first)
            while state.outcome() is None:
                if state.to_move == net_side:
                    move = puct_search(game, state, Budget(iterations=0),
                                       evaluate, seed=state.key()).best_move
                else:
                    move = opponent.choose(state, opponent.budget())
                state = state.play(move)
            winner = state.outcome().winner
            tally[1 if winner is None else 0 if winner == net_side else 2] += 1
    return Checked(0, *tally)


def training(game_spec: str, step: TrainStep, send: Callable[[Any], None],
             clock: Callable[[], float] = time.monotonic) -> None:
    """Train, sending what happens: the untrained net's check (generation 0), then
    per generation its phases, its figures and, when a new net is accepted, its check;
    at the end Finished (or Failed, a line)."""
    try:
        from ..agents.learned.train import new_net, train

        game = parse_game(game_spec)
        started = clock()
        number = 0

        def progress(phase: str, done: int, total: int) -> None:
            send(Phase(number, phase, done, total, clock() - started))

        def check(net) -> None:
            if step.against is not None:
                progress("checking", 0, 1)
                send(replace(against_every_opening(game, net, step), generation=number))

        check(new_net(game, step.settings))  # the net train() starts from
        last = None
        number = 1
        for last in train(game, step.settings, minutes=step.seconds / 60,
                          progress=progress, clock=clock):
            send(Ended(last.number, last.samples, last.policy_loss, last.value_loss,
                       last.score, last.accepted, last.accepted_generation,
                       clock() - started))
            if last.accepted:
                check(last.net)
            number = last.number + 1
        send(Finished(last.number if last else 0,
                      last.accepted_generation if last else 0, clock() - started))
    except PlygroundError as error:
        send(Failed(str(error)))


def _child(game_spec: str, step: TrainStep, events) -> None:
    training(game_spec, step, events.put)


class TrainingRun:
    """A training in a process of its own (spawned, out of Ctrl-C's reach, so the
    screen that started it stays live); a thread hands each event it sends to
    `changed`, on that thread. `stop` ends the process."""

    def __init__(self, game_spec: str, step: TrainStep,
                 changed: Callable[[Any], None]) -> None:
        from ..play.spawn import spawn_context

        context = spawn_context()
        self.stopped = False
        self.events = context.Queue()
        self.changed = changed
        self.process = context.Process(target=_child, args=(game_spec, step, self.events),
                                       daemon=True)
        self.process.start()
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self) -> None:
        while True:
            try:
                event = self.events.get(timeout=0.2)
            except queue.Empty:
                if not self.process.is_alive():
                    if self.process.exitcode not in (0, None) and not self.stopped:
                        self.changed(Failed(f"the training stopped (exit code "
                                            f"{self.process.exitcode})"))
                    return
                continue
            self.changed(event)
            if isinstance(event, (Finished, Failed)):
                return

    def stop(self) -> None:
        self.stopped = True
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(timeout=5)
