"""The numpy policy/value network: seeds, batches, and its file (a round trip, and every
kind of bad file refused in one line). Its training, in JAX, is test_trainer.py's."""
from __future__ import annotations

import hashlib
import json
import zipfile
from types import SimpleNamespace

import numpy as np
import pytest

from plyground.core import PlygroundError
from plyground.core.agents.learned import net as net_module
from plyground.core.agents.learned.blas import blas_threads, set_blas_threads
from plyground.core.agents.learned.net import (Net, NetConfig, file_hash, load_net,
                                               save_net)

TINY = NetConfig(shape=(2, 3, 4), policy_size=5, channels=3, blocks=2)


def batch(config: NetConfig, size: int, seed: int):
    """Random input planes, target distributions with zeros (the "illegal" moves) and
    one-hot where `size` is small enough to fit, and target values in [-1, 1]."""
    rng = np.random.default_rng(seed)
    x = (rng.random((size, *config.shape)) < 0.4).astype(np.float32)
    policy = rng.random((size, config.policy_size)) * (rng.random((size, config.policy_size)) < 0.6)
    policy[np.arange(size), rng.integers(config.policy_size, size=size)] += 1.0
    policy /= policy.sum(axis=1, keepdims=True)
    value = rng.uniform(-1, 1, size)
    return x, policy.astype(np.float32), value.astype(np.float32)


def test_a_seed_gives_the_same_net():
    fresh = [Net.new(TINY, 7).params, Net.new(TINY, 7).params, Net.new(TINY, 8).params]
    assert all(np.array_equal(fresh[0][k], fresh[1][k]) for k in fresh[0])
    assert not all(np.array_equal(fresh[0][k], fresh[2][k]) for k in fresh[0])


