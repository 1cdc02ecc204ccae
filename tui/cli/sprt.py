"""`plyground sprt`: is A stronger than B? A pentanomial GSPRT (core/play/sprt.py);
with `--counts`, the calculator: the test's figures for pair counts already known.

A status reads the same wherever it is shown: `status_lines` gives its lines (the
decision first), `SprtStatus.to_json` its JSON."""
from __future__ import annotations

import json
import sys
import time
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.live import Live
from rich.text import Text

from plyground.core import Game, PlygroundError, parse_game
from plyground.core.errors import BadOption
from plyground.core.play.arena import (DEFAULT_MAX_PAIRS, GameEnded, PairCounted, SprtPlan,
                                       run_sprt)
from plyground.core.play.cluster import open_pool
from plyground.core.play.openings import (NO_OPENINGS, default_suite_name, opening_suite,
                                          openings_option, shipped_suites)
from plyground.core.play.sprt import (ELO_LIMITS, PAIR_CLASSES, SPRT, SprtStatus,
                                      check_counts)
from plyground.core.ranges import MOST_GAMES
from plyground.core.records.runs import finish_run
from plyground.core.rng import fresh_seed

from ..sprt_text import fixed, llr_texts, status_lines
from .options import Cluster, ClusterSecurity, Jobs, NoRecord, Seed
from .recording import history_for, record_match_game, run_params
from .runs import Played, Resume, begin_run, end_run
from .sides import game_agent
from .stopping import CUT_SHORT, saying

COUNTS_HELP = ("the calculator: pair counts LL,LD,DD,WD,WW (A's points in a pair: 0, "
               "½, 1, 1½, 2); prints the test's figures for them and plays nothing")


def parse_counts(text: str) -> tuple[int, ...]:
    """`--counts` as five whole numbers, LL to WW."""
    parts = [part.strip() for part in text.split(",")]
    # ASCII digits: str.isdigit takes '²', which int() refuses
    if len(parts) != 5 or not all(part.isascii() and part.isdigit() and len(part) <= 15
                                  for part in parts):
        raise BadOption(f"--counts takes 5 whole numbers LL,LD,DD,WD,WW of at most 15 "
                        f"digits, not {text!r}")
    return check_counts(int(part) for part in parts)


# the ranges of the test's figures; SPRT itself checks what depends on two of them
ELO_RANGE = {"min": -max(ELO_LIMITS.values()), "max": max(ELO_LIMITS.values())}
ERROR_RATE = {"min": 0, "max": 0.5}  # a probability of a wrong answer: above 0, below 0.5
DEFAULTS = {"elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.05, "model": "logistic",
            "max_pairs": DEFAULT_MAX_PAIRS}


def default(name: str) -> str:
    """An option's default as typer writes one, for help that states it by hand: these
    options' own default is None (a resumed run tells an option given from one left
    out). Escaped: typer's help reads Rich markup, where a bare `[default: 0]` is a
    tag, silently dropped."""
    value = DEFAULTS[name]
    return f"  \\[default: {value:g}]" if isinstance(value, float) else \
        f"  \\[default: {value}]"


