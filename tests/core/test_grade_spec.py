"""The grading spec (core/grade/spec.py): a good spec reads, and each kind of fault is
one `FILE:LINE: ...` line, found without importing or starting any agent it names."""
from __future__ import annotations

from pathlib import Path

import pytest

from plyground.core.errors import PlygroundError
from plyground.core.grade.public import public_text
from plyground.core.grade.spec import load_spec, read_spec
from plyground.core.paths import parse_toml

POSITIONS = """# game: connect4
# labeller: test
44 | 4 | 4=1 3=0
"""

GOOD = '''title = "Minimax to depth 3"
game = "connect4"
time = 1.0
mem = "512M"
agent = "bot.py:MyBot"

# legal moves only
[[check]]
name = "legal"
kind = "legal"
points = 20
public = true
games = 4
against = ["random", "greedy"]
openings = "balanced"

# secret positions
[[check]]
name = "positions"
kind = "positions"
points = 20
file = "positions.txt"

[[check]]
name = "nodes"
kind = "nodes"
points = 30
public = true
file = "nodes.txt"
depth = 3
reference = "minimax:depth=3"

[[check]]
name = "strength"
kind = "strength"
points = 20
against = ["greedy"]
games = 10
bands = [[0.25, 10], [0.5, 20]]

[[check]]
name = "ladder"
kind = "ladder"
points = 10
format = "swiss"
'''


def write(folder: Path, text: str) -> Path:
    (folder / "positions.txt").write_text(POSITIONS)
    (folder / "nodes.txt").write_text(POSITIONS)
    path = folder / "spec.toml"
    path.write_text(text)
    return path


def faults_of(folder: Path, text: str) -> list[str]:
    _, faults = read_spec(write(folder, text))
    return [str(fault) for fault in faults]


def line_of(text: str, needle: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1)
                if needle in line)


def test_a_good_spec_reads(tmp_path):
    spec = load_spec(write(tmp_path, GOOD))
    assert spec.game.id == "connect4" and spec.time == 1.0 and spec.mem == 512 * 2**20
    assert spec.agent == "bot.py:MyBot" and spec.engine is None
    assert [check.kind for check in spec.checks] == [
        "legal", "positions", "nodes", "strength", "ladder"]
    assert spec.points == 100 and [check.name for check in spec.public] == [
        "legal", "nodes"]
    assert spec.checks[1].fields["file"] == tmp_path / "positions.txt"
    assert spec.checks[2].fields["order"] == "generated"
    assert spec.checks[3].fields["bands"] == [(0.25, 10), (0.5, 20)]


@pytest.mark.parametrize("old, new, needle, words", [
    ('game = "connect4"', 'game = "chess"', "game =", "game: "),
    ('kind = "ladder"', 'kind = "quiz"', 'kind = "quiz"', "kind is one of legal"),
    ("points = 30", "points = -3", "points = -3", "-3 is not a number from 0"),
    ("depth = 3", "depth = 3\nwidth = 2", "width = 2", "unknown key 'width'"),
    ('file = "positions.txt"', 'file = "../positions.txt"', "../positions.txt",
     "not a file in the spec's folder"),
    ('file = "positions.txt"', 'file = "/etc/passwd"', "/etc/passwd",
     "not a file in the spec's folder"),
    ('reference = "minimax:depth=3"', 'reference = "engine:cmd=./bot"',
     "engine:cmd=./bot", "an agent from outside plyground"),
    ('reference = "minimax:depth=3"', 'reference = "mine.py:Bot"', "mine.py:Bot",
     "an agent from outside plyground"),
    ('against = ["greedy"]', 'against = ["greedy", "evil.module:Bot"]',
     "evil.module:Bot", "an agent from outside plyground"),
    ("games = 4", "games = 1_000_000_000", "games = 1_000", "is not a whole number"),
    ("time = 1.0", "time = 1e308", "time = 1e308", "is not a number from 0.001"),
    ("time = 1.0", "time = nan", "time = nan", "is not a number from 0.001"),
    ('mem = "512M"', 'mem = "9000T"', 'mem = "9000T"', "more than this machine"),
    ("depth = 3", "depth = 65", "depth = 65", "depth 65 is not a whole number"),
    ("public = true\ngames", 'public = "yes"\ngames', 'public = "yes"',
     "public is true or false"),
    ("bands = [[0.25, 10], [0.5, 20]]", "bands = [[0.5, 10], [0.25, 20]]", "bands =",
     "scores rising"),
    ("games = 10\n", 'sprt = {elo0 = 0, elo1 = 50}\n', "bands =",
     "give games with bands"),
    ('openings = "balanced"', 'openings = "nosuch"', 'openings = "nosuch"',
     "not one of Connect 4's suites"),
    ('agent = "bot.py:MyBot"', 'agent = "../bot.py:MyBot"', "agent =",
     "relative to each student's folder"),
    ('agent = "bot.py:MyBot"', 'engine = "./run.sh"\nagent = "bot.py:MyBot"', "engine =",
     "one of them"),
    ('reference = "minimax:depth=3"', 'reference = "greedy"', 'reference = "greedy"',
     "not a search to a fixed depth"),
])
def test_each_fault_is_one_line_at_its_key(tmp_path, old, new, needle, words):
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    faults = faults_of(tmp_path, text)
    assert len(faults) == 1, faults
    where = f"{tmp_path / 'spec.toml'}:{line_of(text, needle)}: "
    assert faults[0].startswith(where) and words in faults[0], faults
    assert "\n" not in faults[0]


