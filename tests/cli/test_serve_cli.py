"""`plyground serve`: where it listens, --public for an address other machines reach,
what each served app is told (the agents visitors may play, the folder they save
into), and one error line for bad options (the server itself is a fake here;
tests/security/test_serve.py and the browser test serve for real)."""
from __future__ import annotations

import os
import shlex
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plyground.tui import app as tui_app
from plyground.tui import cli
from plyground.tui.cli.serve import served_command
from plyground.tui.hosts import is_local


class Made(list):
    """The settings of each server made; `saves` holds what its visitor saves."""


@pytest.fixture
def servers(monkeypatch, tmp_path):
    """The servers `serve` made, recorded instead of serving; the data folder is
    `tmp_path`."""
    made = Made()
    saves = []
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path))

    class FakeServer:
        def __init__(self, command, *, host, port, title, max_sessions, public, notes,
                     idle, memory):
            self.settings = dict(command=command, host=host, port=port, title=title,
                                 max_sessions=max_sessions, public=public, notes=notes,
                                 idle=idle, memory=memory)

        def serve(self):
            """As a visitor would, saves a game when the test asks for one."""
            made.append(self.settings)
            [folder] = option(self.settings["command"], "--served-save-dir")
            self.settings["folder_existed"] = Path(folder).is_dir()
            if saves:
                (Path(folder) / "game.pgn").write_text(saves.pop())

    monkeypatch.setattr("plyground.tui.serve_gate.GatedServer", FakeServer)
    made.saves = saves
    return made


def invoke(*args: str):
    return CliRunner().invoke(cli.app, ["serve", *args])


def option(command: str, name: str) -> list[str]:
    """The values of `name` in the served command line."""
    words = shlex.split(command)
    return [words[at + 1] for at, word in enumerate(words) if word == name]


@pytest.mark.parametrize("host, local", [
    ("127.0.0.1", True), ("127.0.1.1", True), ("localhost", True), ("::1", True),
    ("[::1]", True), ("0.0.0.0", False), ("192.168.1.20", False), ("::", False),
    ("example.org", False)])
def test_only_the_loopback_is_local(host, local):
    assert is_local(host) is local


def test_it_serves_the_app_on_127_0_0_1_by_default(servers, tmp_path):
    result = invoke()
    assert result.exit_code == 0, result.output
    [settings] = servers
    assert settings["host"] == "127.0.0.1" and settings["port"] == 8000
    assert settings["max_sessions"] == 4 and settings["public"] is False
    assert settings["idle"] == 30 * 60 and settings["memory"] == 1 << 30
    [save_dir] = option(settings["command"], "--served-save-dir")
    assert Path(save_dir).parent == tmp_path / "served" and settings["folder_existed"]
    assert not Path(save_dir).exists()  # nothing saved: not left behind
    assert shlex.split(settings["command"]) == [
        sys.executable, "-m", "plyground", "--served", "--served-save-dir", save_dir]
    assert result.stderr == ""


def test_the_memory_ceiling_and_idle_time_reach_the_server(servers):
    assert invoke("--max-memory", "512M", "--idle", "0.5").exit_code == 0
    [settings] = servers
    assert settings["memory"] == 512 << 20 and settings["idle"] == 30
    assert any("512 MiB" in note and "0.5 minutes" in note for note in settings["notes"])


def test_each_start_saves_into_a_new_folder(servers):
    servers.saves.append("a saved game")
    assert invoke().exit_code == 0 and invoke().exit_code == 0
    [first], [second] = (option(s["command"], "--served-save-dir") for s in servers)
    assert first != second
    assert (Path(first) / "game.pgn").read_text() == "a saved game"


def test_an_address_other_machines_reach_needs_public(servers):
    result = invoke("--host", "0.0.0.0", "--port", "8123")
    assert result.exit_code == 2 and servers == []
    [line] = result.stderr.splitlines()
    assert line.startswith("error: --host 0.0.0.0: ") and "add --public" in line
    result = invoke("--host", "0.0.0.0", "--port", "8123", "--public",
                    "--max-sessions", "30")
    assert result.exit_code == 0, result.output
    assert servers[0]["host"] == "0.0.0.0" and servers[0]["public"] is True
    assert servers[0]["max_sessions"] == 30
    assert invoke("--host", "localhost").exit_code == 0