def sprt_command(
    game: Annotated[Optional[str], typer.Argument(
        metavar="GAME", show_default=False,
        help="the game to play the test on (with --resume, the run's: leave it "
             "out)")] = None,
    a: Annotated[Optional[str], typer.Argument(
        metavar="A", show_default=False, help="the agent tested: is it stronger…")] = None,
    b: Annotated[Optional[str], typer.Argument(
        metavar="B", show_default=False, help="…than this one?")] = None,
    counts: Annotated[Optional[str], typer.Option(
        metavar="LL,LD,DD,WD,WW", help=COUNTS_HELP, show_default=False)] = None,
    elo0: Annotated[Optional[float], typer.Option(
        **ELO_RANGE, help="H0: A is elo0 stronger" + default("elo0"),
        show_default=False)] = None,
    elo1: Annotated[Optional[float], typer.Option(
        **ELO_RANGE, help="H1: A is elo1 stronger" + default("elo1"),
        show_default=False)] = None,
    alpha: Annotated[Optional[float], typer.Option(
        **ERROR_RATE, help="the chance of accepting H1 when H0 holds"
        + default("alpha"), show_default=False)] = None,
    beta: Annotated[Optional[float], typer.Option(
        **ERROR_RATE, help="the chance of accepting H0 when H1 holds"
        + default("beta"), show_default=False)] = None,
    model: Annotated[Optional[str], typer.Option(
        metavar="logistic|normalized", show_default=False,
        help="the Elo of elo0 and elo1: logistic, or normalised (per unit of the "
             "score's spread)" + default("model"))] = None,
    openings: Annotated[Optional[str], typer.Option(
        "--openings", metavar="NAME|FILE|none", show_default=False,
        help="the openings the pairs start from, each played twice, colours swapped: "
             "a shipped suite (default: the game's `balanced` one), a suite file (see "
             "`plyground openings`), or none (every pair from the start)")] = None,
    max_pairs: Annotated[Optional[int], typer.Option(
        min=1, max=MOST_GAMES,
        help="stop undecided after this many game pairs"
        + default("max_pairs"), show_default=False)] = None,
    seed: Seed = None,
    resume: Resume = None,
    jobs: Jobs = None,
    cluster: Cluster = None,
    cluster_security: ClusterSecurity = None,  # (carried in `cluster`)
    as_json: Annotated[bool, typer.Option(
        "--json", help="print one JSON object: result (H0, H1 or none), llr, its "
        "bounds, the pentanomial counts, Elo, its 95% interval, LOS, …")] = False,
    no_record: NoRecord = False,
) -> None:
    """Test whether agent A is stronger than B: an SPRT on game pairs.

    A sequential probability ratio test, as engine testers run one. Each
    opening is played twice, colours swapped, and each pair is counted by A's
    points in it (LL 0, LD ½, DD or WL 1, WD 1½, WW 2). The test stops when
    its log-likelihood ratio (LLR) reaches a bound: H1 (A is elo1 stronger)
    or H0 (A is elo0 stronger), each wrongly at most alpha or beta of the
    time. It prints the LLR and its bounds, the counts, the Elo estimate with
    its 95% interval and the likelihood of superiority (LOS). Each game goes
    to the game history as it ends (unless --no-history); Ctrl-C stops the
    test and says how to go on with --resume. With --counts it gives the
    figures for pair counts you already have, and plays nothing.

    Examples: plyground sprt connect4 mcts:time=0.2 mcts:time=0.2,uct=plain
    --elo1 30

    plyground sprt --counts 3,20,50,35,12 --elo0 0 --elo1 5
    """
    bounds = {"elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta, "model": model}
    if counts is not None:
        if game is not None or resume is not None:
            raise PlygroundError("sprt takes either --counts or GAME A B, not both")
        test = SPRT(**{name: DEFAULTS[name] if value is None else value
                       for name, value in bounds.items()})
        show_status(test.status(parse_counts(counts)), as_json)
        return
    if (a is None) != (b is None) or (game is not None and a is None and resume is None):
        raise PlygroundError("sprt needs GAME A B (two agents to test), --resume RUN or "
                             "--counts LL,LD,DD,WD,WW")
    given = {"players": None if a is None else [a.strip(), b.strip()], **bounds,
             "max_pairs": max_pairs, "seed": seed, "openings": openings_option(openings)}
    game_spec, params = run_params(resume, "sprt", game, given, no_record,
                                   {"players": "A B"})
    if game_spec is None:
        raise PlygroundError("sprt needs GAME A B (two agents to test), --resume RUN or "
                             "--counts LL,LD,DD,WD,WW")
    play_sprt(parse_game(game_spec), params, resume, jobs, cluster, as_json, no_record)


def show_status(status: SprtStatus, as_json: bool, about: dict | None = None) -> None:
    if as_json:
        typer.echo(json.dumps({**(about or {}), **status.to_json()}, indent=2))
    else:
        typer.echo("\n".join(status_lines(status)))


def sprt_plan(game: Game, params: dict) -> SprtPlan:
    """The test `params` describe (defaults filled in; a new seed if none; the game's
    shipped suite if no openings are named and it has one)."""
    params = {**DEFAULTS, **{name: value for name, value in params.items()
                             if value is not None}}
    if params.get("openings") is None:
        params["openings"] = (default_suite_name(game) if shipped_suites(game)
                              else NO_OPENINGS)
    specs = tuple(params["players"])
    test = SPRT(*(params[name] for name in ("elo0", "elo1", "alpha", "beta", "model")))
    return SprtPlan(game, specs, tuple(game_agent(game, spec) for spec in specs), test,
                     params.get("seed") or fresh_seed(), params["max_pairs"],
                     opening_suite(game, params["openings"]), params["openings"])


def play_sprt(game: Game, params: dict, resume: int | None, jobs: int | None,
              cluster: str | None, as_json: bool, no_record: bool) -> None:
    """Play the test (or the rest of run `resume`), each game kept in the history as
    it ends, progress on stderr; then its figures."""
    plan = sprt_plan(game, params)
    status = plan.test.status([0] * 5)
    with history_for(not no_record) as history:
        run, kept = begin_run(history, "sprt", game.spec, plan.params, plan.command,
                              resume)
        progress = SprtProgress(len(kept))
        try:
            with saying(CUT_SHORT), progress, open_pool(game, jobs, cluster) as pool:
                progress.start(pool.size, plan.max_pairs)
                for event in run_sprt(game, plan.players, plan.test, plan.seed, pool,
                                      plan.max_pairs, plan.opening if plan.suite else None,
                                      kept):
                    if isinstance(event, GameEnded):
                        record_match_game(history, "sprt", game, event.job.players,
                                          event.result, plan.command,
                                          None if run is None else (run, event.job.key))
                        progress.game()
                    else:
                        status = event.status
                        progress.pair(event)
            interrupted = False
        except KeyboardInterrupt:
            interrupted = True
        if run is not None:
            finish_run(history, run, "interrupted" if interrupted else "finished")
    about = {"game": game.spec, "agents": list(plan.specs), "seed": plan.seed,
             "openings": plan.openings, "max_pairs": plan.max_pairs,
             "command": plan.command, "run": run}
    if as_json:
        show_status(status, True, about)
    else:
        typer.echo(f"{game.title}: A = {plan.specs[0]}, B = {plan.specs[1]}, openings "
                   f"{plan.openings}")
        show_status(status, False)
        if status.result is None and status.pairs == plan.max_pairs:
            typer.echo(f"stopped at --max-pairs {plan.max_pairs}: no decision")
        typer.echo("reproduce: " + plan.command)
    end_run(Played([], 2 * status.pairs, run, interrupted), "sprt",
            f"{status.pairs} pairs counted")


class SprtProgress:
    """The test's progress on stderr: a live line on a terminal (pairs, LLR between
    its bounds, Elo), else a line per counted pair, so a log shows it moving."""

    def __init__(self, games: int) -> None:
        self.games, self.started = games, time.monotonic()
        self.console = Console(stderr=True, highlight=False)
        self.live = Live(Text("starting the games…"), console=self.console,
                         transient=True, auto_refresh=False)
        self.line = ""

    def __enter__(self) -> "SprtProgress":
        if self.console.is_terminal:
            self.live.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.console.is_terminal:
            self.live.stop()

    def start(self, workers: int, most: int) -> None:
        """Into a log or a pipe, a line as the games start: the first pair may take
        minutes to count."""
        if not self.console.is_terminal:
            print(f"playing game pairs on {workers} worker{'s' if workers != 1 else ''} "
                  f"until the test decides (at most {most} pairs)…", file=sys.stderr,
                  flush=True)

    def game(self) -> None:
        self.games += 1
        self.show()

    def pair(self, event: PairCounted) -> None:
        status = event.status
        if status.interval:
            low, high = (fixed(end, "+") for end in status.interval)
            elo = f"Elo {fixed(status.elo, '+')} [{low}, {high}]"
        else:
            elo = "no Elo interval yet"
        self.line = "LLR {} [{}, {}]".format(*llr_texts(status)) + f" · {elo}"
        if self.console.is_terminal:
            self.line = f"pair {status.pairs} · {self.line}"
        else:
            seconds = time.monotonic() - self.started
            print(f"[pair {status.pairs}, {seconds:.0f} s] "
                  f"{PAIR_CLASSES[event.pair.kind]} · {self.line}", file=sys.stderr,
                  flush=True)
        self.show()

    def show(self) -> None:
        """The live line, cut to the terminal's width rather than wrapped."""
        if self.console.is_terminal:
            self.live.update(Text(f"{self.line or 'no pair counted yet'} · "
                                  f"{self.games} games", no_wrap=True,
                                  overflow="ellipsis"), refresh=True)
