"""Connect 4 opening book: the exact score (rules/connect4.md) of every position with at
most `depth` stones, so that the solver answers them without searching (near the empty
board a solve takes minutes).

The book is a JSON file, `books/connect4.json` in this package: `depth`, how it was
built, and `scores`, one entry per position up to mirror image (a position and its
mirror share a score), keyed by a column-digit sequence reaching it (`""`: the empty
board). Loading checks that every position up to `depth` is there exactly once and that
each shallower score is the best of its moves' scores; a file that fails raises
`BookError` naming the problem, and the solver then runs without a book (with a
warning, see `default_book`).

Build it with the project's solver (the deepest layer is solved, the shallower ones
follow by negamax):

    plyground solve connect4 --build-book 4 [--out FILE] [--jobs N]
    python -m plyground.core.connect4.book 4 [--out FILE] [--jobs N]

N threads (one a core by default) solve the deepest positions, sharing the solver's
table (its kernel releases the GIL). Each solved position goes into FILE.partial as it
comes (rewritten whole, atomically: `Progress`), so an interrupted build (^C, a crash)
run again goes on where it stopped. The book's `built` field says how long it took.
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import sys
import threading
import time
import warnings
from pathlib import Path

from ..errors import PlygroundError
from ..games.connect4 import BOARD, GAME
from ..paths import write_atomically

BOOK_PATH = Path(__file__).resolve().parent / "books" / "connect4.json"
FORMAT = "plyground connect4 book"
WIDTH, STRIDE = BOARD.width, BOARD.stride
COLUMN_BITS = (1 << STRIDE) - 1
MAX_DEPTH = 8  # deeper books would take days to build


class BookError(PlygroundError):
    """A book file that cannot be used (missing, unreadable, corrupt or incomplete)."""


def mirror(bits: int) -> int:
    """`bits` with the column order reversed (the 7-bit-a-column layout)."""
    out = 0
    for column in range(WIDTH):
        part = (bits >> (column * STRIDE)) & COLUMN_BITS
        out |= part << ((WIDTH - 1 - column) * STRIDE)
    return out


def canonical(state) -> int:
    """The key shared by a position and its mirror image."""
    key = state.key()
    return min(key, mirror(key))


def layers(depth: int) -> list[dict[int, object]]:
    """layers[n]: canonical key -> one state with n stones (none over), n = 0..depth."""
    found = [{canonical(GAME.start()): GAME.start()}]
    for _ in range(depth):
        layer: dict[int, object] = {}
        for state in found[-1].values():
            for column in state.moves():
                child = state.play(column)
                if child.outcome() is None:
                    layer.setdefault(canonical(child), child)
        found.append(layer)
    return found


def move_score(state, column: int, child_score) -> int | None:
    """The score for the side to move if it plays `column`: a win at once, a draw that
    fills the board, else minus `child_score(child)` (None from it passes through: the
    child's score is not known)."""
    child = state.play(column)
    outcome = child.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else (BOARD.cells + 1 - state.ply) // 2
    score = child_score(child)
    return None if score is None else -score


def best_score(state, deeper: dict[int, int]) -> int:
    """A position's score from its children's (`deeper`, by canonical key)."""
    return max(move_score(state, column, lambda child: deeper[canonical(child)])
               for column in state.moves())


class Book:
    """Exact scores by canonical key, for every position with at most `depth` stones."""

    def __init__(self, depth: int, scores: dict[int, int], path: Path | None = None):
        self.depth, self.scores, self.path = depth, scores, path

    def __len__(self) -> int:
        return len(self.scores)

    def score(self, state) -> int | None:
        """The position's exact score, or None if it is deeper than the book."""
        if state.ply > self.depth:
            return None
        return self.scores.get(canonical(state))


def load(path: Path | str = BOOK_PATH) -> Book:
    """The book in `path`, checked (see the module's doc); BookError if unusable."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise BookError(f"opening book {path} not found") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BookError(f"opening book {path} is unreadable: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BookError(f"{path} is not a Connect 4 opening book (no format {FORMAT!r})")
    depth, entries = data.get("depth"), data.get("scores")
    if not isinstance(depth, int) or not 0 <= depth <= MAX_DEPTH \
            or not isinstance(entries, dict):
        raise BookError(f"opening book {path} is corrupt: bad depth or scores")
    scores: dict[int, int] = {}
    for moves, score in entries.items():
        try:
            state = GAME.parse_position(moves)
        except PlygroundError as error:
            raise BookError(f"opening book {path} is corrupt: {error}") from None
        if not isinstance(score, int) or isinstance(score, bool) or abs(score) > 18 \
                or state.ply > depth or canonical(state) in scores:
            raise BookError(f"opening book {path} is corrupt: entry {moves!r}: {score!r}")
        scores[canonical(state)] = score
    expected = layers(depth)
    missing = sum(key not in scores for layer in expected for key in layer)
    if missing:
        raise BookError(f"opening book {path} is incomplete: {missing} positions with "
                        f"at most {depth} stones are missing")
    for layer in expected[:-1]:
        for key, state in layer.items():
            if best_score(state, scores) != scores[key]:
                raise BookError(f"opening book {path} is corrupt: the score of "
                                f"{GAME.format_position(state)!r} is not the best of "
                                "its moves' scores")
    return Book(depth, scores, path)


_default: list = []  # [the default book or None], once loaded


def default_book() -> Book | None:
    """The shipped book, loaded once; None (with a warning saying why) if unusable."""
    if not _default:
        try:
            _default.append(load(BOOK_PATH))
        except BookError as error:
            warnings.warn(f"the Connect 4 solver runs without its opening book: {error}",
                          stacklevel=3)
            _default.append(None)
    return _default[0]


class Progress:
    """A build's progress file (FILE.partial): the score of every deepest position
    solved so far, rewritten whole (a temporary file, then a rename) after each one, so
    that an interrupted build loses no solved position and a rerun goes on from there."""

    FORMAT = "plyground connect4 book progress"

    def __init__(self, path: Path, depth: int, log=print) -> None:
        self.path, self.depth = path, depth
        self.scores: dict[str, int] = {}
        self.seconds = 0.0  # solving time, summed over the threads
        self.wall = 0.0  # the builds' own time, summed over the runs
        if path.exists():
            try:
                saved = json.loads(path.read_text())
                if saved["format"] == self.FORMAT and saved["depth"] == depth:
                    self.scores = {str(k): int(v) for k, v in saved["scores"].items()}
                    self.seconds = float(saved["seconds"])
                    self.wall = float(saved["wall"])
                    log(f"resuming from {path}: {len(self.scores)} positions already "
                        "solved")
                else:
                    log(f"ignoring {path}: it is not the progress of a depth-{depth} "
                        "build")
            except (OSError, ValueError, KeyError, AttributeError, TypeError):
                log(f"ignoring unreadable {path}")

    def add(self, moves: str, score: int, seconds: float) -> None:
        self.scores[moves] = score
        self.seconds += seconds
        self.save()

    def save(self) -> None:
        write_atomically(self.path, json.dumps({
            "format": self.FORMAT, "depth": self.depth, "seconds": self.seconds,
            "wall": self.wall, "scores": self.scores}))


class Lanes:
    """The solver for `jobs` threads at once: one table (a bound found by one thread
    serves the others), a scratch each (its node count and stop flag). The kernel
    releases the GIL, so the threads use as many cores."""

    def __init__(self, jobs: int) -> None:
        import numpy as np  # numpy: only building the book needs it, reading it does not

        from ..fast import c4solver  # numba: likewise, only building the book solves

        self.kernel = c4solver
        self.solver = c4solver.Solver()
        self.scratches = [self.solver.scratch] + [
            np.zeros_like(self.solver.scratch) for _ in range(jobs - 1)]

    def solve(self, state, lane: int) -> tuple[int, int] | None:
        """(score, nodes) of `state` on thread `lane`; None if stopped."""
        scratch, counts = self.scratches[lane], self.kernel.CELLS + 1
        before = int(scratch[counts, 0])
        score = self.kernel.solve(*self.kernel.kernel_position(state), False,
                                  self.solver.table, scratch)
        if scratch[counts, 2]:
            return None
        return int(score), int(scratch[counts, 0]) - before

    def stop(self) -> None:
        for scratch in self.scratches:
            scratch[self.kernel.CELLS + 1, 2] = 1


def solve_all(states: list, solve, jobs: int, stop=lambda: None):
    """Yield (state, score, seconds, nodes) as `jobs` threads solve `states`, taken in
    order; `solve(state, lane)` gives (score, nodes) or None (stopped). An error in a
    thread is raised here; leaving early (an error, ^C) calls `stop` and waits for the
    threads."""
    todo = iter(states)
    taking = threading.Lock()
    results: queue.Queue = queue.Queue()
    halt = threading.Event()

    def lane_work(lane: int) -> None:
        try:
            while not halt.is_set():
                with taking:
                    state = next(todo, None)
                if state is None:
                    break
                started = time.perf_counter()
                solved = solve(state, lane)
                if solved is None:
                    break
                results.put((state, solved[0], time.perf_counter() - started,
                             solved[1]))
        except BaseException as error:  # raised again in the caller's thread
            results.put(error)
        finally:
            results.put(None)  # this thread is done

    threads = [threading.Thread(target=lane_work, args=(lane,), daemon=True,
                                name=f"plyground-book-{lane}") for lane in range(jobs)]
    for thread in threads:
        thread.start()
    running = len(threads)
    try:
        while running:
            try:
                item = results.get(timeout=0.2)  # a ^C is seen between two waits
            except queue.Empty:
                continue
            if item is None:
                running -= 1
            elif isinstance(item, BaseException):
                raise item
            else:
                yield item
    finally:
        halt.set()
        stop()
        for thread in threads:
            thread.join()


def default_jobs() -> int:
    """One thread per core."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else os.cpu_count() or 1)


def build(depth: int, out: Path | str = BOOK_PATH, log=print, solver=None,
          jobs: int | None = None) -> Book:
    """Solve every position with `depth` stones (`jobs` threads, one a core by default,
    sharing the solver's table), derive the shallower scores, write the book to `out`
    and return it. Progress goes to `log`, a line per position; solved positions are
    kept in `out`.partial (see `Progress`), and a rerun resumes there. `solver`: one to
    use instead (its `solve(state)` gives the score; called from `jobs` threads, one
    unless given)."""
    if not 0 <= depth <= MAX_DEPTH:
        raise BookError(f"a book depth must be 0..{MAX_DEPTH}, not {depth}")
    jobs = (1 if solver is not None else default_jobs()) if jobs is None else jobs
    if jobs < 1:
        raise BookError(f"a build needs 1 thread or more, not {jobs}")
    out = Path(out)
    if out.is_dir():
        raise BookError(f"{out} is a folder: name the book file to write")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise BookError(f"cannot write the book to {out}: {error.strerror}") from None
    found = layers(depth)
    progress = Progress(out.with_name(out.name + ".partial"), depth, log)
    todo = sorted(found[depth].values(), key=GAME.format_position)
    left = [state for state in todo if GAME.format_position(state) not in progress.scores]
    if solver is None and left:
        lanes = Lanes(jobs)
        solve, stop = lanes.solve, lanes.stop
    else:
        solve, stop = (lambda state, lane: (solver.solve(state), 0)), (lambda: None)
    log(f"building a depth-{depth} book: {len(todo)} positions with {depth} stones to "
        f"solve, {len(todo) - len(left)} solved already; {jobs} threads")
    started = time.perf_counter()
    try:
        for state, score, took, nodes in solve_all(left, solve, jobs, stop):
            moves = GAME.format_position(state)
            progress.add(moves, score, took)
            log(f"{len(progress.scores)}/{len(todo)} {moves} {score}  {took:.1f} s  "
                f"{nodes:,} nodes  ({progress.seconds:.0f} s of solving, "
                f"{progress.wall + time.perf_counter() - started:.0f} s)")
    finally:
        progress.wall += time.perf_counter() - started
        progress.save()
    if len(progress.scores) < len(todo):  # (the threads stopped without an error)
        raise BookError(f"the build stopped with {len(todo) - len(progress.scores)} "
                        "positions unsolved; run it again to go on")
    scores = {canonical(GAME.parse_position(moves)): score
              for moves, score in progress.scores.items()}
    for layer in reversed(found[:-1]):
        for key, state in layer.items():
            scores[key] = best_score(state, scores)
    entries = {GAME.format_position(state): scores[key]
               for layer in found for key, state in layer.items()}
    write_atomically(out, json.dumps({
        "format": FORMAT, "depth": depth, "positions": len(entries),
        "built": f"`plyground solve connect4 --build-book {depth}`: "
                 f"{progress.wall:.0f} s with {jobs} threads "
                 f"({progress.seconds:.0f} s of solving)",
        "scores": entries}, indent=0) + "\n")
    progress.path.unlink(missing_ok=True)
    log(f"wrote {out}: {len(entries)} positions, {progress.wall:.0f} s "
        f"({progress.seconds:.0f} s of solving)")
    return load(out)


def interrupted(out: Path) -> str:
    """What to say when a build is interrupted."""
    return (f"interrupted: the positions solved are kept in {out}.partial; the same "
            "command goes on from there")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the Connect 4 opening book.")
    parser.add_argument("depth", type=int, help="every position with at most this "
                        "many stones")
    parser.add_argument("--out", type=Path, default=BOOK_PATH,
                        help=f"the book file (default: {BOOK_PATH})")
    parser.add_argument("--jobs", type=int, default=None,
                        help="threads solving at once (default: one a core)")
    args = parser.parse_args(argv)
    try:
        build(args.depth, args.out, log=lambda text: print(text, flush=True),
              jobs=args.jobs)
    except BookError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(interrupted(args.out), file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
