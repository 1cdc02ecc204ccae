"""Training needs the `learn` extra (JAX, optax); nothing else does. With JAX hidden
(a process whose `import jax` fails, as on a bare install): every module of core and
of the app imports, the az agent plays, and `train az` says in one line how to install
the extra. And `--device gpu` on a machine where JAX finds no GPU is one line too."""
from __future__ import annotations

import os
import subprocess
import sys

from typer.testing import CliRunner

from plyground.core.agents.learned import trainer
from plyground.core.agents.learned.net import load_net
from plyground.tui import cli

HIDE = "import sys; sys.modules.update(jax=None, jaxlib=None, optax=None); "
TINY = ["--channels", "4", "--blocks", "1", "--games-per-generation", "2", "--sims",
        "4", "--steps", "2", "--batch", "8", "--eval-pairs", "0", "--jobs", "1"]


def without_jax(code: str, tmp_path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", HIDE + code], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path,
                          env={**os.environ, "PLYGROUND_HOME": str(tmp_path)})


def cli_without_jax(tmp_path, *args: str) -> subprocess.CompletedProcess:
    return without_jax(f"sys.argv = ['plyground', *{list(args)!r}]; "
                       "from plyground.tui.launch import main; main()", tmp_path)


def test_every_module_but_the_trainer_imports_without_jax(tmp_path):
    """core's modules and the app's (tui): the app starts without the extra."""
    done = without_jax(
        "import importlib, pkgutil, plyground.core as core, plyground.tui as tui\n"
        "names = [m.name for package in (core, tui) for m in\n"
        "         pkgutil.walk_packages(package.__path__, package.__name__ + '.')]\n"
        "for name in names:\n"
        "    if not name.endswith('.trainer'):\n"
        "        importlib.import_module(name)\n"
        "print(len(names), sys.modules['jax'])", tmp_path)
    assert done.returncode == 0, done.stderr
    count, jax = done.stdout.split()
    assert int(count) > 150 and jax == "None"


def test_az_plays_without_jax(tmp_path):
    done = cli_without_jax(tmp_path, "demo", "connect4", "--x", "az:sims=20", "--o",
                           "random", "--quiet")
    assert done.returncode == 0, done.stderr
    ends = ("X wins", "O wins", "draw")
    assert any(line in ends for line in done.stdout.splitlines()), done.stdout


def test_train_az_without_jax_says_how_to_install_it(tmp_path):
    done = cli_without_jax(tmp_path, "train", "az", "tictactoe", "--generations", "1",
                           "--out", "net.npz", *TINY)
    assert done.returncode == 2
    assert (done.stdout + done.stderr).strip().splitlines() == [
        "error: training needs the learn extra (JAX and optax): pip install "
        "'plyground[learn]'"]
    assert not (tmp_path / "net.npz").exists()


def train_tiny_on_gpu(out):
    return CliRunner().invoke(cli.app, ["train", "az", "tictactoe", "--generations", "1",
                                        "--out", str(out), *TINY, "--device", "gpu"])


def test_device_gpu_without_a_gpu_is_one_line(tmp_path, monkeypatch):
    def no_gpu(kind=None):
        if kind == "gpu":
            raise RuntimeError("Unknown backend: 'gpu' requested, but no platforms "
                               "that are instances of gpu are present.")
        return real(kind)
    real = trainer.jax.devices
    monkeypatch.setattr(trainer.jax, "devices", no_gpu)
    out = tmp_path / "net.npz"
    result = train_tiny_on_gpu(out)
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "error: --device gpu: JAX finds no GPU on this machine (it needs an NVIDIA GPU "
        "and jax[cuda12]); leave --device out to train on the CPU"]
    assert not out.exists()


def test_device_gpu_trains_on_the_device_jax_gives(tmp_path, monkeypatch):
    """A GPU stood in for by the CPU: the steps run where `jax.devices('gpu')` says,
    and the net's command says --device gpu."""
    asked = []

    def cpu_as_gpu(kind=None):
        asked.append(kind)
        return real("cpu" if kind == "gpu" else kind)
    real = trainer.jax.devices
    monkeypatch.setattr(trainer.jax, "devices", cpu_as_gpu)
    out = tmp_path / "net.npz"
    result = train_tiny_on_gpu(out)
    assert result.exit_code == 0, result.output
    assert "gpu" in asked
    assert load_net(out)[1]["command"].endswith("--generations 1 --device gpu")
