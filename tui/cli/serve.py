"""`plyground serve`: the app in a web browser, through textual-serve. Each browser tab
that opens the page starts its own copy of the app (the setup screen, or a lesson with
--lesson), in a process of its own.

Only its own page gets in (serve_gate.py): the address printed at start carries a
random token, websockets from other sites are refused, and at most --max-sessions apps
run at once. A visitor plays only the agents from outside plyground that --allow-agent
names (as written: only their time may change), searches only within the ceilings of
--max-time, --max-nodes, --max-iterations and --max-sims, names only the files the
server offers (core/trust.py, served_agent), saves only into a folder of its own
inside the server's save folder, up to a quota, and writes nothing into the server's
game history: each app is started with hidden root options that say so
(`served_command`). It listens on 127.0.0.1 unless told otherwise; an address other
machines reach needs --public.
"""
from __future__ import annotations

import errno
import math
import shlex
import socket
import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from plyground.core import PlygroundError
from plyground.core.agents.box import memory_words
from plyground.core.agents.ceilings import Ceilings, over_ceiling
from plyground.core.catalogue import parse_agent
from plyground.core.paths import data_home
from plyground.core.ranges import LONGEST_MOVE, MOST_NODES, SHORTEST_MOVE
from plyground.core.search.mcts import MAX_ITERATIONS
from plyground.core.study.lesson import LessonError, played_through
from plyground.core.study.lessons import lesson_file

from ..exit_codes import INTERRUPTED
from ..hosts import is_local
from ..served_saves import MB, QUOTA_FILES, QUOTA_MB, quota_text, remove_empty_sessions
from .serve_limits import (DEFAULT_IDLE, DEFAULT_MEMORY, LONGEST_IDLE, SHORTEST_IDLE,
                           idle_seconds, memory_ceiling)


def served_command(lesson: str | None, allowed_agents: tuple[str, ...] = (),
                   save_dir: Path | None = None, quota_files: int = QUOTA_FILES,
                   quota_mb: int = QUOTA_MB, ceilings: Ceilings = Ceilings()) -> str:
    """The shell command the server runs for each page opened: this Python's
    plyground, on the setup screen or presenting a lesson, told by hidden root options
    that it is served, which agents from outside it may play, where it saves and how
    much (a quota only when not the default, which the app assumes)."""
    command = [sys.executable, "-m", "plyground", "--served"]
    for spec in allowed_agents:
        command += ["--served-allow-agent", spec]
    if save_dir is not None:
        command += ["--served-save-dir", str(save_dir)]
    if quota_files != QUOTA_FILES:
        command += ["--served-save-quota-files", str(quota_files)]
    if quota_mb != QUOTA_MB:
        command += ["--served-save-quota-mb", str(quota_mb)]
    if ceilings != Ceilings():  # (the defaults are the app's own)
        command += ["--served-ceilings", ceilings.text()]
    if lesson is not None:
        command += ["lesson", "run", lesson]
    return shlex.join(command)


def check_served_lesson(lesson: str, allowed: tuple[str, ...]) -> None:
    """The lesson's faults now, not in the browser. An agent from outside plyground it
    names is served only if --allow-agent names it too (nothing of it runs here)."""
    _, _, faults = played_through(lesson_file(lesson), allowed)
    outside = list(dict.fromkeys(spec for fault in faults for spec in fault.outside))
    if outside:
        raise PlygroundError(f"--lesson {lesson} names agents from outside plyground "
                             f"({', '.join(outside)}): give each with --allow-agent to "
                             "serve it (nothing of them was run)")
    if faults:
        raise LessonError(faults)


def allowed_agent(spec: str, ceilings: Ceilings = Ceilings()) -> str:
    """The agent `--allow-agent` names, in its canonical form for the lines printed at
    start; a typo, or a search over the served ceilings, is an error line now, not a
    refusal in the browser. (Its file is imported here: the server's user named it.
    The app lets a visitor's choice through when it runs the same command, file or
    module with the same settings but its time and seed, core/trust.py.)"""
    try:
        agent = parse_agent(spec)
    except PlygroundError as error:
        raise PlygroundError(f"--allow-agent {spec!r}: {error}") from None
    refusal = over_ceiling(agent, ceilings)
    if refusal is not None:
        raise PlygroundError(f"--allow-agent {spec!r}: {refusal}")
    return agent.spec


