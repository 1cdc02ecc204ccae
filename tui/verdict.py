"""What `plyground analyze` says first, in words a student reads right: the exact
result when one is known (`X loses: every move loses; best 3, a loss in 18 (exact,
solver)`), and what kind of value the agent's is: exact, a heuristic score (the
search's guess from the positions it reached: no win probability and no proof) or an
MCTS mean result (how its playouts ended) or a network's mean value (PUCT: the mean of
its network's estimates, no playouts). And how any view words a decision
(`decision_words`): the app's inspector and the command line alike."""
from __future__ import annotations

from plyground.core import Game, State
from plyground.core.connect4.analysis import SOLVER, can_analyse, quick_score
from plyground.core.connect4.solver import value_of
from plyground.core.search.events import SearchDone
from plyground.core.search.mcts import describe_proven
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


def network_valued(done: SearchDone) -> bool:
    """Whether a decision's mean value is a network's (a PUCT search counts
    simulations, not playouts)."""
    return done.scale == Scale.MEAN and done.unit == "simulations"


def proven_words(score: int, ply: int) -> str:
    """An MCTS proof as the inspector and the CLI say it: `proven win in ≤3`."""
    return f"proven {describe_proven(score, ply)}"


def mean_words(value: float, ply: int, network: bool) -> str:
    """A mean value, named for what it is: `mean result 55.2%` (playouts) or
    `mean network value 55.2%` (a network's estimates)."""
    figure = str(Score(value, ply, Scale.MEAN)).removesuffix(" mean result")
    return f"{KIND_WORDS[NETWORK_MEAN if network else MEAN_RESULT]} {figure}"


MCTS_PROOF = "proven: "  # how core/search/mcts.py's note starts for a proven root


def decision_words(game: Game, state: State, done: SearchDone) -> str:
    """A decision's value and the work behind it, worded as the app's inspector words
    it (demo's move lines; the inspector and step mode's replay check use its parts,
    proven_words and mean_words): a proven result is called proven, with its distance (`proven win in ≤3 · 960
    iterations`, `proven win in 5 · depth 9 · 1,234 nodes`); else what kind of
    value it is (`mean result 55.2% · 5,500 iterations`, `mean network value 61.0%
    · 800 simulations`, `heuristic score +35 · depth 7 · 8,120 nodes`)."""
    parts = []
    if done.value is not None:
        value = done.score(state.ply)
        if done.scale == Scale.MEAN:
            if done.note.startswith(MCTS_PROOF):
                parts.append(f"proven {done.note.removeprefix(MCTS_PROOF)}")
            else:
                parts.append(mean_words(done.value, state.ply, network_valued(done)))
        elif done.exact:
            parts.append(f"proven {'draw' if value.value == 0 else value} ({SOLVER})")
        elif proof := proven(game, state, done.value, done.depth):
            parts.append(proof if value.value == 0 else f"proven {value}")
        else:
            parts.append(f"{KIND_WORDS[HEURISTIC]} {value}")
    if done.depth is not None:
        parts.append(f"depth {done.depth}")
    if done.work:
        unit = done.work_unit.removesuffix("s") if done.work == 1 else done.work_unit
        parts.append(f"{done.work:,} {unit}")
    return " · ".join(parts)


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
    if kind in (MEAN_RESULT, NETWORK_MEAN) and report["note"].startswith(MCTS_PROOF):
        # a proof is no mean: called proven, with its distance, as decision_words says
        return (f"proven {report['note'].removeprefix(MCTS_PROOF)} over "
                f"{report['work']:,} {report['work_unit']}")
    if kind in (MEAN_RESULT, NETWORK_MEAN):
        figure = report["description"].removesuffix(" mean result")
        source = f" over {report['work']:,} {report['work_unit']}"
    else:
        figure = report["description"]
        source = f" at depth {report['depth']}" if report["depth"] is not None else ""
    return f"{KIND_WORDS[kind]} {figure}{source}: {WHAT_IT_IS_NOT[kind]}"
