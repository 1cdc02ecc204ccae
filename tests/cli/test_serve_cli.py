"""`plyground serve`: where it listens, the warning for an address other machines can
reach, and one error line for bad options (the server itself is a fake here; the
browser test serves for real)."""
from __future__ import annotations

import shlex
import sys

import pytest
from typer.testing import CliRunner

from plyground.tui import cli
from plyground.tui.cli_serve import is_local, served_command


@pytest.fixture
def servers(monkeypatch):
    """The servers `serve` made, recorded instead of serving."""
    made = []

    class FakeServer:
        def __init__(self, command, host, port, title, public_url):
            self.settings = dict(command=command, host=host, port=port, title=title,
                                 public_url=public_url)

        def serve(self):
            made.append(self.settings)

    monkeypatch.setattr("textual_serve.server.Server", FakeServer)
    return made


def invoke(*args: str):
    return CliRunner().invoke(cli.app, ["serve", *args])


@pytest.mark.parametrize("host, local", [
    ("127.0.0.1", True), ("127.0.1.1", True), ("localhost", True), ("::1", True),
    ("[::1]", True), ("0.0.0.0", False), ("192.168.1.20", False), ("::", False),
    ("example.org", False)])
def test_only_the_loopback_is_local(host, local):
    assert is_local(host) is local


def test_it_serves_the_app_on_127_0_0_1_by_default(servers):
    result = invoke()
    assert result.exit_code == 0, result.output
    [settings] = servers
    assert settings["host"] == "127.0.0.1" and settings["port"] == 8000
    assert settings["public_url"] == "http://127.0.0.1:8000"
    assert shlex.split(settings["command"]) == [sys.executable, "-m", "plyground"]
    assert "warning" not in result.stderr


def test_an_address_other_machines_reach_is_warned_of(servers):
    result = invoke("--host", "0.0.0.0", "--port", "8123")
    assert result.exit_code == 0
    assert result.stderr.startswith("warning: serving on 0.0.0.0")
    assert servers[0]["host"] == "0.0.0.0" and servers[0]["port"] == 8123
    assert "warning" not in invoke("--host", "localhost").stderr


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
    (("--port", "0"), "a port is a number from 1 to 65535"),
    (("--port", "70000"), "a port is a number from 1 to 65535"),
    (("--host", "no.such.host.invalid"), "not an address of this machine"),
    (("--lesson", "nosuch"), "no lesson file 'nosuch'")])
def test_bad_options_give_one_error_line(servers, args, message):
    result = invoke(*args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ") and message in line
    assert servers == []
