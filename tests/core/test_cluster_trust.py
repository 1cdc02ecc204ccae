"""A Dask cluster is trusted like code, and reached the way Dask secures it: a tls://
scheduler with `--cluster-security FILE` (the certificates Dask's Security takes), on
every command that takes --cluster; a file that cannot be used is one line; and a
worker that sends back something other than what its task returns is one line naming
it, not a traceback (a real TLS cluster, on 127.0.0.1, with certificates made here)."""
from __future__ import annotations

import dataclasses
import shutil
import subprocess
import sys
from pathlib import Path

import cloudpickle
import dask
import numpy as np
import pytest
from distributed import Client
from distributed.security import Security
from typer.testing import CliRunner

from plyground.core.agents.learned.selfplay import Samples, play
from plyground.core.ga.trainer import cross, points
from plyground.core import get_game
from plyground.core.play.cluster import cluster_pool
from plyground.core.play.cluster_results import UnusableResult, unusable, wrong_result
from plyground.core.play.cluster_security import (SecurityFileError, Scheduler,
                                                  read_security)
from plyground.core.play.tournament import GameJob, GameResult, play_job
from plyground.tui import cli
from tests.dask_cluster import DaskCluster

# the workers cannot import the tests: what they run from here travels by value
cloudpickle.register_pickle_by_value(sys.modules[__name__])

MATCH = ("match", "connect4", "--first", "random", "--second", "greedy", "--games", "2",
         "--seed", "7", "--no-history")
COMMANDS = [MATCH, ("tournament", "connect4", "--agents", "random", "greedy"),
            ("sprt", "connect4", "random", "greedy"),
            ("train", "connect4-ga", "--generations", "1")]


@pytest.fixture(scope="module")
def certificates(tmp_path_factory) -> Path:
    """A self-signed certificate (its own authority) and its key, made by openssl, and
    a security file naming them."""
    assert shutil.which("openssl"), "these tests make their certificates with openssl"
    folder = tmp_path_factory.mktemp("tls")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                    "-subj", "/CN=plyground-test", "-keyout", folder / "key.pem",
                    "-out", folder / "cert.pem"], check=True, capture_output=True)
    (folder / "security.toml").write_text(
        'tls_ca_file = "cert.pem"\ntls_client_cert = "cert.pem"\n'
        'tls_client_key = "key.pem"\nrequire_encryption = true\n')
    return folder


class TlsCluster(DaskCluster):
    """tests/dask_cluster.py's cluster, every process of it on TLS with `folder`'s
    certificate (the scheduler given --protocol tls)."""

    def __init__(self, folder: Path, certificates: Path) -> None:
        super().__init__(folder)
        self.tls = ["--tls-ca-file", str(certificates / "cert.pem"),
                    "--tls-cert", str(certificates / "cert.pem"),
                    "--tls-key", str(certificates / "key.pem")]

    def launch(self, *arguments: str) -> subprocess.Popen:
        protocol = ["--protocol", "tls"] if arguments[0] == "scheduler" else []
        return super().launch(*arguments, *protocol, *self.tls)


def security(certificates: Path) -> Security:
    return Security(**read_security(certificates / "security.toml"))


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, certificates):
    started = TlsCluster(tmp_path_factory.mktemp("dask"), certificates)
    try:
        cert, key = str(certificates / "cert.pem"), str(certificates / "key.pem")
        # Dask's own configuration, for the harness's clients only (not plyground's)
        with dask.config.set({"distributed.comm.tls.ca-file": cert,
                              "distributed.comm.tls.client.cert": cert,
                              "distributed.comm.tls.client.key": key}):
            started.start_scheduler()
            started.start_worker()
        yield started
    finally:
        started.close()


def invoke(*args: str):
    return CliRunner().invoke(cli.app, list(args))


def one_error_line(*args: str) -> str:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    (line,) = [line for line in result.output.splitlines() if line.startswith("error:")]
    return line


def test_a_tls_cluster_plays_with_the_security_file(cluster, certificates):
    assert cluster.address.startswith("tls://")
    result = invoke(*MATCH, "--cluster", cluster.address,
                    "--cluster-security", str(certificates / "security.toml"))
    assert result.exit_code == 0, result.output
    assert "greedy" in result.stdout and "reproduce:" in result.stdout


def test_a_tls_cluster_without_certificates_is_one_line(cluster):
    line = one_error_line(*MATCH, "--cluster", cluster.address)
    assert "--cluster-security" in line


# What a worker runs to send back a string for every game, and to play honestly again.
def send_back_garbage() -> None:
    from plyground.core.play import tournament

    tournament.honest_play_job = tournament.play_job
    tournament.play_job = lambda game_spec, job: "not a game"


def honest_again() -> None:
    from plyground.core.play import tournament

    tournament.play_job = tournament.honest_play_job


