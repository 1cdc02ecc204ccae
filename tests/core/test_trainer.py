"""The JAX trainer (core/agents/learned/trainer.py): its forward pass is the numpy net's,
its loss the one documented, a few steps lower that loss, one set of inputs gives one
set of bytes, and the numpy net it started from is left as it was."""
from __future__ import annotations

import numpy as np

from plyground.core.agents.learned import trainer
from plyground.core.agents.learned.net import Net, NetConfig

TINY = NetConfig(shape=(2, 3, 4), policy_size=5, channels=3, blocks=2)
CONNECT4 = NetConfig(shape=(3, 6, 7), policy_size=7, channels=8, blocks=2)


def batch(config: NetConfig, size: int, seed: int):
    """Random input planes, target distributions with zeros (the "illegal" moves), and
    target values in [-1, 1]."""
    rng = np.random.default_rng(seed)
    x = (rng.random((size, *config.shape)) < 0.4).astype(np.float32)
    shape = (size, config.policy_size)
    policy = rng.random(shape) * (rng.random(shape) < 0.6)
    policy[np.arange(size), rng.integers(config.policy_size, size=size)] += 1.0
    policy /= policy.sum(axis=1, keepdims=True)
    return x, policy.astype(np.float32), rng.uniform(-1, 1, size).astype(np.float32)


def moved(config: NetConfig, seed: int) -> Net:
    """A net with every parameter moved off its initial value (biases off zero)."""
    rng = np.random.default_rng(seed)
    return Net(config, {name: (array + rng.normal(0, 0.3, array.shape)).astype(np.float32)
                        for name, array in Net.new(config, seed).params.items()})


def numpy_losses(net: Net, x, policy, value) -> tuple[float, float]:
    """The policy and value losses, from the numpy net's output, as train.py documents
    them: the mean cross-entropy over all logits, the mean squared error."""
    logits, values = net.forward(x)
    logits = logits.astype(np.float64)
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return (-float((policy * log_probs).sum()) / len(x),
            float(((values.astype(np.float64) - value) ** 2).mean()))


def test_the_jax_forward_pass_is_the_numpy_one():
    for config in (TINY, CONNECT4):
        net = moved(config, seed=3)
        x, _, _ = batch(config, 6, seed=4)
        logits, values = net.forward(x)
        jax_logits, jax_values = trainer.jax_forward(net, x)
        assert np.abs(logits).max() > 0.1 and np.abs(values).max() > 0.01  # not all ~0
        np.testing.assert_allclose(jax_logits, logits, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(jax_values, values, rtol=1e-4, atol=1e-5)


def test_the_loss_is_cross_entropy_and_squared_error_and_l2_on_the_weights():
    net = moved(TINY, seed=5)
    x, policy, value = batch(TINY, 8, seed=6)
    expected = numpy_losses(net, x, policy, value)
    reported = trainer.Trainer(net, lr=1e-3).step(x, policy, value)  # before its step
    np.testing.assert_allclose(np.asarray(reported, np.float64), expected, rtol=1e-5)
    weights = sum(float((array.astype(np.float64) ** 2).sum())
                  for name, array in net.params.items() if name.endswith(".w"))
    total, _ = trainer.losses(net.params, x, policy, value, TINY.blocks, 0.01)
    np.testing.assert_allclose(float(total), sum(expected) + 0.01 * weights, rtol=1e-5)


def test_a_few_steps_lower_the_loss_on_a_fixed_batch():
    net = Net.new(CONNECT4, seed=1)
    before = {name: array.copy() for name, array in net.params.items()}
    x, policy, value = batch(CONNECT4, 16, seed=2)
    training = trainer.Trainer(net, lr=1e-2)
    for _ in range(30):
        training.step(x, policy, value)
    trained = training.net()
    start, end = sum(numpy_losses(net, x, policy, value)), sum(
        numpy_losses(trained, x, policy, value))
    assert end < 0.7 * start, (start, end)
    assert trained.config == net.config
    assert {name: (a.shape, a.dtype) for name, a in trained.params.items()} == {
        name: (a.shape, np.dtype(np.float32)) for name, a in net.params.items()}
    # the net it started from is left as it was
    assert all(np.array_equal(net.params[name], before[name]) for name in before)


def test_the_same_steps_give_the_same_bytes():
    def trained(seed: int) -> dict[str, np.ndarray]:
        training = trainer.Trainer(Net.new(TINY, seed), lr=1e-3)
        for step in range(5):
            training.step(*batch(TINY, 8, seed=step))
        return training.net().params

    first, second, other = trained(7), trained(7), trained(8)
    assert all(first[k].tobytes() == second[k].tobytes() for k in first)
    assert not all(np.array_equal(first[k], other[k]) for k in first)
    fresh = Net.new(TINY, 7).params
    assert all(not np.array_equal(first[k], fresh[k]) for k in first)
