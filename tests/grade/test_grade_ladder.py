"""A class ladder played as a Swiss: the rounds asked for, no pair met twice, one
student sitting out each round of an odd class, and grades that follow from the
games (a student's points are the check's times its share of its ladder points)."""
from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

PLYGROUND = str(Path(sys.executable).with_name("plyground"))
WAIT = 300  # seconds: a hang guard on a loaded machine, never a speed claim

BOT = '''from plyground.core.agents.bot import Bot


class MyBot(Bot):
    def decide(self, state, budget):
        moves = state.moves()
        return moves[{pick} % len(moves)]
'''

SPEC = '''game = "connect4"
time = 1.0
mem = "512M"
agent = "bot.py:MyBot"

[[check]]
name = "legal"
kind = "legal"
points = 1
games = 2
against = ["random"]

[[check]]
name = "ladder"
kind = "ladder"
points = 10
format = "swiss"
games = 3
'''
STUDENTS = {"ann": 0, "ben": 3, "cat": 6, "dan": 2, "eve": 4}


@pytest.fixture(scope="module")
def ladder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("swiss")
    (folder / "spec.toml").write_text(SPEC)
    for name, pick in STUDENTS.items():
        (folder / "subs" / name).mkdir(parents=True)
        (folder / "subs" / name / "bot.py").write_text(BOT.format(pick=pick))
    result = subprocess.run([PLYGROUND, "grade", "run", str(folder / "spec.toml"),
                             str(folder / "subs"), "--out", str(folder / "out"),
                             "--jobs", "2"], capture_output=True, text=True, timeout=WAIT)
    assert result.returncode == 0, result.stderr
    grades = json.loads((folder / "out" / "grades.json").read_text())
    return {entry["student"]: entry["checks"][1] for entry in grades["evidence"]}


def test_a_swiss_plays_its_rounds_without_repeats(ladder):
    games = Counter()
    for student, check in ladder.items():
        for game in check["games"]:
            games[frozenset((student, game["opponent"]))] += 1
    assert all(count == 2 for count in games.values())  # each game seen from both sides
    assert len(games) == 3 * (len(STUDENTS) // 2)  # 3 rounds of 2 games, no repeat
    played = Counter({student: len(check["games"]) for student, check in ladder.items()})
    assert sum(played.values()) == 2 * len(games)
    # a round's bye goes to one who has had none: three students sit out once each
    assert Counter(played.values()) == {2: 3, 3: 2}


def test_ladder_points_are_the_share_of_ladder_points(ladder):
    for student, check in ladder.items():
        scored = sum({"win": 1, "draw": 0.5}.get(game["result"], 0)
                     for game in check["games"])
        assert check["points"] == round(10 * scored / len(check["games"]), 2)
        assert check["ladder"]["games"] == len(check["games"])
        assert check["ladder"]["points"] == scored

