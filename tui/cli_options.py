"""Options that several commands share, defined once so that they read the same."""
from __future__ import annotations

from typing import Annotated

import typer

from plyground.core.paths import NotReplaced
from plyground.core.trust import TRUST_OPTION

TrustAgents = Annotated[bool, typer.Option(
    TRUST_OPTION, help="run the agents from outside plyground that the file names (an "
    "engine command, a Python file, a module no installed package declares); without "
    "it, such a file is refused and nothing of it runs (see docs/security.md)")]

Force = Annotated[bool, typer.Option(
    "--force", help="replace an existing file (never a symbolic link)")]


def refusal(refused: NotReplaced) -> str:
    """What the CLI says when a file it would write is in the way."""
    if refused.symlink:
        return str(refused)
    return f"{refused} (--force replaces it)"
