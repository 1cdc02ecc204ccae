"""`plyground sprt`: is A stronger than B? A pentanomial GSPRT (core/play/sprt.py);
with `--counts`, the calculator: the test's figures for pair counts already known.

A status reads the same wherever it is shown: `status_lines` gives its lines (the
decision first), `SprtStatus.to_json` its JSON."""
from __future__ import annotations

import json
from typing import Annotated, Optional

import typer

from plyground.core import PlygroundError
from plyground.core.errors import BadOption
from plyground.core.play.sprt import PAIR_CLASSES, SPRT, SprtStatus, check_counts

COUNTS_HELP = ("the calculator: pair counts LL,LD,DD,WD,WW (A's points in a pair: 0, "
               "½, 1, 1½, 2); prints the test's figures for them and plays nothing")


def parse_counts(text: str) -> tuple[int, ...]:
    """`--counts` as five whole numbers, LL to WW."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 5 or not all(part.isdigit() for part in parts):
        raise BadOption(f"--counts takes 5 whole numbers LL,LD,DD,WD,WW, not {text!r}")
    return check_counts(int(part) for part in parts)


def _fixed(value: float, sign: str = "") -> str:
    """`value` to 2 places (1 with a sign), never as -0.00."""
    places = 1 if sign else 2
    return f"{round(value, places) + 0.0:{sign}.{places}f}"


def _interval(value: float, interval: tuple[float, float]) -> str:
    low, high = (_fixed(end, "+") for end in interval)
    return f"{_fixed(value, '+')} [{low}, {high}] (95%"


def _verdict(status: SprtStatus, a: str) -> str:
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
    llr, lower, upper = (_fixed(value) for value in (status.llr, status.lower,
                                                      status.upper))
    if status.result == "H1":
        return f"H1 accepted: {_verdict(status, a)} (LLR {llr} ≥ {upper})"
    if status.result == "H0":
        return f"H0 accepted: {_verdict(status, a)} (LLR {llr} ≤ {lower})"
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
        f"LLR      {_fixed(status.llr)}, bounds [{_fixed(status.lower)}, "
        f"{_fixed(status.upper)}]",
        f"test     elo0 {test.elo0:g}, elo1 {test.elo1:g} ({test.model}), "
        f"alpha {test.alpha:g}, beta {test.beta:g}",
        f"pairs    {status.pairs} ({status.games} games)",
        f"counts   {counts}",
    ]
    if not status.pairs:
        return lines + ["Elo      none yet: no pair counted"]
    return lines + [
        f"Elo      {_interval(status.elo, status.interval)})",
        f"nElo     {_interval(found.nelo, found.nelo_interval)}, normalised)",
        f"LOS      {100 * status.los:.1f}% (the chance that {a} is the stronger)",
    ]


def sprt_command(
    game: Annotated[Optional[str], typer.Argument(
        metavar="GAME", show_default=False, help="the game to play the test on")] = None,
    a: Annotated[Optional[str], typer.Argument(
        metavar="A", show_default=False, help="the agent tested: is it stronger…")] = None,
    b: Annotated[Optional[str], typer.Argument(
        metavar="B", show_default=False, help="…than this one?")] = None,
    counts: Annotated[Optional[str], typer.Option(
        metavar="LL,LD,DD,WD,WW", help=COUNTS_HELP, show_default=False)] = None,
    elo0: Annotated[float, typer.Option(help="H0: A is elo0 stronger")] = 0.0,
    elo1: Annotated[float, typer.Option(help="H1: A is elo1 stronger")] = 5.0,
    alpha: Annotated[float, typer.Option(
        help="the chance of accepting H1 when H0 holds")] = 0.05,
    beta: Annotated[float, typer.Option(
        help="the chance of accepting H0 when H1 holds")] = 0.05,
    model: Annotated[str, typer.Option(
        metavar="logistic|normalized",
        help="the Elo of elo0 and elo1: logistic, or normalised (per unit of the "
             "score's spread)")] = "logistic",
    max_pairs: Annotated[Optional[int], typer.Option(
        min=1, help="stop undecided after this many game pairs",
        show_default=False)] = None,
    seed: Annotated[Optional[int], typer.Option(
        help="the seed of the games", show_default=False)] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="print one JSON object: result (H0, H1 or none), llr, its "
        "bounds, the pentanomial counts, Elo, its 95% interval, LOS, …")] = False,
) -> None:
    """Test whether agent A is stronger than B: an SPRT on game pairs.

    A sequential probability ratio test, as engine testers run one. Each
    opening is played twice, colours swapped, and each pair is counted by A's
    points in it (LL 0, LD ½, DD or WL 1, WD 1½, WW 2). The test stops when
    its log-likelihood ratio (LLR) reaches a bound: H1 (A is elo1 stronger)
    or H0 (A is elo0 stronger), each wrongly at most alpha or beta of the
    time. It prints the LLR and its bounds, the counts, the Elo estimate with
    its 95% interval and the likelihood of superiority (LOS). With --counts
    it gives these for pair counts you already have, and plays nothing.
    """
    test = SPRT(elo0=elo0, elo1=elo1, alpha=alpha, beta=beta, model=model)
    if counts is not None:
        if game is not None:
            raise PlygroundError("sprt takes either --counts or GAME A B, not both")
        status = test.status(parse_counts(counts))
        if as_json:
            typer.echo(json.dumps(status.to_json(), indent=2))
        else:
            typer.echo("\n".join(status_lines(status)))
        return
    if game is None or a is None or b is None:
        raise PlygroundError("sprt needs GAME A B (two agents to test) or --counts "
                             "LL,LD,DD,WD,WW")
    raise PlygroundError("playing an SPRT is not built yet")