def served_ceilings(max_time: float, max_nodes: int, max_iterations: int,
                    max_sims: int) -> Ceilings:
    """The ceilings of a visitor's searches, from serve's options (typer checked
    their ranges; a NaN passes a range, so it is refused here)."""
    if not math.isfinite(max_time):
        raise PlygroundError(f"--max-time {max_time}: a number of seconds, as in "
                             "--max-time 10")
    return Ceilings(max_time, max_nodes, max_iterations, max_sims)


def ceiling_note(ceilings: Ceilings) -> str:
    """The line printed at start that says the ceilings."""
    return (f"A visitor's agents think at most {ceilings.time:g} s a move, and ask for "
            f"at most {ceilings.nodes:,} nodes, {ceilings.iterations:,} MCTS iterations "
            f"or {ceilings.sims:,} az simulations.")


def save_folder(given: Path | None) -> Path:
    """The folder served apps save into: `given`, else a new one under the data
    folder's `served/`, named for when the server started."""
    try:
        if given is not None:
            folder = given.expanduser().resolve()
            folder.mkdir(parents=True, exist_ok=True)
            return folder
        parent = data_home() / "served"
        parent.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y-%m-%d-%H%M%S")
        for number in range(1, 1000):
            folder = parent / (stamp if number == 1 else f"{stamp}-{number}")
            try:
                folder.mkdir()
                return folder
            except FileExistsError:
                continue
        raise FileExistsError(f"{parent / stamp} and its next 998 names exist")
    except OSError as error:
        where = "--save-dir" if given is not None else "the folder for saved games"
        raise PlygroundError(f"{where}: cannot use {given or '(data folder)/served'}: "
                             f"{error.strerror or error}") from None