def test_visitors_get_the_agents_and_the_folder_named(servers, tmp_path):
    result = invoke("--allow-agent", "engine:cmd=./bot  --fast", "--allow-agent",
                    "mcts:iterations=50", "--save-dir", str(tmp_path / "class"))
    assert result.exit_code == 0, result.output
    command = servers[0]["command"]
    assert option(command, "--served-allow-agent") == [
        'engine:cmd="./bot  --fast"', "mcts:iterations=50"]
    assert option(command, "--served-save-dir") == [str(tmp_path / "class")]
    assert (tmp_path / "class").is_dir()


def test_a_lesson_is_served_in_presentation_mode_and_checked_first(servers, tmp_path):
    assert invoke("--lesson", "mcts").exit_code == 0
    assert shlex.split(servers[0]["command"])[-3:] == ["lesson", "run", "mcts"]
    assert served_command("my lesson.toml").endswith("'my lesson.toml'")
    bad = tmp_path / "bad.toml"
    bad.write_text('title = "x"\n[[scene]]\ngame = "chess"\n')
    result = invoke("--lesson", str(bad))
    assert result.exit_code == 2 and "unknown game 'chess'" in result.stderr
    assert len(servers) == 1


@pytest.mark.parametrize("args, message", [
    (("--port", "0"), "'--port': Input should be greater than or equal to 1"),
    (("--port", "70000"), "'--port': Input should be less than or equal to 65535"),
    (("--host", "no.such.host.invalid"), "not an address of this machine"),
    (("--lesson", "nosuch"), "no lesson file 'nosuch'"),
    (("--max-sessions", "0"), "'--max-sessions': Input should be greater than or"),
    (("--idle", "inf"), "'--idle': Input should be less than or equal to 1440"),
    (("--allow-agent", "nosuch:depth=2"), "--allow-agent 'nosuch:depth=2': "),
    (("--allow-agent", "mcts:depth=2"), "--allow-agent 'mcts:depth=2': "),
    (("--save-dir", "/dev/null/x"), "--save-dir: cannot use /dev/null/x")])
def test_bad_options_give_one_error_line(servers, args, message):
    result = invoke(*args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ") and message in line
    assert servers == []


@pytest.mark.parametrize("command", [[], ["lesson", "run", "mcts"]])
def test_a_served_app_is_created_with_what_the_server_allows(monkeypatch, command):
    """The hidden root options `serve` starts each app with reach the app, on the
    setup screen and presenting a lesson."""
    monkeypatch.setattr(tui_app, "SERVED", None)
    opened = []
    monkeypatch.setattr(tui_app.PlygroundApp, "run", lambda self: opened.append(self))
    result = CliRunner().invoke(cli.app, [
        "--served", "--served-allow-agent", 'engine:cmd="./bot"',
        "--served-allow-agent", "bot.py:Bot", "--served-save-dir", "/tmp/class",
        *command])
    assert result.exit_code == 0, result.output
    [app] = opened
    assert app.served == tui_app.ServedLimits(('engine:cmd="./bot"', "bot.py:Bot"),
                                              Path("/tmp/class"))


def test_an_app_not_served_has_no_limits(monkeypatch):
    monkeypatch.setattr(tui_app, "SERVED", None)
    opened = []
    monkeypatch.setattr(tui_app.PlygroundApp, "run", lambda self: opened.append(self))
    assert CliRunner().invoke(cli.app, []).exit_code == 0
    assert opened[0].served is None


def test_a_port_in_use_is_one_error_line_and_no_address(tmp_path):
    """Served for real on a port something else listens on: the error, and nothing
    printed before it (an address printed first would send a browser nowhere)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "plyground", "serve", "--port", str(port)],
            capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
            env={**os.environ, "PLYGROUND_HOME": str(tmp_path)})
    assert (result.returncode, result.stdout, result.stderr) == (
        2, "", f"error: cannot serve on 127.0.0.1:{port}: the port is in use: stop what "
        "listens on it, or choose another with --port\n")
    assert list((tmp_path / "served").iterdir()) == []  # its save folder is not left
