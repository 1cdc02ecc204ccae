"""Every game's kernels compile ahead of the first game (`make play`'s set-up runs
core/fast/precompile.py), into numba's cache, which every later process reads; and a
search whose kernels another process is still compiling waits for it before its
agent's clock starts."""
from __future__ import annotations

import fcntl
import json
import os
import queue
import subprocess
import sys
import time

from plyground.core import get_game
from plyground.core.fast import cache, precompile
from plyground.core.game import game_entries
from plyground.core.play.worker import Engine, EngineDone, EngineFailed, EngineStarted, \
    SearchRequest
from tests.core.test_kernel_cache import ROOT, dispatchers

QUARTO = ["plyground.core.fast.quarto", "plyground.core.fast.quarto_mcts"]


def test_the_precompile_step_covers_every_games_kernels_and_the_solvers():
    targets = precompile.targets()
    games = [entry.id for entry in game_entries() if entry.kernels.modules()]
    assert [target.id for target in targets] == games + [precompile.PERFECT]
    assert {"connect4", "boom", "cephalopod", "quarto"} <= set(games)
    covered = {id(kernel) for target in targets for kernel in target.kernels()}
    left_out = sorted(name for name, kernel in dispatchers().items()
                      if id(kernel) not in covered)
    assert left_out == []  # every kernel of core/fast belongs to some target


def run(code: str, **environment) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=900, env={**os.environ, **environment})
    assert done.returncode == 0, done.stderr
    return done.stdout


MISSING = ("import json; from plyground.core.fast.precompile import missing; "
           "print(json.dumps([target.id for target in missing()]))")


def test_an_empty_cache_lacks_every_target_and_precompile_leaves_none_missing(tmp_path):
    everything = [target.id for target in precompile.targets()]
    empty = json.loads(run(MISSING, NUMBA_CACHE_DIR=str(tmp_path)))
    assert empty == everything  # (checking compiles nothing)
    # numba's own cache for this install (beside the sources): a second run, or the
    # first after a kernel changed, compiles only what is missing
    lines = run("from plyground.core.fast.precompile import main; main(['--lines'])")
    lines = lines.splitlines()
    assert lines[0].startswith("missing") and lines[-1] == "done"
    for target in lines[0].split()[1:]:
        assert f"compiling {target}" in lines
        assert any(line.startswith(f"ready {target} ") for line in lines)
    assert json.loads(run(MISSING)) == []


def test_a_search_waits_for_a_compile_in_another_process_before_its_clock_starts():
    """Another process (the app's first start, `make play`'s set-up) holds the lock a
    compile of Quarto's kernels holds: a new engine's first Quarto search starts its
    clock only once that compile has ended."""
    game = get_game("quarto")
    updates = queue.Queue()
    path = cache.lock_path("quarto", QUARTO)
    path.parent.mkdir(parents=True, exist_ok=True)
    def arrived(update) -> None:
        updates.put((time.monotonic(), update))

    with open(path, "a") as lock, Engine(arrived) as engine:
        fcntl.flock(lock, fcntl.LOCK_EX)  # as a compile in progress holds it
        engine.submit(SearchRequest("quarto", game.format_position(game.start()),
                                    "alphabeta:time=0.2"))
        time.sleep(4)  # longer than a new engine takes to reach its clock
        released = time.monotonic()
        fcntl.flock(lock, fcntl.LOCK_UN)
        seen = []
        while not seen or not isinstance(seen[-1][1], (EngineDone, EngineFailed)):
            seen.append(updates.get(timeout=300))
    kinds = [type(update) for _, update in seen]
    assert EngineStarted in kinds and kinds[-1] is EngineDone, seen
    started = next(when for when, update in seen if isinstance(update, EngineStarted))
    assert started > released


def test_precompile_says_each_game_as_it_compiles_and_goes_on_past_a_failure(
        monkeypatch, capsys):
    compiled = []

    def broken():
        raise RuntimeError("numba could not\ncompile it")

    fakes = [precompile.Target("a", "Game A", (), lambda: compiled.append("a")),
             precompile.Target("b", "Game B", (), broken),
             precompile.Target("c", "Game C", (), lambda: compiled.append("c"))]
    monkeypatch.setattr(precompile, "targets", lambda: fakes)
    monkeypatch.setattr(precompile, "missing", lambda among=None: list(among or fakes))
    assert precompile.main([]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("plyground: compiling the game engines once (about 18 s)")
    assert out[1].split()[:2] == ["Game", "A"] and out[1].endswith(" s")
    assert out[2].split()[2:] == ["failed:", "numba", "could", "not", "compile", "it"]
    assert out[3].split()[:2] == ["Game", "C"] and out[-1].startswith("  done in")
    assert compiled == ["a", "c"]
    assert precompile.main(["--lines", "--first", "c"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "missing c a b", "compiling c", "ready c 0.0", "compiling a", "ready a 0.0",
        "compiling b", "failed b numba could not compile it", "done"]
