"""A small residual policy/value network in plain numpy: its forward pass and its
file.

Plain numpy, so that playing a net needs nothing beyond what plyground already
installs: at this size (a few 3x3 convolutions over a 6x7 board) numpy's matrix
products evaluate a batch of 8 positions in about half a millisecond
(tests/bench/bench_net.py). Training is trainer.py's, in JAX (the optional `learn`
extra), which writes this same net in JAX and hands its parameters back as the numpy
dict a `Net` holds.

The shape: a 3x3 stem convolution, `blocks` residual blocks (two 3x3 convolutions
and a skip, ReLU after each), a policy head (1x1 convolution to two planes, dense to
`policy_size` logits) and a value head (1x1 convolution to one plane, a dense hidden
layer with ReLU, tanh). No batch norm: with the residual branches scaled at their
start (see `initial_std`) the activations keep their scale without it, and a net with
none is one function of its input, the same in training and in play. Nor a ReLU after
a head's 1x1 convolution: without batch norm to centre it, a single value plane that
turns negative everywhere would stay dead (a small net on a small dataset did just
that in testing).

Inside, activations are [batch, rows, cols, channels] (NHWC): a 3x3 convolution with
same padding is then one gather (im2col) and one matrix product. A net's dtype is its
parameters' (float32).
"""
from __future__ import annotations

import functools
import hashlib
import io
import json
import math
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ...errors import shown, visible
from ...paths import UnreadableFile, read_file_bytes, write_atomically
from .blas import set_blas_threads

MAX_NET_BYTES = 64 * 2**20  # the largest net file read, and the most its arrays unpack to
POLICY_PLANES = 2  # the policy head's 1x1 convolution
VALUE_PLANES = 1  # the value head's


@dataclass(frozen=True)
class NetConfig:
    """A net's shape: its input (planes, rows, cols), its policy size, and its width
    and depth. The value head's hidden layer is `channels` wide.

    The default, 32 channels and 2 blocks, is as large as keeps a batch of 8 Connect 4
    positions at about half a millisecond on one core (tests/bench/bench_net.py), so
    that the `az` agent's search evaluates thousands of leaves in a 0.2 s move; 3
    blocks cost half as much again."""
    shape: tuple[int, int, int]
    policy_size: int
    channels: int = 32
    blocks: int = 2

    def param_shapes(self) -> dict[str, tuple[int, ...]]:
        """Every parameter's name and shape, in a fixed order. Weights end in `.w`
        (the ones L2 shrinks), biases in `.b`; a 3x3 kernel is (3, 3, in, out)."""
        planes, rows, cols = self.shape
        ch, cells = self.channels, rows * cols
        shapes = {"stem.w": (3, 3, planes, ch), "stem.b": (ch,)}
        for i in range(self.blocks):
            for conv in ("conv1", "conv2"):
                shapes[f"block{i}.{conv}.w"] = (3, 3, ch, ch)
                shapes[f"block{i}.{conv}.b"] = (ch,)
        shapes |= {"policy.conv.w": (ch, POLICY_PLANES), "policy.conv.b": (POLICY_PLANES,),
                   "policy.dense.w": (cells * POLICY_PLANES, self.policy_size),
                   "policy.dense.b": (self.policy_size,),
                   "value.conv.w": (ch, VALUE_PLANES), "value.conv.b": (VALUE_PLANES,),
                   "value.hidden.w": (cells * VALUE_PLANES, ch), "value.hidden.b": (ch,),
                   "value.out.w": (ch, 1), "value.out.b": (1,)}
        return shapes


def initial_std(name: str, shape: tuple[int, ...], blocks: int) -> float:
    """He initialisation for a layer a ReLU follows, with each residual branch's last
    convolution scaled by 1/sqrt(blocks) so that the sum of the branches keeps its
    scale without batch norm (as Fixup does); Glorot for the two layers that end in
    logits or tanh, a tenth of it, so that a new net's prior is near uniform and its
    value near 0, whatever the seed."""
    fan_in = math.prod(shape[:-1])
    if name in ("policy.dense.w", "value.out.w"):
        return 0.1 * math.sqrt(2.0 / (fan_in + shape[-1]))
    if name.endswith("conv2.w"):
        return math.sqrt(2.0 / fan_in / blocks)
    return math.sqrt(2.0 / fan_in)


