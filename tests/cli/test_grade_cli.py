"""`plyground grade check`: the spec's summary or its faults, one line each, and the
public part written atomically, never over a file without --force."""
from __future__ import annotations

from typer.testing import CliRunner

from plyground.core.paths import parse_toml
from plyground.tui import cli
from tests.core.test_grade_spec import GOOD, line_of, write

runner = CliRunner()


def test_a_good_spec_is_summed_up(tmp_path):
    path = write(tmp_path, GOOD)
    result = runner.invoke(cli.app, ["grade", "check", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{path}: ok, 5 checks (100 points; 2 public)\n"


def test_faults_are_printed_one_a_line_with_exit_code_1(tmp_path):
    text = GOOD.replace("points = 30", "points = -3").replace(
        'kind = "ladder"', 'kind = "quiz"')
    path = write(tmp_path, text)
    result = runner.invoke(cli.app, ["grade", "check", str(path)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert [line.split(": ")[0] for line in lines] == [
        f"{path}:{line_of(text, 'points = -3')}", f"{path}:{line_of(text, 'quiz')}"]
    assert "2 faults in" in result.stderr


def test_public_out_keeps_the_public_checks_and_replaces_only_with_force(tmp_path):
    path = write(tmp_path, GOOD)
    out = tmp_path / "public.toml"
    result = runner.invoke(cli.app, ["grade", "check", str(path), "--public-out", str(out)])
    assert result.exit_code == 0, result.output
    assert [check["name"] for check in parse_toml(out.read_text())["check"]] == [
        "legal", "nodes"]
    out.write_text("mine")
    result = runner.invoke(cli.app, ["grade", "check", str(path), "--public-out", str(out)])
    assert result.exit_code == 2 and "already exists (--force replaces it)" in result.output
    assert out.read_text() == "mine"
    result = runner.invoke(cli.app, ["grade", "check", str(path), "--public-out", str(out),
                                     "--force"])
    assert result.exit_code == 0 and "public = true" in out.read_text()
    assert not [name for name in tmp_path.iterdir() if name.name.endswith(".tmp")]


def test_a_faulty_spec_writes_no_public_part(tmp_path):
    path = write(tmp_path, GOOD.replace("points = 30", "points = -3"))
    out = tmp_path / "public.toml"
    result = runner.invoke(cli.app, ["grade", "check", str(path), "--public-out", str(out)])
    assert result.exit_code == 1 and not out.exists()


def test_an_outside_reference_runs_nothing(tmp_path):
    marker = tmp_path / "X"
    text = GOOD.replace('reference = "minimax:depth=3"',
                        f'reference = \'engine:cmd="touch {marker}"\'')
    result = runner.invoke(cli.app, ["grade", "check", str(write(tmp_path, text))])
    assert result.exit_code == 1 and "from outside plyground" in result.stdout
    assert not marker.exists()


def test_a_missing_spec_is_one_line(tmp_path):
    result = runner.invoke(cli.app, ["grade", "check", str(tmp_path / "none.toml")])
    assert result.exit_code == 1
    assert result.stdout.count("\n") == 1 and "cannot read it" in result.stdout
