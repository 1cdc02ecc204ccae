"""One wording of a decision (tui/verdict.py's decision_words), the app's: the CLI calls
a proven MCTS result proven, with its distance, and az's value is a "mean network value"
in demo, analyze and step mode's replay check alike."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from plyground.core.catalogue import parse_agent
from plyground.core.game import get_game
from plyground.core.search.events import SearchDone
from plyground.core.values import Scale
from plyground.tui.search_driver import SearchRecord, check_replay
from plyground.tui.verdict import decision_words

ROOT = Path(__file__).resolve().parents[2]
# the seed-1 game of `demo connect4 --x mcts --o mcts`, up to the 26th ply
BEFORE_THE_PROOFS = "45444554551343376761711771"


def plyground(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "plyground", *args],
                          cwd=ROOT, env={**os.environ}, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_demo_calls_a_proven_mcts_result_proven_with_its_distance():
    text = plyground("demo", "connect4", "--x", "mcts", "--o", "mcts", "--seed", "1")
    lines = [" ".join(line.split()) for line in text.splitlines()]
    assert "27. X plays 1 MCTS (5500 iterations): proven win in ≤3 · 960 iterations" \
        in lines, text
    assert "30. O plays 2 MCTS (5500 iterations): proven loss in 1 · 12 iterations" \
        in lines, text
    assert "1. X plays 4 MCTS (5500 iterations): mean result 55.2% · 5,500 iterations" \
        in lines, text
    assert "100.0% mean result" not in text and "value 0.0%" not in text


def test_the_cli_words_the_same_as_decision_words():
    game = get_game("connect4")
    state = game.start()
    for move in "4544":
        state = state.play(game.parse_move(move, state))
    heuristic = SearchDone(3, 35, (3,), 8120, 0.5, depth=7)
    assert decision_words(game, state, heuristic) == \
        "heuristic score +35 · depth 7 · 8,120 nodes"
    mcts = SearchDone(3, 1.0, (3,), 960, 0.5, note="proven: win in ≤3", scale=Scale.MEAN)
    assert decision_words(game, state, mcts) == "proven win in ≤3 · 960 iterations"


def test_az_value_is_a_mean_network_value_in_demo_analyze_and_step_mode():
    az = "az:sims=20,seed=1"
    demo = plyground("demo", "connect4", "--position", BEFORE_THE_PROOFS, "--x", az, "--o", az)
    analyze = plyground("analyze", "connect4", BEFORE_THE_PROOFS, "--agent", az)
    for text in (demo, analyze):
        assert "mean network value" in text, text
        assert "mean result" not in text, text
    game = get_game("connect4")
    state = game.start()
    done = SearchDone(3, 0.61, (3,), 20, 0.1, scale=Scale.MEAN, unit="simulations")
    replay = SearchRecord("trace", state, 0, parse_agent(az), 1, result=done,
                          expected=(3, 0.61, 20), expected_of="the decision")
    check = check_replay(replay, game).text
    assert check == "✓ matches the decision: move 4, mean network value 61.0%, " \
                    "20 simulations", check


def test_analyze_calls_a_proven_mcts_result_proven_too():
    text = plyground("analyze", "connect4", BEFORE_THE_PROOFS, "--agent", "mcts:seed=1")
    assert "proven win in ≤3 over " in text, text
    assert "not a win probability nor a proof" not in text, text
