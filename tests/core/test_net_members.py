"""A network file whose members are not .npy arrays (raw bytes, a pickle, an object
array) is refused in one line naming the file, never read as code and never a
traceback; and a training whose net or arrays could not be held is refused before
anything is allocated."""
from __future__ import annotations

import io
import pickle
import zipfile

import numpy as np
import pytest

from plyground.core import PlygroundError
from plyground.core.agents.learned.net import load_net
from plyground.core.agents.learned.settings import AzSettings, TrainingError
from plyground.core.agents.learned.train import new_net
from plyground.core.game import get_game
from plyground.core.paths import UnreadableFile


def npy(array: np.ndarray, allow_pickle: bool = False) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=allow_pickle)
    return buffer.getvalue()


CONFIG = b'{"shape": [2, 3, 3], "policy_size": 9, "channels": 4, "blocks": 1}'
MEMBERS = {
    "raw bytes": {"config": CONFIG, "info.npy": npy(np.array("{}"))},
    "a pickle named .npy": {"config.npy": pickle.dumps({"shape": [2, 3, 3]}),
                            "info.npy": npy(np.array("{}"))},
    "an object array": {"config.npy": npy(np.array([{"a": 1}], dtype=object), True),
                        "info.npy": npy(np.array("{}"))},
    "a folder": {"config/": b"", "info.npy": npy(np.array("{}"))},
}


@pytest.mark.parametrize("kind", sorted(MEMBERS))
def test_a_member_that_is_not_an_npy_array_is_one_line_naming_the_file(tmp_path, kind):
    path = tmp_path / "net.npz"
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in MEMBERS[kind].items():
            archive.writestr(name, data)
    with pytest.raises(UnreadableFile) as refused:
        load_net(path)
    message = str(refused.value)
    assert str(path) in message and len(message.splitlines()) == 1
    assert any(word in message.lower() for word in ("config", "pickle", "object"))


@pytest.mark.parametrize("sizes, said", [
    ({"channels": 512, "blocks": 64}, "a network file may hold"),
    ({"batch": 65_536, "buffer": 10_000_000, "channels": 128, "blocks": 3},
     "more than this machine's"),
])
def test_a_training_too_large_to_hold_is_refused_before_it_allocates(sizes, said,
                                                                    monkeypatch):
    from plyground.core.agents.learned import train

    monkeypatch.setattr(train, "machine_memory", lambda: 2 << 30)  # a 2 GiB machine
    with pytest.raises(TrainingError, match=said):
        new_net(get_game("connect4"), AzSettings(**sizes))


def test_a_training_past_its_ranges_is_refused_by_its_settings():
    with pytest.raises(PlygroundError, match="channels must be at most 512"):
        AzSettings(channels=100_000).check()
