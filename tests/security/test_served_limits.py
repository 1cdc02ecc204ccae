"""What a visitor of `plyground serve` may play: an allowed agent from outside plyground
only as the server's user wrote it (its time and seed may change), no search over the
served ceilings, every search the served app runs held to them, and a setting that
names a file naming only a file the server offers, refused in the same words whatever
the path is. Each is checked where the app checks a visitor's choice
(`PlygroundApp.check_choice`), and once through the setup screen."""
from __future__ import annotations

import shlex
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from textual.widgets import Button, Input, Select, Static

from plyground.core import PlygroundError, get_game
from plyground.core.catalogue import parse_agent
from plyground.tui.app import ServedLimits
from plyground.tui.screens.game import GameScreen
from plyground.tui.screens.setup import OTHER, agent_choices, main_setting, spec_for
from tests.tui.helpers import make_app, wait_until

ENGINE = 'engine:cmd="./carol --fast"'


def served_app(*allowed: str, save_dir: Path | None = None, **limits):
    return make_app(None, served=ServedLimits(allowed_agents=allowed, save_dir=save_dir,
                                              **limits))


def refusal(app, spec: str) -> str:
    """The one line the app refuses `spec` with (the test fails if it is let through)."""
    with pytest.raises(PlygroundError) as caught:
        app.check_choice(spec)
    message = str(caught.value)
    assert "\n" not in message
    return message


# --- an allowed agent from outside, exactly as written ----------------------------------


@pytest.mark.parametrize("changed, says", [
    ("mem=1T", "mem"), ("mem=64M", "mem changed"),
    ("options=/some/path", "options changed"), ('options="hash=64"', "options changed"),
    ("depth=50", "depth changed"), ("time=1000000", "time"),
    ("time=1000", "ceiling of 10 s a move (--max-time)")])
def test_a_visitor_changes_nothing_of_an_allowed_engine_but_its_time(changed, says):
    app = served_app(ENGINE)
    app.check_choice(ENGINE)  # as written: allowed
    app.check_choice(f"{ENGINE},time=5")  # its time, under the ceiling
    assert says in refusal(app, f"{ENGINE},{changed}")


def test_two_ways_of_writing_the_same_memory_are_the_same_engine():
    app = served_app(f"{ENGINE},mem=2G")
    app.check_choice(f"{ENGINE},mem=2048M")
    assert "mem changed" in refusal(app, f"{ENGINE},mem=4G")


def test_a_bot_file_is_played_with_its_own_settings_as_allowed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bot.py").write_text(
        "from pathlib import Path\n"
        "Path(__file__).with_name('imported').write_text('ran')\n"
        "from plyground.core.agents.bot import Bot as Base\n"
        "class Bot(Base):\n"
        "    settings = {'depth': 2}\n"
        "    def decide(self, state, budget):\n"
        "        return state.moves()[0]\n")
    app = served_app("bot.py:Bot:depth=2")
    assert "depth changed" in refusal(app, "bot.py:Bot:depth=9")
    assert not (tmp_path / "imported").exists()  # refused before it was imported
    app.check_choice("bot.py:Bot:depth=2,time=3")


# --- the ceilings of a visitor's searches ---------------------------------------------


@pytest.mark.parametrize("spec, says", [
    ("mcts:iterations=10000000",
     "ceiling of 50,000 iterations a move (--max-iterations)"),
    ("mcts:time=1000", "ceiling of 10 s a move (--max-time)"),
    ("alphabeta:nodes=1000000", "ceiling of 100,000 nodes a move (--max-nodes)"),
    ("alphabeta:time=11", "ceiling of 10 s a move (--max-time)"),
    ("minimax:time=60", "ceiling of 10 s a move (--max-time)"),
    ("az:sims=100000", "ceiling of 50,000 simulations a move (--max-sims)")])
def test_a_search_over_a_served_ceiling_is_refused_naming_it(spec, says):
    assert says in refusal(served_app(), spec)


