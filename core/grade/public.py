"""The public part of a grading spec: the spec's text without its hidden checks, the
file a teacher hands to the students so that they know what will be checked.

It is cut from the teacher's text, not written anew, so that its comments and layout
stay; a hidden check goes with the comment and blank lines just above its header (the
comment that says what it looks for).
"""
from __future__ import annotations

from ..errors import PlygroundError
from ..paths import parse_toml
from .spec import CheckLines, GradingSpec


def is_aside(line: str) -> bool:
    return not line.strip() or line.lstrip().startswith("#")


def public_text(spec: GradingSpec) -> str:
    """The text of `spec` (read without faults) with its hidden checks taken out."""
    if not spec.public:
        raise PlygroundError("the spec has no public checks (public = true): there is "
                             "nothing to hand out")
    lines = spec.source.splitlines(keepends=True)
    headers = CheckLines(spec.source).scenes  # (1-based, one per check, in order)
    starts = []  # each check's first line (0-based), its comment above it included
    for index, header in enumerate(headers):
        start, floor = header - 1, headers[index - 1] if index else 0
        while start > floor and is_aside(lines[start - 1]):
            start -= 1
        starts.append(start)
    hidden = {check.line for check in spec.checks if not check.public}
    kept = lines[:starts[0]]
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(lines)
        if headers[index] not in hidden:
            kept.extend(lines[start:end])
    text = "".join(kept)
    # the cut is checked: the text left holds exactly the public checks
    left = [check.get("name") for check in parse_toml(text).get("check", [])]
    if left != [check.name for check in spec.public]:
        raise PlygroundError("the public part could not be cut from the spec's text "
                             "(write each check as a [[check]] table of its own)")
    return text