def test_a_worker_that_sends_back_no_game_result_is_one_line_naming_it(cluster,
                                                                      certificates):
    with Client(cluster.address, security=security(certificates),
                set_as_default=False) as client:
        (worker,) = client.run(send_back_garbage)
        try:
            line = one_error_line(*MATCH, "--cluster", cluster.address,
                                  "--cluster-security",
                                  str(certificates / "security.toml"))
        finally:
            client.run(honest_again)
    assert f"worker {worker} sent back a str, not GameResult" in line


def test_a_task_that_fails_on_a_worker_is_one_line(cluster, certificates):
    scheduler = Scheduler(cluster.address,
                          read_security(certificates / "security.toml"))
    with cluster_pool(get_game("connect4"), scheduler) as pool:
        with pytest.raises(UnusableResult) as raised:  # (what a worker can import)
            pool.executor.submit(play_job, "connect4", "no job").result(timeout=120)
    assert str(raised.value) == ("play_job failed on the cluster: AttributeError: "
                                 "'str' object has no attribute 'players'")


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command[0])
def test_every_command_with_cluster_takes_the_security_file(command, tmp_path,
                                                            certificates):
    missing = tmp_path / "missing.toml"
    line = one_error_line(*command, "--cluster", "tls://127.0.0.1:1",
                          "--cluster-security", str(missing))
    assert f"cannot read {missing}" in line
    line = one_error_line(*command, "--cluster-security",
                          str(certificates / "security.toml"))
    assert "--cluster-security goes with --cluster tls://HOST:PORT" in line


@pytest.mark.parametrize("text, problem", [
    ("tls_ca_file = ", "is not TOML"),
    ('tls_ca_file = "cert.pem"\ntls_client_cert = "cert.pem"\npassword = "x"\n',
     "password, which is not one of"),
    ('tls_ca_file = "cert.pem"\n', "needs tls_client_cert"),
    ('tls_ca_file = "cert.pem"\ntls_client_cert = "nowhere.pem"\n', "which is no file"),
    ('tls_ca_file = "cert.pem"\ntls_client_cert = 3\n', "is a file name"),
    ('tls_ca_file = "cert.pem"\ntls_client_cert = "cert.pem"\n'
     'require_encryption = "yes"\n', "is true or false"),
])
def test_a_security_file_that_cannot_be_used_is_one_line(tmp_path, text, problem):
    (tmp_path / "cert.pem").write_text("not checked here: Dask reads it")
    (tmp_path / "security.toml").write_text(text)
    with pytest.raises(SecurityFileError, match=problem) as raised:
        read_security(tmp_path / "security.toml")
    assert "\n" not in str(raised.value)


def test_the_security_file_gives_dask_security_its_files(certificates):
    fields = read_security(certificates / "security.toml")
    assert fields == {"tls_ca_file": str(certificates / "cert.pem"),
                      "tls_client_cert": str(certificates / "cert.pem"),
                      "tls_client_key": str(certificates / "key.pem"),
                      "require_encryption": True}
    scheduler = Scheduler("tls://host:8786", fields)
    assert scheduler == "tls://host:8786" and scheduler.security == fields


JOB = GameJob(0, 1, 5, ("random", "greedy"))
RESULT = GameResult(1, 0, 1, "O wins", "a1 b2", 2)


@pytest.mark.parametrize("function, args, result, said", [
    (play_job, ("connect4", JOB), "not a game", "a str, not GameResult"),
    (play_job, ("connect4", JOB), dataclasses.replace(RESULT, winner="first"),
     "a GameResult whose winner is a str, not int or None"),
    (play_job, ("connect4", JOB), dataclasses.replace(RESULT, termination=3),
     "a GameResult whose termination is an int, not Termination"),
    (play_job, ("connect4", JOB), dataclasses.replace(RESULT, number=3),
     "the result of game 3 for game 1"),
    (play_job, ("connect4", JOB), dataclasses.replace(RESULT, winner=7),
     "a game result whose players are not 0 and 1"),
    (points, ((0.5,), (0.5,), 1), "1", "a str, not float"),
    (cross, ((0.5,), (0.5,), 0.1, 1), (0.5, None), "a tuple holding None, not float"),
    (play, (None,), Samples(1, [[0.0]], np.zeros(1), np.zeros(1), ""),
     "a Samples whose planes is a list, not ndarray"),
])
def test_a_result_that_is_not_what_was_sent_is_one_line_naming_the_worker(
        function, args, result, said):
    line = str(unusable("tcp://10.0.0.9:4000", wrong_result(function, args, result)))
    assert line.startswith(f"worker tcp://10.0.0.9:4000 sent back {said}")
    assert "\n" not in line


@pytest.mark.parametrize("function, args, result", [
    (play_job, ("connect4", JOB), RESULT),
    (points, ((0.5,), (0.5,), 1), 2),  # an int is a float
    (cross, ((0.5,), (0.5,), 0.1, 1), (0.5, 0.25)),
    (play, (None,), 0.5),
    (play, (None,), Samples(1, np.zeros((1, 1)), np.zeros(1), np.zeros(1), "a1")),
])
def test_a_result_that_is_what_was_sent_passes(function, args, result):
    assert wrong_result(function, args, result) is None