def test_every_agent_the_menus_offer_fits_the_default_ceilings():
    app = served_app()
    offered = []
    for _, choice in agent_choices():
        if choice in ("human", OTHER):
            continue
        setting = main_setting(choice)
        default = None if setting is None else setting.default
        value = "" if default is None else setting.text(default)
        offered.append(spec_for(choice, value))
    for spec in offered:
        app.check_choice(spec)
    assert {"mcts:iterations=5500", "az:sims=800", "alphabeta", "greedy"} <= set(offered)
    assert any(spec.startswith("minimax:depth=") for spec in offered)
    assert "ceiling" in refusal(app, "mcts:iterations=50001")


def test_the_server_may_raise_a_ceiling():
    from plyground.core.agents.ceilings import Ceilings

    raised = served_app(ceilings=Ceilings(time=60, iterations=200_000))
    raised.check_choice("mcts:iterations=150000")
    raised.check_choice("mcts:time=30")
    assert "200,000 iterations" in refusal(raised, "mcts:iterations=200001")


@pytest.mark.parametrize("spec", ["minimax:depth=5", "alphabeta:depth=9"])
def test_a_served_search_bounded_by_depth_alone_stops_at_the_node_ceiling(
        spec, monkeypatch):
    """`minimax:depth=12` asks for no number of nodes, so it is not refused; the
    served app's processes run every search held to the ceilings, given to them in
    the environment. (These depths take some 20,000 and 30,000 nodes unheld.)"""
    monkeypatch.setenv("PLYGROUND_SERVED_CEILINGS",
                       "time=10,nodes=3000,iterations=50000,sims=50000")
    done = parse_agent(spec).decide(get_game("connect4").start())
    assert done.work <= 3000 and done.stopped


def test_a_served_timed_search_runs_under_the_time_ceiling(monkeypatch):
    """The budget the search runs under, whoever made its control (the app's search
    process makes its own): stopped at once here, so that nothing waits on a clock."""
    from plyground.core.search.control import SearchControl, StopFlag

    monkeypatch.setenv("PLYGROUND_SERVED_CEILINGS",
                       "time=0.2,nodes=100000,iterations=50000,sims=50000")
    agent = parse_agent("mcts:time=100")
    stop = StopFlag()
    stop.set()
    control = SearchControl(agent.budget(), stop)
    agent.decide(get_game("connect4").start(), agent.budget(), control=control)
    assert control.budget.time == 0.2


# --- files: only those the server offers, refused in one set of words ------------------


def not_offered(tmp_path: Path) -> dict[str, str]:
    """Paths a visitor might probe with, each of another kind."""
    folder = tmp_path / "server"
    folder.mkdir()
    (folder / "notes.txt").write_text("not a profile\n")
    with zipfile.ZipFile(folder / "secret.npz", "w") as archive:
        archive.writestr("private_member_name.npy", b"x")
    (folder / "link.npz").symlink_to(folder / "secret.npz")
    return {"passwd": "/etc/passwd", "folder": "/tmp", "missing": "/nonexistent",
            "text": str(folder / "notes.txt"), "zip": str(folder / "secret.npz"),
            "link": str(folder / "link.npz"), "up": "../../etc/passwd",
            "home": "~/.ssh/id_rsa"}


def test_a_visitor_learns_nothing_of_the_servers_files_by_naming_them(tmp_path):
    app = served_app(save_dir=tmp_path / "saved")
    (tmp_path / "saved").mkdir()
    messages = {}
    for name, path in not_offered(tmp_path).items():
        for setting in ("az:net", "ga:profile"):
            message = refusal(app, f"{setting}={path}")
            messages.setdefault(setting, set()).add(message)
            assert path not in message and "secret" not in message
            assert "private_member_name" not in message
    assert {setting: len(found) for setting, found in messages.items()} == {
        "az:net": 1, "ga:profile": 1}, messages
    assert messages["ga:profile"] == {"ga: profile may name only a file this server "
                                      "offers: the shipped ones, or one saved in its "
                                      "save folder"}


