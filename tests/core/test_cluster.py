"""Games on a real Dask cluster (a scheduler and single-thread workers on 127.0.0.1,
started by Dask's own commands): the same games as on the local pool, game for game,
even with a worker killed mid-run; workers warmed as they join; agents from outside
checked on every worker; one clear line when the cluster cannot be used."""
from __future__ import annotations

import errno
import json
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import cloudpickle
import pytest
from distributed import Client
from typer.testing import CliRunner

from plyground.core import get_game
from plyground.core.catalogue import parse_agent
from plyground.core.errors import PlygroundError
from plyground.core.fast import warm_up
from plyground.core.play.cluster import ClusterError, cluster_pool, open_pool
from plyground.core.play.cluster_worker import agents_trouble
from plyground.core.play.tournament import round_robin, run_games, tournament_jobs
from plyground.tui import cli
from plyground.tui.exit_codes import USAGE_ERROR
from tests.dask_cluster import START_SECONDS, dask_cluster

GAME = get_game("connect4")
BOT = Path(__file__).resolve().parents[2] / "examples" / "bots" / "mybot.py"
AGENTS = ("random", "greedy", "alphabeta:depth=2", f"{BOT}:MyBot")
GAMES = 2  # a pair
SEED = 33
# the workers cannot import the tests: the functions they run from here travel by value
cloudpickle.register_pickle_by_value(sys.modules[__name__])


def jobs():
    agents = [parse_agent(spec) for spec in AGENTS]
    return tournament_jobs(agents, GAMES, SEED, round_robin(len(agents)))


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with dask_cluster(tmp_path_factory.mktemp("dask"), 2) as started:
        yield started


@pytest.fixture(scope="module")
def local_results():
    with open_pool(GAME, 2, None) as pool:
        return {job.key: result for job, result in run_games(GAME, jobs(), pool)}


def warmed(game_id: str) -> bool:
    """On a worker: whether the game's kernels are warm (warm_up then does nothing)."""
    from plyground.core import fast

    return game_id in fast._warmed


def test_the_same_games_as_the_local_pool(cluster, local_results):
    with cluster_pool(GAME, cluster.address) as pool:
        assert pool.size == 2  # two single-thread workers
        played = [(job.key, result) for job, result in run_games(GAME, jobs(), pool)]
    assert len({key for key, _ in played}) == len(played) == len(local_results)
    assert dict(played) == local_results


def test_a_worker_killed_mid_run_loses_no_game_and_counts_none_twice(cluster,
                                                                      local_results):
    with cluster_pool(GAME, cluster.address) as pool, \
            Client(cluster.address, set_as_default=False) as client:
        worker, address = cluster.start_worker()  # joins after the pool opened
        assert client.run(warmed, GAME.id, workers=[address]) == {address: True}
        results = run_games(GAME, jobs(), pool)
        with closing(results):
            played = [next(results)]
            deadline = time.monotonic() + START_SECONDS
            while not client.processing(workers=[address])[address]:
                assert time.monotonic() < deadline, "the new worker got no game"
                time.sleep(0.01)
            os.kill(worker.pid, signal.SIGKILL)
            played += results
    keys = [job.key for job, _ in played]
    assert len(set(keys)) == len(keys) == len(local_results)
    assert {job.key: result for job, result in played} == local_results


def test_the_workers_there_are_warmed_for_the_game(cluster):
    with cluster_pool(get_game("quarto"), cluster.address), \
            Client(cluster.address, set_as_default=False) as client:
        assert set(client.run(warmed, "quarto").values()) == {True}


@pytest.mark.parametrize("spec, missing", [
    ("bots/mine.py:MyBot", "no file bots/mine.py there"),
    ('engine:cmd="./no-such-engine --fast"', "no program ./no-such-engine there"),
])
def test_an_outside_agent_a_worker_cannot_make_is_named(cluster, tmp_path, monkeypatch,
                                                        spec, missing):
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "mine.py").write_text(BOT.read_text())
    monkeypatch.chdir(tmp_path)  # the file is here, not where the workers run
    agents = [parse_agent(spec), parse_agent("random")]
    with cluster_pool(GAME, cluster.address) as pool:
        with pytest.raises(ClusterError) as refused:
            list(run_games(GAME, tournament_jobs(agents, 2, SEED, [(0, 1)]), pool))
    line = str(refused.value)
    assert line.startswith(f"the agent {spec!r} cannot run on worker tcp://127.0.0.1:")
    assert f": {missing} (a worker needs" in line and "\n" not in line


