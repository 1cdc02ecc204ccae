"""The network's training, in JAX: the same net as net.py's numpy forward pass, its
loss, its gradients by JAX's autodiff and Adam by optax, one jitted step.

A maintained library instead of a backward pass derived by hand: any change to the
architecture is a change to `forward` alone. Playing a net never comes here: the
parameters go in and come out as the numpy dict `Net.params` holds, so the `az` agent
(and every import of `core` but this module) needs numpy alone. JAX is the optional
`learn` extra (pip install 'plyground[learn]'); `load_trainer` (train.py) imports this
module only when a training starts, and says in one line how to install it.

Reproducible: one seed, one file. XLA on the CPU runs each step on one thread here
(set before JAX starts its CPU backend) with float32 matrix products at full
precision, so a step's sums are added in one order, whatever the machine's load or
the number of self-play workers beside it. One thread is also the faster choice on a
machine whose cores are busy with self-play: with XLA's thread pool on two busy cores a
step ran some 30 times slower (docs/az.md quotes the figures).
"""
from __future__ import annotations

import functools
import os

# Set before JAX starts its CPU backend, which reads them (at its first computation).
CPU_FLAGS = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
if CPU_FLAGS not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {CPU_FLAGS}".strip()

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402

from .net import Net, NetConfig  # noqa: E402
from .settings import TrainingError  # noqa: E402

jax.config.update("jax_default_matmul_precision", "highest")

DEVICES = ("cpu", "gpu")
L2 = 1e-4  # on the weights (names ending .w), not the biases


def pick_device(kind: str):
    """The JAX device a training runs on: the CPU, or the first GPU JAX finds (a
    TrainingError in one line where it finds none)."""
    if kind not in DEVICES:
        raise TrainingError(f"unknown device {kind!r} (devices: {', '.join(DEVICES)})")
    if kind == "cpu":
        return jax.devices("cpu")[0]
    try:
        found = jax.devices("gpu")
    except RuntimeError:
        found = []
    if not found:
        raise TrainingError("--device gpu: JAX finds no GPU on this machine (it needs "
                            "an NVIDIA GPU and jax[cuda12]); leave --device out to "
                            "train on the CPU")
    return found[0]


def conv3(a, w, b, skip=None):
    """ReLU(3x3 convolution of `a` [B, rows, cols, in], same padding, + `skip`): the
    kernel is (3, 3, in, out), as net.py's."""
    out = jax.lax.conv_general_dilated(a, w, (1, 1), "SAME",
                                       dimension_numbers=("NHWC", "HWIO", "NHWC")) + b
    if skip is not None:
        out = out + skip
    return jax.nn.relu(out)


def forward(params: dict, x, blocks: int):
    """(policy logits, values) for input planes [B, planes, rows, cols]: `Net.forward`
    written in JAX (tests/core/test_trainer.py holds the two together)."""
    batch = x.shape[0]
    a = conv3(jnp.transpose(x, (0, 2, 3, 1)), params["stem.w"], params["stem.b"])
    for i in range(blocks):
        h = conv3(a, params[f"block{i}.conv1.w"], params[f"block{i}.conv1.b"])
        a = conv3(h, params[f"block{i}.conv2.w"], params[f"block{i}.conv2.b"], skip=a)
    flat = a.reshape(-1, a.shape[-1])  # 2-D products: XLA's fast path on the CPU
    policy = (flat @ params["policy.conv.w"] + params["policy.conv.b"]).reshape(batch, -1)
    logits = policy @ params["policy.dense.w"] + params["policy.dense.b"]
    value = (flat @ params["value.conv.w"] + params["value.conv.b"]).reshape(batch, -1)
    hidden = jax.nn.relu(value @ params["value.hidden.w"] + params["value.hidden.b"])
    values = jnp.tanh(hidden @ params["value.out.w"] + params["value.out.b"])[:, 0]
    return logits, values


def losses(params: dict, x, target_policy, target_value, blocks: int, l2: float):
    """(the loss minimised, (policy loss, value loss)): the mean cross-entropy of the
    softmax over all logits against the target distribution (0 at illegal moves), the
    mean squared error of the value, and `l2` times the sum of the squared weights."""
    logits, values = forward(params, x, blocks)
    policy_loss = -jnp.sum(target_policy * jax.nn.log_softmax(logits)) / x.shape[0]
    value_loss = jnp.mean((values - target_value) ** 2)
    decay = sum(jnp.sum(w * w) for name, w in params.items() if name.endswith(".w"))
    return policy_loss + value_loss + l2 * decay, (policy_loss, value_loss)


@functools.cache
def step_function(blocks: int, lr: float, l2: float):
    """(the optimiser, a jitted step (params, state, x, policy, value) -> (params,
    state, policy loss, value loss)): one per shape of net and rate, compiled once per
    process for each batch shape."""
    optimiser = optax.adam(lr)

    @jax.jit
    def step(params, state, x, target_policy, target_value):
        grads, (policy_loss, value_loss) = jax.grad(losses, has_aux=True)(
            params, x, target_policy, target_value, blocks, l2)
        updates, state = optimiser.update(grads, state, params)
        return optax.apply_updates(params, updates), state, policy_loss, value_loss

    return optimiser, step


class Trainer:
    """A net's training: its parameters and Adam's moments on `device`, changed by
    each `step`; `net()` gives them back as a numpy `Net`."""

    def __init__(self, net: Net, lr: float, device: str = "cpu", l2: float = L2) -> None:
        self.config: NetConfig = net.config
        self.device = pick_device(device)
        self.optimiser, self.jitted = step_function(net.config.blocks, float(lr),
                                                    float(l2))
        self.params = jax.device_put(
            {name: np.asarray(array, np.float32) for name, array in net.params.items()},
            self.device)
        self.state = self.optimiser.init(self.params)

    def step(self, x: np.ndarray, target_policy: np.ndarray,
             target_value: np.ndarray) -> tuple:
        """One Adam step on a batch: its (policy loss, value loss) before the step, as
        JAX scalars. JAX returns before the step has run, so the caller can draw the
        next batch meanwhile; reading a loss waits for it."""
        batch = jax.device_put((np.asarray(x, np.float32),
                                np.asarray(target_policy, np.float32),
                                np.asarray(target_value, np.float32)), self.device)
        self.params, self.state, policy_loss, value_loss = self.jitted(
            self.params, self.state, *batch)
        return policy_loss, value_loss

    def net(self) -> Net:
        """The parameters now, as a numpy net (a copy: later steps leave it be)."""
        return Net(self.config, {name: np.array(array, np.float32)
                                 for name, array in jax.device_get(self.params).items()})


def jax_forward(net: Net, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`net`'s output computed by `forward` here, for the tests that hold the two
    passes together."""
    logits, values = jax.jit(forward, static_argnums=2)(
        {name: jnp.asarray(array) for name, array in net.params.items()},
        jnp.asarray(x, jnp.float32), net.config.blocks)
    return np.asarray(logits), np.asarray(values)