def test_the_shipped_files_and_the_save_folder_are_offered(tmp_path):
    from plyground.core.agents.learned.agent import shipped_net
    from plyground.core.ga.profile import DEFAULT_PROFILE

    saved = tmp_path / "saved"
    (saved / "visitor-1").mkdir(parents=True)
    shipped = shipped_net(get_game("connect4"))
    (saved / "visitor-1" / "mine.npz").write_bytes(shipped.read_bytes())
    app = served_app(save_dir=saved)
    app.check_choice(f"az:net={shipped}")
    app.check_choice(f"ga:profile={DEFAULT_PROFILE}")
    app.check_choice(f"az:net={saved / 'visitor-1' / 'mine.npz'}")
    assert "only a file this server offers" in refusal(app, f"az:net={saved}")
    unsaved = served_app()  # no save folder: the shipped files only
    assert "only a file this server offers" in refusal(
        unsaved, f"az:net={saved / 'visitor-1' / 'mine.npz'}")


def test_a_record_a_visitor_opens_plays_refused_players_by_hand(tmp_path):
    """A game of the server's history names its players: those a visitor could not
    choose are played by hand, as an agent from outside not allowed is."""
    app = served_app()
    refused = app.refused_here(["human", "mcts:iterations=10000000", "ga:profile=/etc",
                                "mcts"], [])
    assert [spec for spec, _ in refused] == ["mcts:iterations=10000000",
                                             "ga:profile=/etc"]


# --- in the app, and from serve's command line -----------------------------------------


async def test_the_setup_screen_refuses_a_spec_over_a_ceiling_in_one_line():
    app = served_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.query_one("#player-1", Select).value = OTHER
        await pilot.pause()
        screen.query_one("#setting-1", Input).value = "mcts:iterations=10000000"
        await pilot.pause()
        screen.query_one("#start", Button).press()
        await pilot.pause()
        error = str(screen.query_one("#setup-error", Static).render())
        assert error.endswith("mcts: iterations=10000000 is over this server's ceiling "
                              "of 50,000 iterations a move (--max-iterations)")
        assert "\n" not in error
        assert not isinstance(app.screen, GameScreen)


def plyground(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "plyground", *args], capture_output=True,
                          text=True, timeout=120)


def test_serve_refuses_an_allowed_agent_over_its_ceilings_and_passes_them_on():
    from plyground.core.agents.ceilings import Ceilings
    from plyground.tui.cli.serve import served_command

    result = plyground("serve", "--allow-agent", f"{ENGINE},time=30", "--port", "1")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"error: --allow-agent '{ENGINE},time=30': engine: time=30 is over this "
        "server's ceiling of 10 s a move (--max-time)"]
    assert "--served-ceilings" not in served_command(None)  # the defaults: the app's
    words = shlex.split(served_command(None, ceilings=Ceilings(time=30)))
    assert words[words.index("--served-ceilings") + 1] == \
        "time=30,nodes=100000,iterations=50000,sims=50000"
    bad = plyground("--served", "--served-ceilings", "time=inf", "lesson", "list")
    assert (bad.returncode, bad.stderr.splitlines()) == (2, [
        "error: --served-ceilings 'time=inf': not ceilings as `plyground serve` "
        "writes them"])


def test_the_ceilings_reach_the_app_and_every_process_it_starts(monkeypatch):
    """`serve` passes its ceilings in a hidden option; the app, as it starts, puts them
    in the environment that its search processes inherit (and only then: a test
    process that makes a served app is not held)."""
    import os

    import textual.app
    from typer.testing import CliRunner

    from plyground.core.agents.ceilings import CEILINGS_ENV, Ceilings
    from plyground.tui import app as tui_app
    from plyground.tui import cli

    monkeypatch.setattr(tui_app, "SERVED", None)
    monkeypatch.setenv(CEILINGS_ENV, "")  # (put back as it was after the test)
    monkeypatch.setattr(tui_app, "require_terminal", lambda: None)
    seen = []
    monkeypatch.setattr(textual.app.App, "run", lambda app, *args, **kwargs: seen.append(
        (app.served, os.environ[CEILINGS_ENV])))
    text = "time=3,nodes=10,iterations=20,sims=30"
    result = CliRunner().invoke(cli.app, ["--served", "--served-ceilings", text])
    assert result.exit_code == 0, result.output
    [(served, environment)] = seen
    assert served.ceilings == Ceilings(3, 10, 20, 30) and environment == text
