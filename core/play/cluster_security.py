"""How plyground reaches a Dask scheduler over TLS: `--cluster tls://HOST:PORT` with
`--cluster-security FILE`, a small TOML file that names the certificates Dask's own
`distributed.security.Security` takes for a client (docs/cluster.md):

    tls_ca_file = "ca.pem"          # the authority that signed the cluster's certificates
    tls_client_cert = "client.pem"  # this machine's certificate ...
    tls_client_key = "client.key"   # ... and its key (leave out if the cert holds it)
    require_encryption = true       # refuse any tcp:// connection

Paths are read relative to the file's folder. Without the file, Dask's own configuration
(`distributed.comm.tls.*`) is used, as Dask would. TLS proves to each side that the other
holds a certificate the authority signed: it keeps strangers off the cluster, and it
cannot make a scheduler or worker that holds one any less trusted than code (whatever
they send back is unpickled here, which runs code as it is read; docs/security.md).

Nothing here imports Dask: the option is read and checked before any cluster is asked for.
"""
from __future__ import annotations

import tomllib
from pathlib import Path

from ..errors import PlygroundError, shown
from ..paths import UnreadableFile, read_text_file

FILES = ("tls_ca_file", "tls_client_cert", "tls_client_key")
FIELDS = (*FILES, "require_encryption")
SECURITY_BYTES = 64 * 1024  # a few lines of TOML: more is not such a file


class SecurityFileError(PlygroundError):
    """A `--cluster-security` file that cannot be used."""


class Scheduler(str):
    """A scheduler's address as the user gave it (`--cluster`), with the keyword
    arguments of Dask's Security that reach it (from `--cluster-security`; empty: Dask's
    configuration). A str, so that every command hands `--cluster` down as it is."""

    security: dict

    def __new__(cls, address: str, security: dict | None = None) -> "Scheduler":
        scheduler = super().__new__(cls, address)
        scheduler.security = dict(security or {})
        return scheduler


def security_of(address: str) -> dict:
    """The Security keyword arguments that go with `address` (none for a plain str)."""
    return dict(getattr(address, "security", None) or {})


def read_security(path: str | Path) -> dict:
    """Dask Security's keyword arguments from the TOML file at `path`, each file it
    names checked to be there; a SecurityFileError (one line) for anything else."""
    path = Path(path).expanduser()
    try:
        text = read_text_file(path, "cluster security file", limit=SECURITY_BYTES)
    except UnreadableFile as error:
        raise SecurityFileError(str(error)) from None
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SecurityFileError(f"the cluster security file {shown(str(path))} is not "
                                f"TOML: {error}") from None
    unknown = sorted(set(table) - set(FIELDS))
    if unknown:
        raise SecurityFileError(f"the cluster security file {shown(str(path))} has "
                                f"{shown(unknown[0])}, which is not one of "
                                f"{', '.join(FIELDS)}")
    for name in ("tls_ca_file", "tls_client_cert"):
        if name not in table:
            raise SecurityFileError(f"the cluster security file {shown(str(path))} "
                                    f"needs {name} (see docs/cluster.md)")
    security: dict = {}
    for name in FILES:
        if name in table:
            security[name] = certificate(path, name, table[name])
    encryption = table.get("require_encryption", True)
    if not isinstance(encryption, bool):
        raise SecurityFileError(f"require_encryption in {shown(str(path))} is true or "
                                "false")
    security["require_encryption"] = encryption
    return security


def certificate(path: Path, name: str, value: object) -> str:
    """The file `value` names (relative to the security file's folder), checked to be
    a regular file there."""
    if not isinstance(value, str) or not value:
        raise SecurityFileError(f"{name} in {shown(str(path))} is a file name, in quotes")
    file = (path.parent / Path(value).expanduser()).resolve()
    if not file.is_file():
        raise SecurityFileError(f"{name} in {shown(str(path))} names {shown(str(file))}, "
                                "which is no file")
    return str(file)