def serve_command(
    host: Annotated[str, typer.Option(
        help="the address to listen on; any but this machine's own (127.0.0.1, "
        "localhost, ::1) needs --public")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535,
                                      help="the port to listen on")] = 8000,
    lesson: Annotated[Optional[str], typer.Option(
        metavar="LESSON", help="present this lesson (a file or a shipped lesson's "
        "name) instead of the setup screen", show_default=False)] = None,
    public: Annotated[bool, typer.Option(
        "--public", help="let other machines in: listen on --host as given, and "
        "answer whatever name the browser used for this machine")] = False,
    max_sessions: Annotated[int, typer.Option(
        metavar="N", min=1, max=1000,
        help="the most copies of the app running at once; one more "
        "visitor is told the server is full")] = 4,
    allow_agent: Annotated[Optional[list[str]], typer.Option(
        metavar="SPEC", help="an agent from outside plyground (engine:cmd=..., "
        "file.py:Class, module:Class) that visitors may play; repeatable. Visitors "
        "get no other", show_default=False)] = None,
    save_dir: Annotated[Optional[Path], typer.Option(
        metavar="DIR", help="the only folder visitors may save into, each in a folder "
        "of its own (default: a new folder under the data folder's served/)",
        show_default=False)] = None,
    save_quota_files: Annotated[int, typer.Option(
        metavar="N", min=1, max=100_000,
        help="the most files each visitor may save")] = QUOTA_FILES,
    save_quota_mb: Annotated[int, typer.Option(
        metavar="MB", min=1, max=100_000,
        help="the most megabytes each visitor may save")] = QUOTA_MB,
    max_memory: Annotated[str, typer.Option(
        metavar="SIZE", help="the most memory each visitor's app may use, with all it "
        "starts (512M, 1G, 1.5G); over it, its session is ended")] = DEFAULT_MEMORY,
    idle: Annotated[float, typer.Option(
        metavar="MINUTES", min=SHORTEST_IDLE / 60, max=LONGEST_IDLE,
        help="end a visitor's app after this long with no key, "
        "click or resize from its page")] = DEFAULT_IDLE,
    max_time: Annotated[float, typer.Option(
        metavar="SECONDS", min=SHORTEST_MOVE, max=LONGEST_MOVE,
        help="the most seconds a visitor's agent may think a move")
    ] = Ceilings.time,
    max_nodes: Annotated[int, typer.Option(
        metavar="N", min=1, max=MOST_NODES,
        help="the most nodes a visitor's tree search (minimax, alpha-beta) may ask "
        "for; one bounded by depth alone stops there")] = Ceilings.nodes,
    max_iterations: Annotated[int, typer.Option(
        metavar="N", min=1, max=MAX_ITERATIONS,
        help="the most iterations a visitor's MCTS may ask for")
    ] = Ceilings.iterations,
    max_sims: Annotated[int, typer.Option(
        metavar="N", min=1, max=MAX_ITERATIONS,
        help="the most simulations a visitor's az may ask for")
    ] = Ceilings.sims,
) -> None:
    """Serve the app to a web browser (textual-serve).

    Open the address it prints, token included; each page is a new copy
    of the app. Ctrl-C stops it.
    """
    if not 1 <= port <= 65535:
        raise PlygroundError(f"--port {port}: a port is a number from 1 to 65535")
    if max_sessions < 1:
        raise PlygroundError(f"--max-sessions {max_sessions}: at least 1")
    memory, idle_time = memory_ceiling(max_memory), idle_seconds(idle)
    try:
        socket.getaddrinfo(host, port)
    except (socket.gaierror, UnicodeError) as error:
        raise PlygroundError(f"--host {host!r}: not an address of this machine "
                             f"({getattr(error, 'strerror', None) or error})") from None
    if not is_local(host) and not public:
        raise PlygroundError(f"--host {host}: other machines may reach this address, "
                             "and anyone with the printed address runs the app; add "
                             "--public if you mean it")
    ceilings = served_ceilings(max_time, max_nodes, max_iterations, max_sims)
    allowed = tuple(dict.fromkeys(allowed_agent(spec, ceilings)
                                  for spec in allow_agent or ()))
    if lesson is not None:
        check_served_lesson(lesson, allowed)
    folder = save_folder(save_dir)
    try:
        from ..serve_gate import GatedServer  # textual-serve and aiohttp: only to serve
    except ImportError:  # pragma: no cover - a dependency of the package
        raise PlygroundError("textual-serve is not installed: pip install "
                             "textual-serve") from None
    notes = [f"Visitors save games into {folder}, each in a folder of its own, at most "
             f"{quota_text(save_quota_files, save_quota_mb * MB)} each.",
             "Visitors may play plyground's own and installed agents" + (
                 f", and {', '.join(allowed)}." if allowed else " only.")]
    notes.append(f"Each visitor's app may use {memory_words(memory)} of memory, with all "
                 f"it starts, and ends after {idle:g} minutes with no input.")
    if not is_local(host):
        notes.append(f"Listening on {host}: other machines may reach it.")
    notes.append(ceiling_note(ceilings))
    command = served_command(lesson, allowed, folder, save_quota_files, save_quota_mb,
                             ceilings)
    server = GatedServer(command, host=host, port=port,
                         title="plyground" + (f": {lesson}" if lesson else ""),
                         max_sessions=max_sessions, public=public, notes=tuple(notes),
                         idle=idle_time, memory=memory)
    try:
        server.serve()
        if getattr(server, "interrupted", False):
            raise typer.Exit(INTERRUPTED)
    except OSError as error:  # the port is taken, the address is not this machine's
        reason = (f"the port is in use: stop what listens on it, or choose another "
                  f"with --port" if error.errno == errno.EADDRINUSE
                  else error.strerror or error)
        raise PlygroundError(f"cannot serve on {host}:{port}: {reason}") from None
    finally:
        remove_empty_sessions(folder)  # visitors who saved nothing
        if save_dir is None:  # a folder of its own: not left behind empty
            try:
                folder.rmdir()
            except OSError:
                pass
