"""Compile every game's kernels into numba's on-disk cache ahead of the first game, so
that no game waits for a compile: `python -m plyground.core.fast.precompile`.

`make play` runs it after installing, a line a game as each is compiled (about 30 s
in all on a fresh install; a second or so when everything is cached already). Every
later process, the app's search engine included, loads the kernels from the cache in
a fraction of a second. The app runs it too at its start (`--lines --background`),
which compiles only what is missing (a fresh install by pip alone, a changed kernel,
another numba) and tells the app how far it has come; a game started meanwhile waits
for its own kernels (fast/cache.py) before its agent's clock starts. With
`--background` it ends when its stdin closes (the app that reads it has ended).

With `--lines`, one line an event, for a program to read:
`missing ID ...` (nothing after it: all cached), `compiling ID`,
`ready ID SECONDS`, `failed ID MESSAGE`, and `done` at the end.
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from dataclasses import dataclass
from typing import Callable

from .. import games  # noqa: F401  (registers the games)
from ..game import game_entries
from . import warm_up
from .cache import all_cached, cache_folder, kernels_of

PERFECT = "perfect"  # the Connect 4 perfect agent's solver: a target of its own


@dataclass(frozen=True)
class Target:
    """A set of kernels compiled together: a game's (its alpha-beta and MCTS
    kernels), or the perfect agent's solver."""

    id: str
    title: str
    modules: tuple[str, ...]
    compile: Callable[[], None]

    def kernels(self) -> list:
        return kernels_of(self.modules)


def _warm_solver() -> None:
    from . import c4solver

    c4solver.warm_up(c4solver.Solver())


def targets() -> list[Target]:
    """Every registered game with kernels (plugins' too), in the menus' order, then
    the perfect agent's solver."""
    found = [Target(entry.id, entry.title, tuple(entry.kernels.modules()),
                    lambda game_id=entry.id: warm_up(game_id))
             for entry in game_entries() if entry.kernels.modules()]
    found.append(Target(PERFECT, "the Connect 4 solver (perfect agent)",
                        (f"{__package__}.c4solver",), _warm_solver))
    return found


def missing(among: list[Target] | None = None) -> list[Target]:
    """The targets whose kernels are not all in numba's cache."""
    return [target for target in (targets() if among is None else among)
            if not all_cached(target.kernels())]


def ordered(found: list[Target], first: str | None) -> list[Target]:
    """`found`, the game `first` (the one about to be played) first."""
    return sorted(found, key=lambda target: target.id != first)


def compile_each(todo: list[Target], starting: Callable[[Target], None],
                 finished: Callable[[Target, float, str | None], None]) -> int:
    """Compile each target in turn, telling `starting` before and `finished` after
    (with the seconds it took, and the error's message in one line where it failed:
    the others still compile); 0 if all went well, else 1."""
    failed = False
    for target in todo:
        starting(target)
        began = time.perf_counter()
        try:
            target.compile()
        except Exception as error:
            failed = True
            finished(target, time.perf_counter() - began, " ".join(str(error).split()))
            continue
        finished(target, time.perf_counter() - began, None)
    return int(failed)


def compile_lines(first: str | None, say: Callable[[str], None]) -> int:
    """Compile what is missing, saying each step as `--lines` does."""
    todo = ordered(missing(), first)
    say("missing " + " ".join(target.id for target in todo))
    failed = compile_each(
        todo, lambda target: say(f"compiling {target.id}"),
        lambda target, seconds, error: say(
            f"failed {target.id} {error}" if error else f"ready {target.id} {seconds:.1f}"))
    say("done")
    return failed


def compile_for_people(first: str | None) -> int:
    """Compile what is missing, a line a target as it is compiled."""
    every = targets()
    todo = ordered(missing(every), first)
    where = cache_folder(every[0].kernels()) if every else None
    if not todo:
        print("plyground: the game engines are compiled (in numba's cache)")
        return 0
    print(f"plyground: compiling the game engines once (about {6 * len(todo)} s), for "
          "every later start:", flush=True)
    began = time.perf_counter()
    failed = compile_each(
        todo, lambda target: print(f"  {target.title:40s} ", end="", flush=True),
        lambda target, seconds, error: print(
            f"failed: {error}" if error else f"{seconds:5.1f} s", flush=True))
    print(f"  done in {time.perf_counter() - began:.0f} s; numba's cache: {where}")
    return failed


def _end_with_stdin() -> None:
    """End this process once stdin closes (a compile cut short is finished by the
    next start; numba writes each kernel whole, and the lock goes with the process)."""
    try:
        sys.stdin.read()
    except (OSError, ValueError):
        return  # no stdin to watch
    os._exit(1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m plyground.core.fast.precompile",
        description="Compile every game's kernels into numba's cache, ahead of the "
                    "first game.")
    parser.add_argument("--first", metavar="GAME", help="compile this game's first")
    parser.add_argument("--lines", action="store_true",
                        help="one line an event, for a program to read")
    parser.add_argument("--background", action="store_true",
                        help="at a lower priority (beside a running app)")
    args = parser.parse_args(argv)
    if args.background:
        os.nice(10)
        # the program that reads the lines holds our stdin: when it ends, so do we
        threading.Thread(target=_end_with_stdin, daemon=True).start()
    try:
        if args.lines:
            return compile_lines(args.first, lambda line: print(line, flush=True))
        return compile_for_people(args.first)
    except KeyboardInterrupt:
        print("interrupted: what was compiled is kept; the rest compiles at the next "
              "start", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