def test_a_batch_gives_what_its_rows_give_one_at_a_time():
    config = NetConfig(shape=(3, 6, 7), policy_size=7, channels=8, blocks=2)
    net = Net.new(config, seed=4)
    x, _, _ = batch(config, 6, seed=1)
    logits, values = net.forward(x)
    assert logits.shape == (6, 7) and values.shape == (6,)
    assert logits.dtype == values.dtype == np.float32
    assert np.all(np.abs(values) <= 1)
    rows = [net.forward(x[i:i + 1]) for i in range(len(x))]
    np.testing.assert_allclose(logits, np.concatenate([r[0] for r in rows]), rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(values, np.concatenate([r[1] for r in rows]), rtol=1e-5,
                               atol=1e-6)


def test_a_saved_net_loads_with_the_same_output_info_and_hash(tmp_path):
    net = Net.new(TINY, seed=2)
    net.params["stem.b"] += 0.5  # a bias off zero, so the biases travel too
    info = {"game": "connect4", "command": "plyground train az connect4", "seed": 2}
    path = tmp_path / "net.npz"
    save_net(net, path, info)
    loaded, loaded_info = load_net(path, encoding=SimpleNamespace(shape=(2, 3, 4),
                                                                  policy_size=5))
    assert loaded_info == info and loaded.config == TINY
    x, _, _ = batch(TINY, 5, seed=3)
    for mine, theirs in zip(net.forward(x), loaded.forward(x)):
        assert np.array_equal(mine, theirs)
    assert file_hash(path) == hashlib.sha256(path.read_bytes()).hexdigest()
    assert [p.name for p in tmp_path.iterdir()] == ["net.npz"]  # no temporary left


def rewrite(path, **changes) -> None:
    """The net file at `path` with arrays replaced (None: removed) or added."""
    with np.load(path) as archive:
        arrays = {name: archive[name] for name in archive.files}
    for name, array in changes.items():
        if array is None:
            del arrays[name]
        else:
            arrays[name] = array
    with open(path, "wb") as file:
        np.savez(file, **arrays)


def object_array():
    array = np.empty(3, dtype=object)  # stem.b's shape: only the pickle refuses it
    array[0] = {"code": "runs on load"}
    return array


BAD_FILES = {
    "missing": (lambda p: p.unlink(), "No such file or directory"),
    "a folder": (lambda p: (p.unlink(), p.mkdir()), "it is a folder"),
    "text": (lambda p: p.write_text("hello"), "not a network file (not an .npz archive)"),
    "a plain .npy": (lambda p: np.save(open(p, "wb"), np.zeros(3)),
                     "not a network file (not an .npz archive)"),
    "cut short": (lambda p: p.write_bytes(p.read_bytes()[:300]), "not a network file"),
    "no weights": (lambda p: rewrite(p, **{"stem.w": None}),
                   "it has no array stem.w, which its config calls for"),
    "wrong shape": (lambda p: rewrite(p, **{"stem.w": np.zeros((3, 3, 2, 4))}),
                    "its array stem.w is 3×3×2×4, its config says 3×3×2×3"),
    "not finite": (lambda p: rewrite(p, **{"stem.b": np.array([0, np.nan, 0])}),
                   "its array stem.b is not all finite numbers"),
    "text weights": (lambda p: rewrite(p, **{"stem.b": np.array(["a", "b", "c"])}),
                     "its array stem.b is not all finite numbers"),
    "an extra array": (lambda p: rewrite(p, extra=np.zeros(2)),
                       "an array its config does not call for: extra"),
    "pickled": (lambda p: rewrite(p, **{"stem.b": object_array()}),
                "a damaged network file"),
    "no config": (lambda p: rewrite(p, config=None), "it has no config array"),
    "config not JSON": (lambda p: rewrite(p, config=np.array("{shape")),
                        "its config is not JSON text"),
    "config not text": (lambda p: rewrite(p, config=np.zeros(3)),
                        "its config is not JSON text"),
    "config of another kind": (lambda p: rewrite(p, config=np.array('{"shape": 3}')),
                               "its config is not a network's"),
    "config sizes": (lambda p: rewrite(p, config=np.array(json.dumps(
        {"shape": [2, 3, -4], "policy_size": 5, "channels": 3, "blocks": 2}))),
        "its config has sizes that are not whole numbers"),
    "info not JSON": (lambda p: rewrite(p, info=np.array("game=connect4")),
                      "its info is not JSON text"),
    "info not an object": (lambda p: rewrite(p, info=np.array("[1, 2]")),
                           "its info is not a JSON object"),
}


@pytest.mark.parametrize("kind", BAD_FILES)
def test_a_bad_net_file_is_one_clear_line(tmp_path, kind):
    path = tmp_path / "net.npz"
    save_net(Net.new(TINY, seed=1), path, {"game": "test"})
    spoil, message = BAD_FILES[kind]
    spoil(path)
    with pytest.raises(PlygroundError) as raised:
        load_net(path)
    text = str(raised.value)
    assert text.startswith(f"cannot read {path}: ") and "\n" not in text
    assert message in text


def test_a_net_for_another_shape_is_refused(tmp_path):
    path = tmp_path / "net.npz"
    save_net(Net.new(TINY, seed=1), path, {})
    with pytest.raises(PlygroundError, match="it is a net for 2×3×4 input planes and 5 "
                                             "moves; this game has 3×6×7 and 7"):
        load_net(path, encoding=SimpleNamespace(shape=(3, 6, 7), policy_size=7))


def test_a_net_file_over_the_size_cap_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(net_module, "MAX_NET_BYTES", 20_000)
    large, packed = tmp_path / "large.npz", tmp_path / "packed.npz"
    with open(large, "wb") as file:
        file.truncate(20_001)
    with pytest.raises(PlygroundError, match="over the .* MB a network file may have"):
        load_net(large)
    save_net(Net.new(TINY, seed=1), packed, {})
    with zipfile.ZipFile(packed, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("padding.npy", bytes(1_000_000))  # a few kB packed
    assert packed.stat().st_size < 20_000
    with pytest.raises(PlygroundError, match="its arrays unpack to .* over the"):
        load_net(packed)


def test_a_net_runs_its_matrix_products_on_one_thread():
    set_blas_threads(2)
    try:
        net_module.one_blas_thread.cache_clear()
        Net.new(TINY, seed=1)
        assert blas_threads() == 1
    finally:
        set_blas_threads(1)
