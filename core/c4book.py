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

Build it with the project's solver (one thread; the deepest layer is solved, the
shallower ones follow by negamax):

    python -m plyground.core.c4book 2 [--out FILE]
    plyground solve connect4 --build-book 2 [--out FILE]

The build keeps each solved position in FILE.partial as it goes and resumes from it.
The shipped book has depth 2 (30 entries: the empty board, every first move, every
reply), built in 2432 s of solving on one thread of a loaded 2-core machine.
"""
from __future__ import annotations

import json
import sys
import time
import warnings
from pathlib import Path

from .game import PlygroundError
from .games.connect4 import BOARD, GAME

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


def build(depth: int, out: Path | str = BOOK_PATH, log=print, solver=None) -> Book:
    """Solve every position with `depth` stones (one thread), derive the shallower
    scores, write the book to `out` and return it. Progress goes to `log`, a line per
    position; solved positions are kept in `out`.partial, and a rerun resumes there.
    `solver`: one to use (default: a new one without a book)."""
    if not 0 <= depth <= MAX_DEPTH:
        raise BookError(f"a book depth must be 0..{MAX_DEPTH}, not {depth}")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    found = layers(depth)
    done: dict[str, int] = {}
    seconds = 0.0
    if partial.exists():
        try:
            saved = json.loads(partial.read_text())
            if saved.get("depth") == depth:
                seconds = float(saved["scores"].pop("__seconds__", 0.0))
                done = {k: int(v) for k, v in saved["scores"].items()}
                log(f"resuming from {partial}: {len(done)} positions already solved")
        except (OSError, ValueError, KeyError, AttributeError, TypeError):
            log(f"ignoring unreadable {partial}")
    if solver is None:
        from .fast.c4solver import Solver

        solver = Solver(book=False)
    deepest: dict[int, int] = {}
    todo = sorted(found[depth].values(), key=GAME.format_position)
    log(f"building a depth-{depth} book: {len(todo)} positions to solve")
    for number, state in enumerate(todo, start=1):
        moves = GAME.format_position(state)
        if moves in done:
            deepest[canonical(state)] = done[moves]
            continue
        started, nodes = time.perf_counter(), solver.nodes
        score = solver.solve(state)
        took = time.perf_counter() - started
        seconds += took
        deepest[canonical(state)] = done[moves] = score
        log(f"{number}/{len(todo)} {moves} {score}  {took:.1f} s  "
            f"{solver.nodes - nodes:,} nodes  (total {seconds:.0f} s)")
        partial.write_text(json.dumps({"depth": depth, "scores": {
            **done, "__seconds__": seconds}}))
    scores = dict(deepest)
    for layer in reversed(found[:-1]):
        for key, state in layer.items():
            scores[key] = best_score(state, scores)
    entries = {GAME.format_position(state): scores[key]
               for layer in found for key, state in layer.items()}
    out.write_text(json.dumps({
        "format": FORMAT, "depth": depth, "positions": len(entries),
        "built": f"`python -m plyground.core.c4book {depth}`: {seconds:.0f} s of "
                 "solving on one thread",
        "scores": entries}, indent=0) + "\n")
    partial.unlink(missing_ok=True)
    log(f"wrote {out}: {len(entries)} positions, {seconds:.0f} s of solving")
    return load(out)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="Build the Connect 4 opening book.")
    parser.add_argument("depth", type=int, help="every position with at most this "
                        "many stones")
    parser.add_argument("--out", type=Path, default=BOOK_PATH,
                        help=f"the book file (default: {BOOK_PATH})")
    args = parser.parse_args(argv)
    try:
        build(args.depth, args.out, log=lambda text: print(text, flush=True))
    except BookError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
