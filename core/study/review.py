"""Game review: every move of a game's main line labelled best, good, inaccuracy,
mistake or blunder, each side's accuracy, and a value per position for a graph
(`plyground review`, and the app's review key).

Each position of the main line is analysed once. A move is judged by two values, both
for the side that played it: the value of the best move in its position, and the value
of the move played.

A game may declare an exact review (`GameEntry.exact_review`): Connect 4's
(core/connect4/review.py) scores every position with its solver, and labels each move
by the rules below with exact values.

Otherwise, estimates from a search at a fixed budget, proven values exact. Alpha-Beta
searches each position with every root move in a full window (`exact_root`), so each
move gets its own value at the same depth; the budget is a node count or a depth, never
a clock, so a review is the same every time (each game's `review` in its registration, stated in the output;
`--agent` picks another, MCTS too). Each value becomes an expected score E for the side
that moved: 1 for a proven win, 0 for a proven loss; for a heuristic value v,
E = 1 / (1 + 3^(-v/s)), where s is the game's scale (its `review_scale`: the heuristic figure worth
75 %); an MCTS mean result (a draw counts ½) is E itself. The loss is
E(best) - E(played):

    best        the analyser's best move, or one of the same value;
    good        a loss under 0.05;
    inaccuracy  a loss under 0.10, or a proven win kept but made slower (a proven loss
                made sooner), as in Connect 4;
    mistake     a loss under 0.15;
    blunder     a loss of 0.15 or more: so any proven result thrown away (a loss of at
                least ½), as in Connect 4.

These are Connect 4's rules too, with exact values: every label comes from one rule. A
label is exact when both values are: the solver's, a decisive value a search proved (a
forced win or loss within its depth), or a search that saw every line to the end of the
game (Quarto's endgames); else it is an estimate.

Accuracy: the share of a side's moves labelled best or good, in percent (None for a
side that made no move).

The graph: each position's value for the first side, from -1 (the second side wins) to
+1 (the first side wins): 2E - 1 of the best move's value for the side to move there,
negated when that is the second side; a proven result is -1, 0 or +1, and so is the
game's end.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from ..agents.base import Agent, check_plays
from ..errors import BadSetting
from ..catalogue import parse_agent
from ..fast import warm_up
from ..game import Game, Move, State, load_ref
from ..search.events import SearchDone
from ..values import Bound, Scale, Score, is_decisive, proven, terminal_value

LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
# a loss (of expected score) under each gives that label; from the last, a blunder
GOOD_LOSS, INACCURACY_LOSS, MISTAKE_LOSS = 0.05, 0.10, 0.15
CREDITED = ("best", "good")  # the labels accuracy counts


@dataclass(frozen=True)
class Plan:
    """How a game's moves are judged when no agent is named: `agent` for every
    position, but `endgame` for those whose game ends within `endgame_plies` plies
    (the game's `plies_left_at_most`)."""

    agent: str
    endgame: str | None = None
    endgame_plies: int = 0

    def describe(self) -> str:
        if self.endgame is None:
            return self.agent
        return (f"{self.agent}; {self.endgame} within {self.endgame_plies} plies of "
                "the end")


# Each game declares how it is reviewed (GameEntry.review, review_scale): budgets that
# review a full game in under a minute or so on one core (the README gives figures).
DEFAULT_SCALE = 100.0  # a game that declares no review_scale (GameEntry's default)
SOLVER = "the exact solver (opening book, then search)"


@dataclass(frozen=True)
class ReviewProgress:
    """Live, from a review in the engine (engine.ReviewRequest): `done` positions of
    `total` analysed."""

    done: int
    total: int


@dataclass(frozen=True)
class MoveReview:
    """One move of the main line, judged. Values are for the side that played it, on
    the analyser's scale (values.py: a `Score` reads them)."""

    ply: int  # the ply count of the position the move was played in
    side: int  # who played it: 0 the first side, 1 the second
    move: Move
    best_move: Move  # a best move there (the move itself when it was one)
    played_value: float
    best_value: float
    loss: float  # expected score lost, 0..1 (see the module's doc)
    label: str
    played_exact: bool  # whether each value is proven
    best_exact: bool
    scale: Scale = Scale.SCORE

    @property
    def exact(self) -> bool:
        """Both values proven: the label is exact."""
        return self.played_exact and self.best_exact

    @property
    def played_text(self) -> str:
        return self.describe(self.played_value, self.played_exact)

    @property
    def best_text(self) -> str:
        return self.describe(self.best_value, self.best_exact)

    @property
    def note(self) -> str:
        """Why an inaccuracy that looks worse is mild, "" for the other moves: it kept
        the proven result (module doc), a win won later, or a loss lost sooner, be it
        by letting a win in 1 through."""
        if self.label != "inaccuracy" or not (is_decisive(self.best_value)
                                              and is_decisive(self.played_value)):
            return ""
        if self.best_value > 0:
            return "still wins, only later"
        if Score(self.played_value, self.ply).moves_to_end == 1:
            return "lets a win in 1 through, but the game was already lost"
        return "loses sooner, but the game was already lost"

    def describe(self, value: float, exact: bool) -> str:
        """`win in 5`, `draw` (a proven one), `+35`, `58.9% mean result`."""
        if exact and value == 0 and self.scale == Scale.SCORE:
            return "draw"
        return str(Score(value, self.ply, self.scale))


@dataclass
class Review:
    game: Game
    start: State
    moves: list[MoveReview]
    values: list[float | None]  # each position's value for the first side, -1..1
    analyser: str  # what judged the moves, with its budget
    elapsed: float = 0.0  # seconds the review took
    scale: float = DEFAULT_SCALE  # the heuristic units worth 75 % (module doc)

    @property
    def exact(self) -> bool:
        """Whether every label is exact."""
        return all(move.exact for move in self.moves)

    def side_moves(self, side: int) -> list[MoveReview]:
        return [move for move in self.moves if move.side == side]

    def accuracy(self, side: int) -> float | None:
        """The share of the side's moves labelled best or good, in percent."""
        moves = self.side_moves(side)
        if not moves:
            return None
        return 100 * sum(move.label in CREDITED for move in moves) / len(moves)

    def counts(self, side: int) -> dict[str, int]:
        """How many of the side's moves got each label."""
        moves = self.side_moves(side)
        return {label: sum(move.label == label for move in moves) for label in LABELS}

    def to_dict(self) -> dict:
        """The review as plain data (`plyground review --json`)."""
        game = self.game
        return {
            "game": game.spec,
            "position": "" if self.start == game.start() else
            game.format_position(self.start),
            "analyser": self.analyser,
            "exact": self.exact,
            "elapsed": round(self.elapsed, 3),
            "thresholds": {"good": GOOD_LOSS, "inaccuracy": INACCURACY_LOSS,
                           "mistake": MISTAKE_LOSS, "scale": self.scale},
            "moves": [{
                "ply": move.ply, "side": game.side_labels[move.side],
                "move": game.format_move(move.move), "label": move.label,
                "note": move.note,
                "exact": move.exact, "played_exact": move.played_exact,
                "best_exact": move.best_exact,
                "best_move": game.format_move(move.best_move),
                "played_value": move.played_value, "played": move.played_text,
                "best_value": move.best_value, "best": move.best_text,
                "loss": round(move.loss, 4)} for move in self.moves],
            "accuracy": {label: self.accuracy(side)
                         for side, label in enumerate(game.side_labels)},
            "counts": {label: self.counts(side)
                       for side, label in enumerate(game.side_labels)},
            "values": [None if value is None else round(value, 4)
                       for value in self.values],
        }


# --- judging a move ------------------------------------------------------------------

def expected_score(value: float, scale: Scale = Scale.SCORE,
                   units: float = DEFAULT_SCALE) -> float:
    """The expected score (0..1) a value gives the side it is for (module doc)."""
    if scale == Scale.MEAN:
        return float(value)
    if is_decisive(value):
        return 1.0 if value > 0 else 0.0
    exponent = max(-60.0, min(60.0, -value / units))
    return 1.0 / (1.0 + 3.0 ** exponent)


def label_of(best_value: float, played_value: float, loss: float,
             is_best: bool) -> str:
    """The label of a move (module doc): `is_best` if it is the analyser's best move or
    as good; `loss` its expected score lost."""
    if is_best:
        return "best"
    if is_decisive(best_value) and is_decisive(played_value) and \
            (best_value > 0) == (played_value > 0):
        return "inaccuracy"  # the same proven result, reached later or sooner
    for label, under in (("good", GOOD_LOSS), ("inaccuracy", INACCURACY_LOSS),
                         ("mistake", MISTAKE_LOSS)):
        if loss < under:
            return label
    return "blunder"


def graph_value(value: float, side: int, scale: Scale = Scale.SCORE,
                units: float = DEFAULT_SCALE) -> float:
    """A position's value for the first side, -1..1, from `value` for `side` (the
    side to move there)."""
    mine = 2 * expected_score(value, scale, units) - 1
    return mine if side == 0 else 0.0 - mine


def end_value(state: State) -> float:
    """A finished game's value for the first side: +1, 0 or -1."""
    outcome = state.outcome()
    return 0.0 if outcome.winner is None else (1.0 if outcome.winner == 0 else -1.0)


@dataclass
class Verdict:
    """One position analysed: the best move, each move's value for the side to move
    (those the analyser gave), and which values are proven."""

    best_move: Move
    best_value: float
    values: dict[Move, float] = field(default_factory=dict)
    exact: set = field(default_factory=set)  # the moves whose values are proven
    best_exact: bool = False
    scale: Scale = Scale.SCORE


def judge(state: State, move: Move, verdict: Verdict, played_value: float,
          played_exact: bool, units: float) -> MoveReview:
    scale = verdict.scale
    best_value = verdict.best_value
    is_best = move == verdict.best_move or \
        (scale == Scale.SCORE and played_value >= best_value)
    loss = max(0.0, expected_score(best_value, scale, units)
               - expected_score(played_value, scale, units))
    return MoveReview(state.ply, state.to_move, move,
                      move if is_best else verdict.best_move, played_value, best_value,
                      0.0 if is_best else loss,
                      label_of(best_value, played_value, loss, is_best),
                      played_exact, verdict.best_exact, scale)


# --- the analysers ---------------------------------------------------------------------

Progress = Callable[[int, int], None]  # (positions analysed, positions to analyse)


Judged = tuple[list[MoveReview], list[float | None]]  # the moves, the graph's values


def search_verdict(agent: Agent, state: State) -> Verdict:
    """The agent's analysis of `state`, every root move valued where it can."""
    done = agent.decide(state, exact_root=True)
    if done.value is None:
        raise BadSetting(f"{agent.label} gives no values: a review needs an agent that "
                         "searches (alphabeta, minimax, mcts...)")
    values, exact = {}, set()
    for move_value in done.move_values:
        if move_value.bound in (Bound.EXACT, Bound.ESTIMATE) and \
                (move_value.visits is None or move_value.visits > 0):
            values[move_value.move] = move_value.value
            if value_proven(state, done, move_value.value):
                exact.add(move_value.move)
    return Verdict(done.best_move, done.value, values, exact,
                   value_proven(state, done, done.value), done.scale)


def value_proven(state: State, done: SearchDone, value: float) -> bool:
    """Whether a search's value (of the root or one of its moves) is proven."""
    if done.exact:
        return True
    return done.scale == Scale.SCORE and bool(proven(state.game, state, value, done.depth))


def played_value(state: State, move: Move, verdict: Verdict,
                 after: Verdict | None) -> tuple[float, bool]:
    """The value of `move` for the side that played it, and whether it is proven: the
    verdict's own, unless only the position it leads to (`after`, None if the game is
    over there) has a proven value (a search that stopped at the depth where it found
    its best move's win values the other moves by the heuristic); else from that
    position (its end, or its verdict: an MCTS tree may not have tried the move)."""
    proven_after = after is not None and after.best_exact
    if move in verdict.values and (move in verdict.exact or not proven_after):
        return verdict.values[move], move in verdict.exact
    child = state.play(move)
    outcome = child.outcome()
    if outcome is not None:
        value = terminal_value(outcome, child.ply, state.to_move)
        if verdict.scale == Scale.MEAN:
            return 0.5 if outcome.winner is None else float(value > 0), True
        return value, True
    if after.scale == Scale.MEAN:
        return 1 - after.best_value, False
    return -after.best_value, after.best_exact


def agent_review(states: list[State], moves: list[Move], choose: Callable[[State], Agent],
                 units: float, progress: Progress | None) -> Judged:
    """Any other game, or any agent: a search of every position still open."""
    verdicts: list[Verdict | None] = []
    total = sum(state.outcome() is None for state in states)
    for state in states:
        verdicts.append(None if state.outcome() is not None
                        else search_verdict(choose(state), state))
        if progress is not None and verdicts[-1] is not None:
            progress(sum(v is not None for v in verdicts), total)
    reviews = []
    for index, (state, move) in enumerate(zip(states, moves)):
        verdict = verdicts[index]
        value, exact = played_value(state, move, verdict, verdicts[index + 1])
        reviews.append(judge(state, move, verdict, value, exact, units))
    values = [end_value(state) if verdict is None else
              graph_value(verdict.best_value, state.to_move, verdict.scale, units)
              for state, verdict in zip(states, verdicts)]
    return reviews, values


def game_of(source) -> tuple[Game, State, list[Move]]:
    """(game, start, moves) of a GameRecord or of such a tuple."""
    if isinstance(source, tuple):
        game, start, moves = source
        return game, start, list(moves)
    return source.game, source.start, list(source.moves)


def uses_solver(game: Game, agent: Agent | None) -> bool:
    """Whether the game's exact review (`GameEntry.exact_review`) judges the game: it
    has one, and no agent is asked or the one asked solves exactly."""
    return game.entry.exact_review is not None and \
        (agent is None or agent.solves_exactly)


def review(source, agent: str | Agent | None = None,
           progress: Progress | None = None) -> Review:
    """Review the main line of `source`, a GameRecord or (game, start, moves).

    `agent`: the analyser, an agent or its spec (default: Connect 4's solver, else the
    game's registered `review` plan). `progress(done, total)` is called after each position
    analysed. Raises PlygroundError for an agent that cannot review the game."""
    game, start, moves = game_of(source)
    states = [start]
    for move in moves:
        states.append(states[-1].play(move))
    if isinstance(agent, str):
        agent = parse_agent(agent)
    if agent is not None:
        check_plays(agent, game)
    units = game.entry.review_scale
    started = time.perf_counter()
    if uses_solver(game, agent):
        reviews, values = load_ref(game.entry.exact_review)(states, moves, progress)
        analyser = SOLVER
    else:
        choose, analyser = chooser(game, agent)
        reviews, values = agent_review(states, moves, choose, units, progress)
    return Review(game, start, reviews, values, analyser,
                  time.perf_counter() - started, units)


def chooser(game: Game, agent: Agent | None) -> tuple[Callable[[State], Agent], str]:
    """Which agent analyses each position, and how the review names it."""
    warm_up(game.id)
    if agent is not None:
        agent.prepare()
        return (lambda state: agent), agent.spec
    plan = Plan(*game.entry.review)
    main = parse_agent(plan.agent)
    endgame = parse_agent(plan.endgame) if plan.endgame else main
    for each in {main, endgame}:
        each.prepare()

    def choose(state: State) -> Agent:
        left = game.plies_left_at_most(state)
        near = left is not None and left <= plan.endgame_plies
        return endgame if near else main

    return choose, plan.describe()