def test_a_missing_field_is_a_fault_at_its_checks_header(tmp_path):
    text = GOOD.replace('format = "swiss"\n', "")
    faults = faults_of(tmp_path, text)
    header = line_of(text, 'name = "ladder"') - 1
    assert faults == [f"{tmp_path / 'spec.toml'}:{header}: check 'ladder': format is "
                      "missing"]


def test_a_missing_file_is_a_fault(tmp_path):
    path = write(tmp_path, GOOD)
    (tmp_path / "nodes.txt").unlink()
    faults = [str(fault) for fault in read_spec(path)[1]]
    assert faults == [f"{path}:{line_of(GOOD, 'nodes.txt')}: check 'nodes': file "
                      "'nodes.txt': there is no such file"]


def test_a_bad_positions_file_is_a_fault(tmp_path):
    path = write(tmp_path, GOOD)
    (tmp_path / "positions.txt").write_text("# game: connect4\n# labeller: x\n44 | 9 |\n")
    faults = [str(fault) for fault in read_spec(path)[1]]
    assert len(faults) == 1 and "positions.txt:3:" in faults[0], faults


def test_not_toml_gives_its_line(tmp_path):
    faults = faults_of(tmp_path, GOOD.replace("points = 20\n", "points = = 20\n", 1))
    assert len(faults) == 1 and faults[0].startswith(
        f"{tmp_path / 'spec.toml'}:{line_of(GOOD, 'points = 20')}: not TOML"), faults


def test_toml_nested_too_deep_and_a_file_too_large_are_faults(tmp_path):
    deep = GOOD.replace("games = 4", "games = " + "[" * 101 + "]" * 101, 1)
    faults = faults_of(tmp_path, deep)
    assert len(faults) == 1 and f":{line_of(deep, 'games = [[')}: not TOML: " \
        "arrays and tables nested more than 100 deep" in faults[0], faults
    (tmp_path / "big.toml").write_bytes(b"#" * (16 * 2**20 + 1))
    faults = [str(fault) for fault in read_spec(tmp_path / "big.toml")[1]]
    assert len(faults) == 1 and "over the 16 MB" in faults[0], faults


def test_nothing_named_is_run_while_checking(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    marker = tmp_path / "X"
    (tmp_path / "evil.py").write_text(f"open({str(marker)!r}, 'w').close()\n"
                                      "class Bot: pass\n")
    text = GOOD.replace('reference = "minimax:depth=3"',
                        f'reference = \'engine:cmd="touch {marker}"\'').replace(
        'against = ["greedy"]', 'against = ["evil.py:Bot"]')
    faults = faults_of(tmp_path, text)
    assert not marker.exists()  # (evil.py not imported, the command not started)
    assert len(faults) == 2 and all("from outside plyground" in f for f in faults)


def test_the_public_part_keeps_exactly_the_public_checks(tmp_path):
    spec = load_spec(write(tmp_path, GOOD))
    text = public_text(spec)
    assert [check["name"] for check in parse_toml(text)["check"]] == ["legal", "nodes"]
    assert "# legal moves only" in text and "# secret positions" not in text
    assert "positions.txt" not in text and "bands" not in text
    (tmp_path / "public.toml").write_text(text)
    assert [check.name for check in load_spec(tmp_path / "public.toml").checks] == [
        "legal", "nodes"]


def test_a_spec_with_no_public_check_has_nothing_to_hand_out(tmp_path):
    spec = load_spec(write(tmp_path, GOOD.replace("public = true", "public = false")))
    with pytest.raises(PlygroundError, match="no public checks"):
        public_text(spec)


def test_the_example_class_spec_reads_but_for_its_files():
    path = Path(__file__).parents[2] / "examples" / "class" / "minimax.toml"
    _, faults = read_spec(path)
    # its positions and nodes files are the only things it may lack
    assert all("no such file" in str(fault) for fault in faults), faults
    assert len(faults) <= 2