def gather_index(rows: int, cols: int) -> np.ndarray:
    """For a board padded by one cell all round and flattened, the padded cell each
    (row, col, dy, dx) of a 3x3 window reads: im2col as one np.take."""
    r, c, dy, dx = np.meshgrid(np.arange(rows), np.arange(cols), np.arange(3),
                               np.arange(3), indexing="ij")
    return ((r + dy) * (cols + 2) + (c + dx)).ravel()


class Net:
    """A network: its config and its parameters (name -> array, as
    `NetConfig.param_shapes` lists them)."""

    def __init__(self, config: NetConfig, params: dict[str, np.ndarray]) -> None:
        one_blas_thread()
        self.config, self.params = config, params
        _, self.rows, self.cols = config.shape
        self.index = gather_index(self.rows, self.cols)

    @classmethod
    def new(cls, config: NetConfig, seed: int) -> Net:
        """A fresh net, its weights drawn from `np.random.default_rng(seed)`, its
        biases zero."""
        rng = np.random.default_rng(seed)
        params = {}
        for name, shape in config.param_shapes().items():
            if name.endswith(".w"):
                params[name] = (rng.standard_normal(shape)
                                * initial_std(name, shape, config.blocks))
            else:
                params[name] = np.zeros(shape)
            params[name] = params[name].astype(np.float32)
        return cls(config, params)

    @property
    def dtype(self) -> np.dtype:
        return self.params["stem.w"].dtype

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(policy logits [B, policy_size], values [B] in [-1, 1]) for a batch of
        input planes [B, planes, rows, cols]."""
        p, batch = self.params, len(x)
        a = np.ascontiguousarray(x.transpose(0, 2, 3, 1), dtype=self.dtype)
        a = self.conv3(a, "stem")
        for i in range(self.config.blocks):
            h = self.conv3(a, f"block{i}.conv1")
            a = self.conv3(h, f"block{i}.conv2", skip=a)
        flat = a.reshape(-1, self.config.channels)
        policy = (flat @ p["policy.conv.w"] + p["policy.conv.b"]).reshape(batch, -1)
        logits = policy @ p["policy.dense.w"] + p["policy.dense.b"]
        value = (flat @ p["value.conv.w"] + p["value.conv.b"]).reshape(batch, -1)
        hidden = relu(value @ p["value.hidden.w"] + p["value.hidden.b"])
        values = np.tanh(hidden @ p["value.out.w"] + p["value.out.b"])[:, 0]
        return logits, values

    def conv3(self, a: np.ndarray, name: str, skip: np.ndarray | None = None
              ) -> np.ndarray:
        """ReLU(3x3 convolution of `a` [B, rows, cols, in], same padding, + `skip`)."""
        batch, rows, cols, width = a.shape
        padded = np.zeros((batch, rows + 2, cols + 2, width), a.dtype)
        padded[:, 1:-1, 1:-1] = a
        columns = np.take(padded.reshape(batch, -1, width), self.index, axis=1,
                          mode="clip")  # every index is in range: no check needed
        columns = columns.reshape(batch * rows * cols, 9 * width)
        weights = self.params[name + ".w"]
        out = columns @ weights.reshape(-1, weights.shape[-1])
        out += self.params[name + ".b"]
        out = out.reshape(batch, rows, cols, -1)
        if skip is not None:
            out += skip
        np.maximum(out, 0, out=out)
        return out


@functools.cache
def one_blas_thread() -> bool:
    """Once per process, before its first net runs: numpy's matrix products on one
    thread. A net's products are small, and split over two busy cores they ran many
    times slower than on one (blas.py; tests/bench/bench_net.py measures both)."""
    return set_blas_threads(1)


def relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0, out=x)


# --- the file -------------------------------------------------------------------------

def save_net(net: Net, path: str | Path, info: dict) -> None:
    """Write `net` to `path` as an .npz: one array per parameter, and `config` and
    `info` (the game, the command, the seed, the generation...) as JSON text. Written
    beside `path` and renamed, so a file is whole or absent."""
    arrays = {name: np.asarray(value, np.float32) for name, value in net.params.items()}
    arrays["config"] = np.array(json.dumps(asdict(net.config)))
    arrays["info"] = np.array(json.dumps(info))
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    write_atomically(Path(path).expanduser(), buffer.getvalue())


def load_net(path: str | Path, *, encoding=None) -> tuple[Net, dict]:
    """(the net, its info) from a file `save_net` wrote, or UnreadableFile saying in
    one line what is wrong with it. The file is data, never code: no pickle, at most
    MAX_NET_BYTES on disk and unpacked, every array the config calls for and no other,
    each of its shape and finite. With `encoding` (anything with `shape` and
    `policy_size`), a net made for another input or policy is refused too."""
    path = Path(path).expanduser()
    arrays = read_arrays(path, read_file_bytes(path, "network", MAX_NET_BYTES))

    def fault(reason: str) -> UnreadableFile:
        return UnreadableFile(path, reason)

    config = net_config(read_json(arrays, "config", fault), fault)
    info = read_json(arrays, "info", fault)
    if not isinstance(info, dict):
        raise fault("its info is not a JSON object")
    shapes = config.param_shapes()
    params = {}
    for name, shape in shapes.items():
        if name not in arrays:
            raise fault(f"it has no array {name}, which its config calls for")
        array = arrays[name]
        if array.shape != shape:
            raise fault(f"its array {name} is {dims(array.shape)}, its config says "
                        f"{dims(shape)}")
        if array.dtype.kind not in "fiu" or not np.isfinite(array).all():
            raise fault(f"its array {name} is not all finite numbers")
        params[name] = array.astype(np.float32)
    extra = sorted(set(arrays) - set(shapes) - {"config", "info"})
    if extra:
        raise fault(f"it has an array its config does not call for: {shown(extra[0])}")
    if encoding is not None and (tuple(encoding.shape), encoding.policy_size) != (
            config.shape, config.policy_size):
        raise fault(f"it is a net for {dims(config.shape)} input planes and "
                    f"{config.policy_size} moves; this game has {dims(encoding.shape)} "
                    f"and {encoding.policy_size}")
    return Net(config, params), info


def read_arrays(path: Path, data: bytes) -> dict[str, np.ndarray]:
    """Every array of the .npz archive `data`, read without pickle, after checking
    that they unpack to at most MAX_NET_BYTES."""
    not_a_net = UnreadableFile(path, "it is not a network file (not an .npz archive)")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(member.file_size for member in archive.infolist())
    except (zipfile.BadZipFile, ValueError, EOFError):
        raise not_a_net from None
    if unpacked > MAX_NET_BYTES:
        raise UnreadableFile(path, f"its arrays unpack to {unpacked / 2**20:.3g} MB, over "
                                   f"the {MAX_NET_BYTES / 2**20:.3g} MB a network may have")
    arrays = {}
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            for name in archive.files:
                arrays[name] = archive[name]
    except Exception as error:  # numpy's readers raise a variety on a damaged file
        raise UnreadableFile(path, f"it is a damaged network file "
                                   f"({visible(str(error))})") from None
    for name, array in arrays.items():
        # numpy gives a member that is not a .npy array (no .npy header: a pickle, any
        # other file) as its bytes: refused, by name
        if not isinstance(array, np.ndarray):
            raise UnreadableFile(path, f"its member {shown(name)} is not a numpy array "
                                       "(.npy)")
    return arrays


def read_json(arrays: dict[str, np.ndarray], name: str, fault):
    array = arrays.get(name)
    if array is None:
        raise fault(f"it has no {name} array: not a plyground network")
    try:
        return json.loads(str(array[()]) if array.shape == () and array.dtype.kind == "U"
                          else "not text")
    except (ValueError, RecursionError):
        raise fault(f"its {name} is not JSON text") from None


def net_config(data, fault) -> NetConfig:
    """The NetConfig a file's config JSON describes, or `fault`."""
    def count(value) -> bool:
        return type(value) is int and 0 < value <= 4096
    try:
        shape = tuple(data["shape"])
        config = NetConfig(shape, data["policy_size"], data["channels"], data["blocks"])
    except (TypeError, KeyError):
        raise fault("its config is not a network's (shape, policy_size, channels, "
                    "blocks)") from None
    if not (len(shape) == 3 and all(map(count, shape)) and count(config.policy_size)
            and count(config.channels) and (count(config.blocks) or config.blocks == 0)):
        raise fault(f"its config has sizes that are not whole numbers from 1 to 4096: "
                    f"{shown(json.dumps(data))}")
    return config


def dims(shape) -> str:
    return "×".join(map(str, shape))


def file_hash(path: str | Path) -> str:
    """The sha256 of a file, in hex: the docs give each shipped net's."""
    digest = hashlib.sha256()
    with open(Path(path).expanduser(), "rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()
