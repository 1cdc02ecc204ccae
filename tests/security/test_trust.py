"""Files are data: a record, lesson or history entry that names an agent from outside
plyground (an engine command, a Python file, a module no installed package declares)
runs nothing by being read, listed, checked, exported or reviewed; it runs only when
the user says so (a prompt, --trust-agents), and a served app's visitor runs only what
the server's user allowed. Each case checks that a marker file the agent would create
is never created."""
from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Button, Input, Select, Static

from plyground.core.study.lesson import check_lesson, within_ceiling
from plyground.core.catalogue import parse_agent
from plyground.core.records.record import load_record
from plyground.core.search.control import Budget
from plyground.core.trust import NeedsTrust, outside_code, untrusted
from plyground.tui.app import ServedLimits
from plyground.tui.screens.game import GameScreen
from plyground.tui.screens.trust import TrustScreen
from tests.tui.helpers import make_app, record_notifications, wait_until

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def marked(tmp_path, monkeypatch):
    """A folder holding `evil.py`, whose import creates `imported`, and the agent specs
    that would create a marker if they ran: (folder, {name: spec})."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "evil.py").write_text(
        "from pathlib import Path\n"
        "Path(__file__).with_name('imported').write_text('ran')\n"
        "from plyground.core.agents.bot import Bot\n"
        "class Bot1(Bot):\n"
        "    def choose(self, state, seconds):\n"
        "        return state.moves()[0]\n")
    (tmp_path / "evilpkg").mkdir()
    (tmp_path / "evilpkg" / "__init__.py").write_text("")
    (tmp_path / "evilpkg" / "bots.py").write_text("from evil import Bot1\n")
    command = shlex.join(["touch", str(tmp_path / "started")])
    specs = {"engine": f'engine:cmd="{command}"', "file": "evil.py:Bot1",
             "module": "evilpkg.bots:Bot1"}
    return tmp_path, specs


def nothing_ran(folder: Path) -> None:
    assert not (folder / "imported").exists(), "the file's code was imported"
    assert not (folder / "started").exists(), "the command was started"


def write_record(folder: Path, first: str, second: str = "human") -> Path:
    path = folder / "game.txt"

    def quoted(spec: str) -> str:
        return spec.replace("\\", "\\\\").replace('"', '\\"')

    path.write_text(f'[Game "connect4"]\n[First "{quoted(first)}"]\n'
                    f'[Second "{quoted(second)}"]\n\n1. 4 4 2. 3\n')
    return path


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "plyground", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


# --- saying what would run, without running it -----------------------------------------


def test_what_an_agent_would_run_is_said_with_its_exact_command_or_path(marked):
    folder, specs = marked
    assert outside_code(specs["engine"]) == f"the command touch {folder / 'started'}"
    assert outside_code(specs["file"]) == f"the Python file {folder / 'evil.py'} (class Bot1)"
    assert outside_code(specs["module"]) == "the Python module evilpkg.bots (class Bot1)"
    for own in ("human", "mcts:time=1", "alphabeta:depth=3,seed=2",
                "tictactoe-perfect"):  # plyground's own, and an installed package's
        assert outside_code(own) is None, own
    nothing_ran(folder)


def test_an_allow_list_lets_exactly_the_agents_it_names_through(marked):
    _, specs = marked
    assert untrusted([specs["engine"], specs["file"]], [specs["file"]]) == [
        (specs["engine"], outside_code(specs["engine"]))]
    assert untrusted(specs.values(), True) == []


@pytest.mark.parametrize("which", ["engine", "file", "module"])
def test_a_record_makes_no_agent_it_is_not_trusted_to(marked, which):
    folder, specs = marked
    record = load_record(write_record(folder, specs[which]))
    with pytest.raises(NeedsTrust, match="--trust-agents allows it"):
        record.match()
    nothing_ran(folder)


def test_reading_listing_exporting_and_reviewing_a_record_runs_nothing(marked):
    folder, specs = marked
    path = write_record(folder, specs["file"], specs["engine"])
    imported = cli("games", "import", str(path), cwd=folder)
    assert imported.returncode == 0, imported.stderr
    number = imported.stdout.split()[-1]
    for args in (("games", "list"), ("games", "show", number),
                 ("games", "export", number), ("review", str(path)),
                 ("review", number)):
        result = cli(*args, cwd=folder)
        assert result.returncode == 0, (args, result.stderr)
    nothing_ran(folder)


# --- the app: a prompt, No by default ----------------------------------------------------


@pytest.mark.parametrize("answer", ["enter", "escape"])
async def test_opening_a_record_asks_first_and_no_plays_those_sides_by_hand(marked,
                                                                          answer):
    folder, specs = marked
    record = load_record(write_record(folder, specs["engine"], specs["file"]))
    app = make_app(record=record)
    seen = record_notifications(app)
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TrustScreen))
        shown = str(app.screen.query_one("#trust-what", Static).render())
        assert f"touch {folder / 'started'}" in shown
        assert str(folder / "evil.py") in shown
        assert app.focused.id == "no"  # Enter, the default, says no
        await pilot.press(answer)
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert app.game_screen.match.sides == ("human", "human")
        assert len(app.game_screen.match.moves) == 3  # the game, nothing lost
        assert any("Not run" in message for message in seen)
    nothing_ran(folder)


async def test_yes_runs_the_agent_the_record_names(marked):
    folder, specs = marked
    record = load_record(write_record(folder, specs["file"]))
    app = make_app(record=record)
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TrustScreen))
        app.screen.query_one("#yes", Button).press()
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert app.game_screen.match.sides[0] == specs["file"]
    assert (folder / "imported").exists()


async def test_trust_agents_opens_the_record_without_asking(marked):
    folder, specs = marked
    record = load_record(write_record(folder, specs["file"]))
    app = make_app(record=record, trust_agents=True)
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert app.game_screen.match.sides[0] == specs["file"]


async def test_a_served_app_never_asks_its_visitor_and_runs_only_what_was_allowed(
        marked):
    folder, specs = marked
    record = load_record(write_record(folder, specs["engine"], specs["file"]))
    app = make_app(record=record, served=ServedLimits(allowed_agents=(specs["file"],)))
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert app.game_screen.match.sides == ("human", specs["file"])
    assert not (folder / "started").exists()


@pytest.mark.parametrize("allowed", [(), ("engine",)])
async def test_a_visitor_cannot_type_an_agent_the_server_did_not_allow(marked, allowed):
    folder, specs = marked
    app = make_app(None, served=ServedLimits(
        allowed_agents=tuple(specs[name] for name in allowed)))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.query_one("#player-1", Select).value = "other"
        await pilot.pause()
        screen.query_one("#setting-1", Input).value = specs["engine"]
        await pilot.pause()
        screen.query_one("#start", Button).press()
        await pilot.pause()
        if allowed:  # the server's user named it: the game starts with it
            await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
            return
        error = str(screen.query_one("#setup-error", Static).render())
        assert "only the server's `plyground serve --allow-agent` allows it" in error
        assert not isinstance(app.screen, GameScreen)
    nothing_ran(folder)


# --- lessons -----------------------------------------------------------------------------


def lesson_naming(folder: Path, specs: dict[str, str]) -> Path:
    path = folder / "lesson.toml"
    path.write_text('title = "t"\n'
                    f'[[scene]]\ngame = "connect4"\nsides = ["{specs["file"]}", "human"]\n'
                    f'[[scene]]\ngame = "connect4"\nsides = ["human", "{specs["module"]}"]\n'
                    '[[scene]]\ngame = "connect4"\n[[scene.step]]\n'
                    f"search = '{specs['engine']}'\n")
    return path


def test_lesson_check_reports_each_agent_that_needs_trust_and_imports_nothing(marked):
    folder, specs = marked
    path = lesson_naming(folder, specs)
    _, faults = check_lesson(path)
    assert [fault.line for fault in faults] == [4, 7, 10]  # the sides lines, the step's header
    assert all("from outside plyground" in fault.problem and "Nothing was run"
               in fault.problem for fault in faults)
    result = cli("lesson", "check", str(path), cwd=folder)
    assert result.returncode == 1
    assert result.stdout.count("--trust-agents allows it") == 3
    nothing_ran(folder)


@pytest.mark.parametrize("command", [("run",), ("export", "--svg", "slides")])
def test_lesson_run_and_export_refuse_in_one_line(marked, command):
    folder, specs = marked
    path = lesson_naming(folder, specs)
    result = cli("lesson", command[0], str(path), *command[1:], cwd=folder)
    assert result.returncode == 2
    error = [line for line in result.stderr.splitlines() if line.startswith("error")]
    assert len(error) == 1 and "--trust-agents allows it" in error[0]
    assert "Traceback" not in result.stderr
    assert not (folder / "slides").exists()
    nothing_ran(folder)


def test_lesson_check_with_trust_agents_runs_them(marked):
    folder, specs = marked
    result = cli("lesson", "check", "--trust-agents", str(lesson_naming(folder, specs)),
                 cwd=folder)
    assert "allows it" not in result.stdout
    assert (folder / "imported").exists()


def test_a_lesson_search_stops_at_the_step_modes_ceiling_and_says_so(tmp_path):
    """Minimax to depth 9 from tic-tac-toe's start searches 549,946 nodes: the ceiling
    stops it at the nodes its recording holds, and one line says so."""
    path = tmp_path / "big.toml"
    path.write_text('title = "t"\n[[scene]]\ngame = "tictactoe"\n'
                    'sides = ["minimax:depth=9", "human"]\n[[scene.step]]\nsearch = true\n')
    result = cli("lesson", "check", str(path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    budget, unit, ceiling = within_ceiling(parse_agent("minimax:depth=9"), Budget(depth=9))
    assert (unit, budget.nodes) == ("nodes", ceiling)
    notes = [line for line in result.stdout.splitlines() if "note:" in line]
    assert notes == [f"{path}:5: scene 1: note: minimax:depth=9 stopped at "
                     f"{ceiling:,} nodes, the ceiling of a lesson's search (as of the "
                     "app's step mode)"]


def test_the_ceiling_caps_mcts_iterations_and_keeps_a_smaller_budget():
    mcts = parse_agent("mcts:iterations=10000000")
    budget, unit, ceiling = within_ceiling(mcts, mcts.budget())
    assert (unit, budget.iterations) == ("iterations", ceiling) and ceiling < 10_000_000
    small = parse_agent("mcts:iterations=200")
    assert within_ceiling(small, small.budget())[0].iterations == 200


def test_an_allowed_agent_covers_the_same_code_at_other_settings(marked):
    _, specs = marked
    assert untrusted([specs["file"] + ":time=2"], [specs["file"]]) == []
    assert untrusted(["./evil.py:Bot1"], [specs["file"]]) == []  # the same file
    assert untrusted([specs["file"]], ["other.py:Bot1"]) != []


def test_serve_refuses_a_lesson_whose_outside_agents_it_was_not_given(marked):
    folder, specs = marked
    path = lesson_naming(folder, specs)
    result = cli("serve", "--lesson", str(path), "--allow-agent", specs["file"],
                 "--port", "1", cwd=folder)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"error: --lesson {path} names agents from outside plyground ({specs['module']}, "
        f"{specs['engine']}): give each with --allow-agent to serve it (nothing of them "
        "was run)"]
    assert not (folder / "started").exists()
