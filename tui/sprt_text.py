"""How an SPRT's status reads, the same in the CLI and the app: the decision first, the
LLR between its bounds, the counts, the Elo estimates and the LOS; figures to fixed
places, never as -0.00."""
from __future__ import annotations

import math

from plyground.core.play.sprt import PAIR_CLASSES, SprtStatus


def fixed(value: float, sign: str = "", places: int | None = None) -> str:
    """`value` to 2 places (1 with a sign), never as -0.00; infinity as ±∞."""
    if math.isinf(value):
        return "+∞" if value > 0 else "−∞"
    places = places if places is not None else 1 if sign else 2
    return f"{round(value, places) + 0.0:{sign}.{places}f}"


def llr_texts(status: SprtStatus) -> tuple[str, str, str]:
    """The LLR and its two bounds, to 2 places, or to 3 where 2 would show an LLR
    equal to a bound it has not reached (2.94 against 2.94, and no decision)."""
    values = (status.llr, status.lower, status.upper)
    places = 2
    if status.result is None and fixed(status.llr) in (fixed(status.lower),
                                                       fixed(status.upper)):
        places = 3
    return tuple(fixed(value, places=places) for value in values)


def interval_text(value: float, interval: tuple[float, float]) -> str:
    low, high = (fixed(end, "+") for end in interval)
    return f"{fixed(value, '+')} [{low}, {high}] (95%"


def verdict(status: SprtStatus, a: str) -> str:
    """What the hypothesis accepted says about A: H1 rules out Elo ≤ elo0, H0 rules
    out Elo ≥ elo1."""
    test = status.sprt
    unit = "Elo" if test.model == "logistic" else "normalised Elo"
    if status.result == "H1":
        if test.elo0 == 0:
            return f"{a} is stronger"
        if test.elo0 > 0:
            return f"{a} is more than {test.elo0:g} {unit} stronger"
        return f"{a} is not {-test.elo0:g} {unit} weaker"
    if test.elo1 == 0:
        return f"{a} is weaker"
    if test.elo1 > 0:
        return f"{a} is not {test.elo1:g} {unit} stronger"
    return f"{a} is more than {-test.elo1:g} {unit} weaker"


def result_line(status: SprtStatus, a: str = "A") -> str:
    """The decision, or that there is none yet, with the LLR and the bound."""
    llr, lower, upper = llr_texts(status)
    if status.result == "H1":
        return f"H1 accepted: {verdict(status, a)} (LLR {llr} ≥ {upper})"
    if status.result == "H0":
        return f"H0 accepted: {verdict(status, a)} (LLR {llr} ≤ {lower})"
    return f"no decision yet: LLR {llr}, bounds [{lower}, {upper}]"


def status_lines(status: SprtStatus, a: str = "A") -> list[str]:
    """The status as lines of at most 80 columns: the decision, the LLR and the test,
    the pairs and their counts, the Elo estimates and the LOS (none before the first
    pair: they would only say that anything is possible)."""
    test, found = status.sprt, status.estimates
    counts = ", ".join(f"{name} {count}" for name, count in zip(PAIR_CLASSES,
                                                                  status.counts))
    lines = [
        result_line(status, a),
        "LLR      {}, bounds [{}, {}]".format(*llr_texts(status)),
        f"test     elo0 {test.elo0:g}, elo1 {test.elo1:g} ({test.model}), "
        f"alpha {test.alpha:g}, beta {test.beta:g}",
        f"pairs    {status.pairs} ({status.games} games)",
        f"counts   {counts}",
    ]
    if not status.pairs:
        return lines + ["Elo      none yet: no pair counted"]
    if status.interval is None:
        return lines + [f"Elo      {elo_text(status, a)}"]
    return lines + [
        f"Elo      {interval_text(status.elo, status.interval)})",
        f"nElo     {interval_text(found.nelo, found.nelo_interval)}, normalised)",
        f"LOS      {100 * status.los:.1f}% (the chance that {a} is the stronger)",
    ]


def elo_text(status: SprtStatus, a: str = "A") -> str:
    """The Elo estimate with its 95% interval, or why there is none yet: while every
    pair fell in one class the counts show no spread (and all won or all lost games
    have no finite Elo)."""
    if not status.pairs:
        return "none yet: no pair counted"
    if status.interval is not None:
        return f"{interval_text(status.elo, status.interval)})"
    if status.elo is None:
        won = status.counts[-1] > 0
        return (f"no finite estimate yet: {a} {'won' if won else 'lost'} every game "
                "(no interval, no LOS)")
    return (f"{fixed(status.elo, '+')}, no interval yet: every pair scored the same "
            "(no LOS)")
