"""What `plyground analyze` says first, in words a student reads right: the exact
result when one is known (`X loses: every move loses; best 3, a loss in 18 (exact,
solver)`), and what kind of value the agent's is: exact, a heuristic score (the
search's guess from the positions it reached: no win probability and no proof) or an
MCTS mean result (how its playouts ended) or a network's mean value (PUCT: the mean of
its network's estimates, no playouts)."""
from __future__ import annotations

from plyground.core import Game, State
from plyground.core.connect4.analysis import SOLVER, can_analyse, quick_score
from plyground.core.connect4.solver import value_of
from plyground.core.search.events import SearchDone
from plyground.core.values import Scale, Score, proven

EXACT, HEURISTIC, MEAN_RESULT = "exact", "heuristic", "mean result"  # value kinds
NETWORK_MEAN = "network mean"  # a PUCT search's: its network's estimates, averaged
SEARCH = "search"  # an exact value that a search proved: a decisive one, or to the end
KIND_WORDS = {EXACT: "value", HEURISTIC: "heuristic score", MEAN_RESULT: "mean result",
              NETWORK_MEAN: "mean network value"}
WHAT_IT_IS_NOT = {
    HEURISTIC: "the search's guess from the positions it reached, not a win "
               "probability nor a proof",
    MEAN_RESULT: "how its random playouts ended, not a win probability nor a proof",
    NETWORK_MEAN: "the search's mean of its network's estimates of the positions it "
                  "reached (no playouts), not a win probability nor a proof",
}


def value_kind(game: Game, state: State, done: SearchDone,
               network: bool = False) -> str | None:
    """EXACT, HEURISTIC, MEAN_RESULT or (`network`: a search that reported a
    network's values, PuctSnapshot) NETWORK_MEAN: what the decision's value is (None:
    none)."""
    if done.value is None:
        return None
    if done.scale == Scale.MEAN:
        return NETWORK_MEAN if network else MEAN_RESULT
    if done.exact or proven(game, state, done.value, done.depth):
        return EXACT
    return HEURISTIC


def exact_result(game: Game, state: State, done: SearchDone) -> dict | None:
    """What is known exactly of `state`, as plain data: the decision's value if it is
    exact (a solver's, or one its search proved), with its best move; else a score
    that is cheap to know (core/analysis.quick_score: Connect 4's opening book, or a
    short solve), the position's value alone; else None."""
    if value_kind(game, state, done) == EXACT:
        value, best = done.value, game.format_move(done.best_move)
        source = SOLVER if done.exact else SEARCH
    elif can_analyse(game) and state.outcome() is None and \
            (quick := quick_score(state)) is not None:
        score, source = quick
        value, best = value_of(score, state.ply), None
    else:
        return None
    return {"result": "win" if value > 0 else "loss" if value < 0 else "draw",
            "value": value,
            "description": "draw" if value == 0 else str(Score(value, state.ply)),
            "source": source, "best_move": best}


def verdict(game: Game, state: State, exact: dict) -> str:
    """The exact result in a sentence: who wins, what every move does when the side to
    move is lost, the best move when it is known, and where the result comes from."""
    side = game.side_labels[state.to_move]
    best = exact["best_move"]
    play = f"best {best}" if best else "with best play"
    how = f"(exact, {exact['source']})"
    if exact["result"] == "draw":
        return f"a draw with best play{f': best {best}' if best else ''} {how}"
    outcome = f"a {exact['description']}"
    if exact["result"] == "win":
        return f"{side} wins: {play}, {outcome} {how}"
    return f"{side} loses: every move loses; {play}, {outcome} {how}"


def value_phrase(report: dict) -> str:
    """The decision's value (of an `analyze` report), saying what kind it is: `value
    loss in 18 (proven lost)`, `heuristic score +29 at depth 17: the search's guess
    ..., not a win probability nor a proof`, `mean result 58.9% over 200 iterations:
    ...`."""
    kind = report["value_kind"]
    if kind == EXACT:
        return f"value {report['description']}" + (
            f" ({report['proof']})" if report["proof"] else "")
    if kind in (MEAN_RESULT, NETWORK_MEAN):
        figure = report["description"].removesuffix(" mean result")
        source = f" over {report['work']:,} {report['work_unit']}"
    else:
        figure = report["description"]
        source = f" at depth {report['depth']}" if report["depth"] is not None else ""
    return f"{KIND_WORDS[kind]} {figure}{source}: {WHAT_IT_IS_NOT[kind]}"
