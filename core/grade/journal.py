"""A grading run's journal: `OUT/journal.jsonl`, one line for each unit of work that
finished (a start, a search, a game), written and flushed to the disk as it ends, so
that a run stopped in any way (Ctrl-C, a SIGKILL, the machine going down) is resumed by
running it again: a unit in the journal is never played again.

The first line says what the run is (the spec's text and the students, by a hash; the
seed); a journal of another run is refused rather than mixed with this one. A last
line cut short by a kill is dropped (its unit is played again, as it never finished).
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from ..errors import PlygroundError, visible

NAME = "journal.jsonl"
VERSION = 1


def run_identity(spec_text: str, students: list[str], seed: int, extra: str = "") -> str:
    """What makes two runs the same run: the spec, the students, the seed."""
    digest = hashlib.sha256()
    for part in (spec_text, "\0".join(students), str(seed), extra):
        digest.update(part.encode("utf-8", "surrogateescape") + b"\1")
    return digest.hexdigest()


class Journal:
    """The finished units of one run, by key; `add` keeps one more, for good."""

    def __init__(self, folder: Path, identity: str) -> None:
        self.path = folder / NAME
        self.done: dict[str, Any] = {}
        self.resumed = False
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise PlygroundError(f"cannot make the folder {visible(str(folder))}: "
                                 f"{error.strerror or error}") from None
        try:
            self.file = open(self.path, "a", encoding="utf-8")
        except OSError as error:
            raise PlygroundError(f"cannot write {visible(str(self.path))}: "
                                 f"{error.strerror or error}") from None
        try:  # one run at a time in a folder: two would mix their lines
            fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.file.close()
            raise PlygroundError(f"another grading run is using {visible(str(folder))}: "
                                 "wait for it to end (or stop it) first") from None
        if self.path.stat().st_size:
            self._read(identity)
        if not self.resumed:
            self._write({"journal": VERSION, "run": identity})

    def _read(self, identity: str) -> None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise PlygroundError(f"cannot read {visible(str(self.path))}: {error}") \
                from None
        lines = text.split("\n")
        kept = 0  # the characters of whole lines read
        for number, line in enumerate(lines):
            if not line.strip():
                kept += len(line) + 1
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                if number >= len(lines) - 2:  # the last line, cut short by a kill
                    break
                raise PlygroundError(f"{visible(str(self.path))}:{number + 1} is not a "
                                     "journal line: the run's folder was changed by "
                                     "hand; grade into a new --out folder") from None
            if number == 0 or not self.resumed:
                if entry.get("run") != identity:
                    raise PlygroundError(
                        f"{visible(str(self.path.parent))} holds a grading run of another "
                        "spec, other submissions or another seed: give another --out "
                        "folder (or remove this one to grade again from the start)")
                self.resumed = True
            elif isinstance(entry, dict) and "key" in entry:
                self.done[entry["key"]] = entry.get("result")
            kept += len(line) + 1
        if kept < len(text):  # drop the cut line, so the next one starts whole
            with open(self.path, "r+", encoding="utf-8") as file:
                file.truncate(len(text[:kept].encode("utf-8")))

    def _write(self, entry: dict) -> None:
        self.file.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def add(self, key: str, result: Any) -> None:
        self._write({"key": key, "result": result})
        self.done[key] = result

    def close(self) -> None:
        self.file.close()
