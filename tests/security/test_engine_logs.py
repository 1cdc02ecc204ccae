"""The engine logs folder has a total cap (PLYGROUND_LOG_CAP megabytes, 200 unless
set): when an engine's log is opened, the oldest logs go until the rest and room for
the new one fit, so that a long match of engines that flood their logs fills no disk."""
from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest

from plyground.core import get_game
from plyground.core.agents.logs import folder_cap
from plyground.core.catalogue import make_agent

FAKES = Path(__file__).resolve().parents[2] / "tests" / "fakes"
C4 = get_game("connect4")
MB = 10**6


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path))
    return tmp_path


def old_logs(folder: Path, sizes: list[int]) -> list[Path]:
    """Logs of these sizes (holes: no disk taken), oldest first."""
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for age, size in enumerate(sizes):
        path = folder / f"old-{age}.log"
        with open(path, "wb") as file:
            file.truncate(size)
        os.utime(path, (1_000_000 + age, 1_000_000 + age))
        made.append(path)
    return made


def play_good_engine() -> None:
    command = shlex.join([sys.executable, str(FAKES / "engine_good.py")])
    assert make_agent("engine", cmd=command).decide(C4.start()).best_move == 3


def test_opening_a_log_removes_the_oldest_until_the_folder_fits_its_cap(home,
                                                                        monkeypatch):
    monkeypatch.setenv("PLYGROUND_LOG_CAP", "25")
    other = home / "logs" / "notes.txt"  # not a log: never removed
    logs = old_logs(home / "logs", [6 * MB] * 4)
    other.write_text("mine")
    play_good_engine()
    # 24 MB and a new log's 10 MB do not fit in 25: the two oldest go, 12 + 10 fit
    assert [path.exists() for path in logs] == [False, False, True, True]
    assert other.exists()
    [new] = (home / "logs").glob("engine_good-*.log")
    assert sum(path.stat().st_size for path in (home / "logs").iterdir()) <= 25 * MB


def test_the_cap_is_200_mb_unless_set(home, monkeypatch):
    monkeypatch.delenv("PLYGROUND_LOG_CAP", raising=False)
    assert folder_cap() == 200 * MB
    logs = old_logs(home / "logs", [50 * MB] * 4)
    play_good_engine()
    # 200 MB and room for 10 more: only the oldest goes
    assert [path.exists() for path in logs] == [False, True, True, True]


def test_a_cap_below_one_log_caps_each_log_too(home, monkeypatch):
    monkeypatch.setenv("PLYGROUND_LOG_CAP", "0.001")  # 1,000 bytes
    command = shlex.join([sys.executable, str(FAKES / "engine_flood.py")])
    assert make_agent("engine", cmd=command).decide(C4.start()).best_move == 3
    [log] = (home / "logs").glob("engine_flood-*.log")
    assert log.stat().st_size < 2_000
    assert "# the log is cut here, at its cap of 0.001 MB" in log.read_text()