def test_a_daemon_worker_refuses_outside_agents_and_says_how_to_start_it(monkeypatch):
    class Daemon:
        daemon = True  # as Dask's nanny starts its workers by default

    monkeypatch.setattr(multiprocessing, "current_process", Daemon)
    trouble = agents_trouble([f"{BOT}:MyBot"])
    assert "DASK_DISTRIBUTED__WORKER__DAEMON=False" in trouble[f"{BOT}:MyBot"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:FREE", "nonsense",
                                     "http://127.0.0.1:8786"])
def test_no_scheduler_there_is_one_line(address):
    address = address.replace("FREE", str(free_port()))  # the same test ids everywhere
    with pytest.raises(PlygroundError) as refused:
        with cluster_pool(GAME, address):
            pass
    line = str(refused.value)
    assert line.startswith(f"cannot reach the Dask scheduler at {address}: ")
    assert "\n" not in line


def test_without_dask_it_says_which_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails
    with pytest.raises(ClusterError, match=r"pip install 'plyground\[cluster\]'"):
        with cluster_pool(GAME, "tcp://127.0.0.1:8786"):
            pass


def test_the_local_pool_never_imports_dask():
    code = (
        "import sys\n"
        "from plyground.core import get_game\n"
        "from plyground.core.catalogue import parse_agent\n"
        "from plyground.core.play.cluster import open_pool\n"
        "from plyground.core.play.tournament import match_jobs, run_games\n"
        "if __name__ == '__main__':\n"
        "    game = get_game('connect4')\n"
        "    players = (parse_agent('random'), parse_agent('greedy'))\n"
        "    with open_pool(game, 1, None) as pool:\n"
        "        assert len(list(run_games(game, match_jobs(players, 2, 1), pool))) == 2\n"
        "    print(sorted(name for name in sys.modules\n"
        "                 if name.split('.')[0] in ('dask', 'distributed')))\n")
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=START_SECONDS)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "[]"


def executed(dask_worker) -> int:
    """On a worker: how many tasks it has run."""
    return dask_worker.state.executed_count


def train(tmp_path, name: str, *where: str):
    """`plyground train` of a small population; the profile it saves, or its result."""
    out = tmp_path / name / "best.json"
    out.parent.mkdir()
    result = CliRunner().invoke(cli.app, [
        "train", "connect4-ga", "--population", "4", "--generations", "2",
        "--survivors", "2", "--seed", "5", "--out", str(out), *where])
    return out.read_bytes() if result.exit_code == 0 else result


def test_training_on_the_cluster_saves_the_profile_trained_here(cluster, tmp_path,
                                                                 monkeypatch):
    monkeypatch.setenv("PLYGROUND_PROFILES", str(tmp_path / "installed"))
    with Client(cluster.address, set_as_default=False) as client:
        before = sum(client.run(executed).values())
        on_cluster = train(tmp_path, "cluster", "--cluster", cluster.address)
        assert sum(client.run(executed).values()) > before  # the workers played them
    assert on_cluster == train(tmp_path, "here", "--jobs", "2")


def test_an_sprt_on_the_cluster_ends_as_the_local_one(cluster, tmp_path):
    """The same pairs counted, the same decision and figures, local or on the cluster."""
    suite = tmp_path / "suite.txt"
    suite.write_text("44\n43\n3\n1\n2\n4453\n35\n")  # pairs of more than one class

    def sprt(*where: str) -> dict:
        result = CliRunner().invoke(cli.app, [
            "sprt", "connect4", "alphabeta:depth=2", "greedy", "--elo1", "200", "--seed",
            "6", "--openings", str(suite), "--no-history", "--json", *where])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    with Client(cluster.address, set_as_default=False) as client:
        before = sum(client.run(executed).values())
        on_cluster = sprt("--cluster", cluster.address)
        assert sum(client.run(executed).values()) > before  # the workers played them
    assert on_cluster["result"] == "H1" and len(set(on_cluster["pentanomial"])) > 2
    assert on_cluster == sprt("--jobs", "2")


def test_train_without_a_scheduler_there_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("PLYGROUND_PROFILES", str(tmp_path / "installed"))
    address = f"tcp://127.0.0.1:{free_port()}"
    result = train(tmp_path, "nowhere", "--cluster", address)
    assert result.exit_code == USAGE_ERROR
    assert result.stderr.strip().splitlines() == [
        f"error: cannot reach the Dask scheduler at {address}: "
        f"{os.strerror(errno.ECONNREFUSED)}"]
